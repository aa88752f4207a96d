"""A small OpenID Connect provider for the tests, served over real HTTP on this machine:
discovery, published keys, an authorization endpoint (a sign-in form, or a person signed in
at once), and a token endpoint that checks the client's secret, the redirect address and the
PKCE verifier before it hands out an ID token signed with a key made here. The tests craft
bad ID tokens through `next_claims` (changed claims), `sign_with` (another key) and
`unsigned` (alg "none")."""

from __future__ import annotations

import base64
import hashlib
import html
import secrets
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import orjson
from joserfc import jwt
from joserfc.jwk import KeySet, RSAKey


def rsa_key(kid: str) -> RSAKey:
    return RSAKey.generate_key(2048, parameters={"kid": kid, "use": "sig", "alg": "RS256"})


def _b64(value: dict[str, Any]) -> str:
    return base64.urlsafe_b64encode(orjson.dumps(value)).rstrip(b"=").decode()


@dataclass
class Person:
    email: str
    given_name: str = "Nia"
    family_name: str = "Okafor"
    employee_id: str = "E-100"
    amr: list[str] = field(default_factory=lambda: ["pwd"])


@dataclass
class PendingCode:
    client_id: str
    redirect_uri: str
    challenge: str
    nonce: str
    person: Person


class OidcProvider:
    """Start with `with OidcProvider(...) as idp:`; `idp.issuer` is its address."""

    def __init__(self, client_id: str = "concierge", client_secret: str = "s3cret-client") -> None:
        self.client_id = client_id
        self.client_secret = client_secret
        self.key = rsa_key("test-key-1")
        self.person: Person | None = None  # signed in at once when set (API tests)
        self.next_claims: dict[str, Any] = {}  # applied to the next ID token, then cleared
        self.sign_with: RSAKey | None = None
        self.unsigned = False  # the next ID token has alg "none" and no signature
        self.replay_id_token: str | None = None  # handed out instead of a new ID token
        self.issued: list[str] = []  # every ID token handed out
        self.email_in_userinfo_only = False  # as some providers do with a minimal ID token
        self.access_tokens: dict[str, Person] = {}
        self.codes: dict[str, PendingCode] = {}
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.issuer = f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> OidcProvider:
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def configuration(self) -> dict[str, Any]:
        return {
            "issuer": self.issuer,
            "authorization_endpoint": f"{self.issuer}/authorize",
            "token_endpoint": f"{self.issuer}/token",
            "jwks_uri": f"{self.issuer}/jwks",
            "userinfo_endpoint": f"{self.issuer}/userinfo",
            "response_types_supported": ["code"],
            "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": ["RS256"],
            "code_challenge_methods_supported": ["S256"],
        }

    def id_token(self, pending: PendingCode) -> str:
        now = int(time.time())
        person = pending.person
        claims: dict[str, Any] = {
            "iss": self.issuer,
            "sub": hashlib.sha256(person.email.encode()).hexdigest()[:16],
            "aud": pending.client_id,
            "iat": now,
            "exp": now + 300,
            "nonce": pending.nonce,
            "email": person.email,
            "email_verified": True,
            "given_name": person.given_name,
            "family_name": person.family_name,
            "employee_id": person.employee_id,
            "amr": person.amr,
        }
        if self.email_in_userinfo_only:
            del claims["email"], claims["email_verified"]
        claims.update(self.next_claims)
        self.next_claims = {}
        claims = {k: v for k, v in claims.items() if v is not None}
        key = self.sign_with or self.key
        if self.unsigned:
            self.unsigned = False
            return ".".join([_b64({"alg": "none", "kid": key.kid}), _b64(claims), ""])
        return jwt.encode({"alg": "RS256", "kid": key.kid}, claims, key)

    # ------------------------------------------------------------------ HTTP

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        provider = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def _send(self, status: int, body: bytes, content_type: str, **headers: str) -> None:
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(body)

            def _json(self, status: int, data: dict[str, Any]) -> None:
                self._send(status, orjson.dumps(data), "application/json")

            def _form(self) -> dict[str, str]:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length).decode()
                return {k: v[0] for k, v in parse_qs(raw).items()}

            def do_GET(self) -> None:
                url = urlsplit(self.path)
                query = {k: v[0] for k, v in parse_qs(url.query).items()}
                if url.path == "/.well-known/openid-configuration":
                    return self._json(200, provider.configuration())
                if url.path == "/jwks":
                    return self._json(200, KeySet([provider.key]).as_dict(private=False))
                if url.path == "/authorize":
                    return self._authorize(query)
                if url.path == "/userinfo":
                    return self._userinfo()
                self._json(404, {"error": "not_found"})

            def do_POST(self) -> None:
                if self.path == "/authorize":
                    form = self._form()
                    person = Person(
                        email=form.get("email", ""),
                        given_name=form.get("given_name", ""),
                        family_name=form.get("family_name", ""),
                        amr=["pwd", "otp"] if form.get("mfa") else ["pwd"],
                    )
                    return self._approve(form, person)
                if self.path == "/token":
                    return self._token(self._form())
                self._json(404, {"error": "not_found"})

            def _userinfo(self) -> None:
                bearer = self.headers.get("Authorization", "").removeprefix("Bearer ")
                person = provider.access_tokens.get(bearer)
                if person is None:
                    return self._json(401, {"error": "invalid_token"})
                sub = hashlib.sha256(person.email.encode()).hexdigest()[:16]
                self._json(200, {"sub": sub, "email": person.email, "email_verified": True})

            def _authorize(self, query: dict[str, str]) -> None:
                if query.get("client_id") != provider.client_id or not query.get("redirect_uri"):
                    return self._json(400, {"error": "invalid_client"})
                if query.get("code_challenge_method") != "S256" or not query.get("code_challenge"):
                    return self._json(400, {"error": "invalid_request"})
                if provider.person is not None:
                    return self._approve(query, provider.person)
                hidden = "".join(
                    f'<input type="hidden" name="{html.escape(k)}" value="{html.escape(v)}">'
                    for k, v in query.items()
                )
                page = (
                    "<!doctype html><html lang=en><title>Test identity provider</title>"
                    "<h1>Test identity provider (OIDC)</h1>"
                    '<form method="post" action="/authorize">'
                    f"{hidden}"
                    '<label>Email <input name="email" type="email"></label>'
                    '<label>First name <input name="given_name"></label>'
                    '<label>Last name <input name="family_name"></label>'
                    '<label><input type="checkbox" name="mfa"> Used a second factor</label>'
                    "<button>Sign in at the provider</button></form></html>"
                )
                self._send(200, page.encode(), "text/html; charset=utf-8")

            def _approve(self, request: dict[str, str], person: Person) -> None:
                code = secrets.token_urlsafe(16)
                provider.codes[code] = PendingCode(
                    client_id=request["client_id"],
                    redirect_uri=request["redirect_uri"],
                    challenge=request["code_challenge"],
                    nonce=request.get("nonce", ""),
                    person=person,
                )
                target = (
                    request["redirect_uri"]
                    + "?"
                    + urlencode({"code": code, "state": request.get("state", "")})
                )
                self._send(302, b"", "text/plain", Location=target)

            def _token(self, form: dict[str, str]) -> None:
                auth = self.headers.get("Authorization", "")
                expected = base64.b64encode(
                    f"{provider.client_id}:{provider.client_secret}".encode()
                ).decode()
                if auth != f"Basic {expected}":
                    return self._json(401, {"error": "invalid_client"})
                pending = provider.codes.pop(form.get("code", ""), None)
                if pending is None or form.get("redirect_uri") != pending.redirect_uri:
                    return self._json(400, {"error": "invalid_grant"})
                verifier = form.get("code_verifier", "")
                digest = hashlib.sha256(verifier.encode()).digest()
                challenge = base64.urlsafe_b64encode(digest).rstrip(b"=").decode()
                if challenge != pending.challenge:
                    return self._json(400, {"error": "invalid_grant", "error_description": "PKCE"})
                id_token = provider.replay_id_token or provider.id_token(pending)
                provider.issued.append(id_token)
                access_token = secrets.token_urlsafe(16)
                provider.access_tokens[access_token] = pending.person
                self._json(
                    200,
                    {
                        "access_token": access_token,
                        "token_type": "Bearer",
                        "expires_in": 300,
                        "id_token": id_token,
                    },
                )

        return Handler
