"""A SAML 2.0 identity provider for the tests, built from pysaml2's own IdP classes
(`saml2.server.Server`, signatures by xmlsec1) with a key and certificate made here. It
answers our AuthnRequests (HTTP-Redirect) with a sign-in form, starts IdP-initiated sign-ins,
and makes the crafted answers of the refusal tests (`response`)."""

from __future__ import annotations

import base64
import datetime as dt
import html
import tempfile
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.x509.oid import NameOID
from saml2 import BINDING_HTTP_REDIRECT
from saml2.config import IdPConfig
from saml2.metadata import create_metadata_string
from saml2.saml import NAMEID_FORMAT_EMAILADDRESS, NameID
from saml2.server import Server
from saml2.xmldsig import DIGEST_SHA1, DIGEST_SHA256, SIG_RSA_SHA1, SIG_RSA_SHA256

PASSWORD_CONTEXT = "urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport"
MFA_CONTEXT = "https://refeds.org/profile/mfa"


def key_and_certificate(folder: Path, name: str) -> tuple[Path, Path]:
    """A new RSA key and a self-signed certificate for it, as PEM files in `folder`."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = dt.datetime.now(dt.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(days=1))
        .not_valid_after(now + dt.timedelta(days=30))
        .sign(key, hashes.SHA256())
    )
    key_file, cert_file = folder / f"{name}.key", folder / f"{name}.crt"
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.TraditionalOpenSSL,
            serialization.NoEncryption(),
        )
    )
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    return key_file, cert_file


@dataclass
class SamlPerson:
    email: str
    given_name: str = "Sam"
    family_name: str = "Lee"
    employee_id: str = "S-200"
    mfa: bool = False


class SamlIdp:
    """`with SamlIdp(sp_metadata_xml) as idp:`; `idp.metadata` goes in the company's settings."""

    def __init__(self, sp_metadata: str) -> None:
        self._folder = tempfile.TemporaryDirectory()
        self.folder = Path(self._folder.name)
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.base = f"http://127.0.0.1:{self._server.server_address[1]}"
        self.sp_metadata = sp_metadata
        self.server = self._saml_server(*key_and_certificate(self.folder, "idp"))
        self.metadata = create_metadata_string(None, config=self.server.config).decode()
        self.person: SamlPerson | None = None  # answered at once when set

    def _saml_server(self, key_file: Path, cert_file: Path, entity_id: str | None = None) -> Server:
        sp_file = self.folder / "sp.xml"
        sp_file.write_text(self.sp_metadata)
        config = IdPConfig()
        config.load(
            {
                "entityid": entity_id or f"{self.base}/idp",
                "service": {
                    "idp": {
                        "endpoints": {
                            "single_sign_on_service": [
                                (f"{self.base}/sso/redirect", BINDING_HTTP_REDIRECT)
                            ]
                        },
                        "policy": {
                            "default": {
                                "lifetime": {"minutes": 5},
                                "attribute_restrictions": None,
                                "name_form": "urn:oasis:names:tc:SAML:2.0:attrname-format:basic",
                            }
                        },
                        "name_id_format": [NAMEID_FORMAT_EMAILADDRESS],
                    }
                },
                "key_file": str(key_file),
                "cert_file": str(cert_file),
                "metadata": {"local": [str(sp_file)]},
                "allow_unknown_attributes": True,
            }
        )
        return Server(config=config)

    def __enter__(self) -> SamlIdp:
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._folder.cleanup()

    def response(
        self,
        person: SamlPerson,
        *,
        acs: str,
        audience: str,
        in_response_to: str | None = None,
        destination: str | None = None,
        sign_assertion: bool = True,
        signer: Server | None = None,
        sha1: bool = False,
    ) -> str:
        """A SAML Response (XML) for `person`, signed by this IdP's key (or `signer`'s)."""
        identity = {
            "email": [person.email],
            "given_name": [person.given_name],
            "family_name": [person.family_name],
            "employee_id": [person.employee_id],
        }
        server = signer or self.server
        response = server.create_authn_response(
            identity=identity,
            in_response_to=in_response_to,
            destination=destination or acs,
            sp_entity_id=audience,
            name_id=NameID(format=NAMEID_FORMAT_EMAILADDRESS, text=person.email),
            authn={"class_ref": MFA_CONTEXT if person.mfa else PASSWORD_CONTEXT},
            sign_assertion=sign_assertion,
            sign_response=False,
            userid=person.email,
            sign_alg=SIG_RSA_SHA1 if sha1 else SIG_RSA_SHA256,
            digest_alg=DIGEST_SHA1 if sha1 else DIGEST_SHA256,
        )
        return str(response)

    def impostor(self) -> Server:
        """The same IdP's name with another key: what a re-signed answer is signed with."""
        return self._saml_server(
            *key_and_certificate(self.folder, "impostor"), self.server.config.entityid
        )

    @staticmethod
    def encoded(xml: str) -> str:
        return base64.b64encode(xml.encode()).decode()

    def post_form(self, acs: str, xml: str, relay_state: str = "") -> str:
        """The auto-submitting page an IdP returns to post its answer through the browser."""
        relay = (
            f'<input type="hidden" name="RelayState" value="{html.escape(relay_state)}">'
            if relay_state
            else ""
        )
        return (
            "<!doctype html><html lang=en><title>Signing you in</title>"
            f'<form method="post" action="{html.escape(acs)}">'
            f'<input type="hidden" name="SAMLResponse" value="{self.encoded(xml)}">{relay}'
            "<noscript><button>Continue</button></noscript></form>"
            "<script>document.forms[0].submit()</script></html>"
        )

    # ------------------------------------------------------------------ HTTP

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        idp = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def _page(self, body: str, status: int = 200) -> None:
                data = body.encode()
                self.send_response(status)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:
                url = urlsplit(self.path)
                query = {k: v[0] for k, v in parse_qs(url.query).items()}
                if url.path == "/metadata":
                    return self._page(idp.metadata)
                if url.path == "/sso/redirect":
                    return self._login_form(query)
                if url.path == "/idp-initiated":
                    return self._login_form({"acs": query.get("acs", "")})
                self._page("not found", 404)

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                form = {k: v[0] for k, v in parse_qs(self.rfile.read(length).decode()).items()}
                person = SamlPerson(
                    email=form.get("email", ""),
                    given_name=form.get("given_name", ""),
                    family_name=form.get("family_name", ""),
                    mfa=bool(form.get("mfa")),
                )
                self._answer(form, person)

            def _login_form(self, query: dict[str, str]) -> None:
                if "SAMLRequest" in query:
                    request = idp.server.parse_authn_request(
                        query["SAMLRequest"], BINDING_HTTP_REDIRECT
                    ).message
                    fields = {
                        "request_id": request.id,
                        "acs": request.assertion_consumer_service_url,
                        "audience": request.issuer.text,
                        "relay_state": query.get("RelayState", ""),
                    }
                else:  # IdP-initiated: no request
                    acs = query["acs"]
                    fields = {"acs": acs, "audience": acs.removesuffix("/acs") + "/metadata"}
                if idp.person is not None:
                    return self._answer(fields, idp.person)
                hidden = "".join(
                    f'<input type="hidden" name="{k}" value="{html.escape(v)}">'
                    for k, v in fields.items()
                )
                self._page(
                    "<!doctype html><html lang=en><title>Test identity provider</title>"
                    "<h1>Test identity provider (SAML)</h1>"
                    f'<form method="post" action="/sso/login">{hidden}'
                    '<label>Email <input name="email" type="email"></label>'
                    '<label>First name <input name="given_name"></label>'
                    '<label>Last name <input name="family_name"></label>'
                    '<label><input type="checkbox" name="mfa"> Used a second factor</label>'
                    "<button>Sign in at the provider</button></form></html>"
                )

            def _answer(self, fields: dict[str, Any], person: SamlPerson) -> None:
                xml = idp.response(
                    person,
                    acs=fields["acs"],
                    audience=fields["audience"],
                    in_response_to=fields.get("request_id") or None,
                )
                self._page(idp.post_form(fields["acs"], xml, fields.get("relay_state", "")))

        return Handler
