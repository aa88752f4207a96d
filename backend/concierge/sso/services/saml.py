"""SAML 2.0 through pysaml2 (signatures checked by Debian's xmlsec1): our service provider per
company (its metadata at a stable address), sign-in started here or at the identity provider,
and the answer checked: signed assertion, audience, recipient, lifetime, and an assertion id
that works once."""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
from defusedxml import ElementTree as DefusedET
from django.core.cache import cache
from django.utils import timezone
from saml2 import BINDING_HTTP_POST, BINDING_HTTP_REDIRECT, SAMLError
from saml2.client import Saml2Client
from saml2.config import SPConfig
from saml2.metadata import entity_descriptor
from saml2.response import AuthnResponse

from concierge.accounts.services.links import account_link
from concierge.sso.models import IdentityProvider
from concierge.sso.services.errors import SignInRefused
from concierge.sso.services.records import used_id_record

METADATA_SECONDS = 300
TIMEOUT_SECONDS = 10
CLOCK_SKEW_SECONDS = 60
_MFA_CONTEXTS = {
    "https://refeds.org/profile/mfa",
    "http://schemas.microsoft.com/claims/multipleauthn",
    "urn:oasis:names:tc:SAML:2.0:ac:classes:MobileTwoFactorContract",
    "urn:oasis:names:tc:SAML:2.0:ac:classes:MobileTwoFactorUnregistered",
    "urn:oasis:names:tc:SAML:2.0:ac:classes:TimeSyncToken",
    "urn:oasis:names:tc:SAML:2.0:ac:classes:Smartcard",
    "urn:oasis:names:tc:SAML:2.0:ac:classes:SmartcardPKI",
}

XMLDSIG = "http://www.w3.org/2000/09/xmldsig#"
_WEAK_ALGORITHMS = {f"{XMLDSIG}rsa-sha1", f"{XMLDSIG}dsa-sha1", f"{XMLDSIG}sha1"}

NO_METADATA = "Your company's sign-in is not set up completely yet. Please contact your employer."
UNREACHABLE = "We couldn't reach your company's sign-in. Please try again in a moment."
BAD_ANSWER = (
    "Your company's sign-in sent an answer we can't accept ({reason}). Nobody was signed in."
)


def entity_id(provider: IdentityProvider) -> str:
    """Our service provider's entity id: its metadata's address, stable per company."""
    return account_link(f"/api/v1/sso/{provider.company.slug}/saml/metadata")


def acs_url(provider: IdentityProvider) -> str:
    return account_link(f"/api/v1/sso/{provider.company.slug}/saml/acs")


def _idp_metadata(provider: IdentityProvider) -> str:
    if provider.saml_metadata_xml.strip():
        return provider.saml_metadata_xml
    if not provider.saml_metadata_url:
        raise SignInRefused(NO_METADATA)
    key = "sso:saml-md:" + hashlib.sha256(provider.saml_metadata_url.encode()).hexdigest()
    if (found := cache.get(key)) is not None:
        return found  # type: ignore[no-any-return]
    try:
        response = httpx.get(provider.saml_metadata_url, timeout=TIMEOUT_SECONDS)
        response.raise_for_status()
    except httpx.HTTPError:
        raise SignInRefused(UNREACHABLE) from None
    cache.set(key, response.text, METADATA_SECONDS)
    return response.text


def _config(provider: IdentityProvider, *, with_idp: bool = True) -> SPConfig:
    settings: dict[str, Any] = {
        "entityid": entity_id(provider),
        "service": {
            "sp": {
                "name": provider.company.name,
                "endpoints": {
                    "assertion_consumer_service": [(acs_url(provider), BINDING_HTTP_POST)]
                },
                "allow_unsolicited": True,  # IdP-initiated sign-in
                "authn_requests_signed": False,
                "want_assertions_signed": True,
                "want_response_signed": False,
                "name_id_format_allow_create": True,
            }
        },
        "accepted_time_diff": CLOCK_SKEW_SECONDS,
        "allow_unknown_attributes": True,
    }
    if with_idp:
        settings["metadata"] = {"inline": [_idp_metadata(provider)]}
    config = SPConfig()
    try:
        config.load(settings)
    except (SAMLError, ValueError, SyntaxError) as exc:
        raise SignInRefused(NO_METADATA) from exc
    return config


def _client(provider: IdentityProvider) -> Saml2Client:
    client = Saml2Client(config=_config(provider))
    if not list(client.metadata.identity_providers()):
        raise SignInRefused(NO_METADATA)
    return client


def sp_metadata(provider: IdentityProvider) -> str:
    """Our service provider's metadata for the company's identity provider to import."""
    return str(entity_descriptor(_config(provider, with_idp=False)))


def authn_request(*, provider: IdentityProvider, relay_state: str) -> tuple[str, str]:
    """(request id, the address that takes the browser to the provider with the request)."""
    client = _client(provider)
    idp = next(iter(client.metadata.identity_providers()))
    try:
        request_id, info = client.prepare_for_authenticate(
            entityid=idp, relay_state=relay_state, binding=BINDING_HTTP_REDIRECT
        )
    except SAMLError:
        raise SignInRefused(NO_METADATA) from None
    location = dict(info["headers"])["Location"]
    return str(request_id), location


@dataclass(frozen=True)
class SamlIdentity:
    attributes: dict[str, list[str]]
    name_id: str
    mfa_done: bool


def identity_from_response(
    *, provider: IdentityProvider, saml_response: str, request_id: str | None
) -> SamlIdentity:
    """The person a signed SAML response names, once pysaml2 (xmlsec1) checked its signature,
    audience, recipient and lifetime; its assertion id is then recorded so it never works
    again. `request_id` is the AuthnRequest it answers (None: started at the provider)."""
    client = _client(provider)
    outstanding = {request_id: "/"} if request_id else {}
    if len(saml_response) > 500_000:
        raise SignInRefused(BAD_ANSWER.format(reason="too large"))
    _strong_algorithms_only(saml_response)
    try:
        response = client.parse_authn_request_response(
            saml_response,
            BINDING_HTTP_POST,
            outstanding=outstanding,
            # Without it pysaml2 takes any SubjectConfirmationData Recipient.
            conv_info={"entity_id": entity_id(provider)},
        )
    except Exception as exc:  # pysaml2 raises many kinds (SAMLError, ValueError, XML errors...)
        raise SignInRefused(BAD_ANSWER.format(reason=_reason(exc))) from None
    destination = getattr(getattr(response, "response", None), "destination", None)
    if response is None or destination not in (None, acs_url(provider)):
        # pysaml2 stops checking (no assertion) at a Destination that is not our ACS.
        raise SignInRefused(BAD_ANSWER.format(reason="it is addressed to another service"))
    if not isinstance(response, AuthnResponse) or response.assertion is None:
        raise SignInRefused(BAD_ANSWER.format(reason="no assertion"))
    if (response.in_response_to or None) != request_id:
        # pysaml2 lets an unsolicited-looking answer through (IdP-initiated sign-in is on):
        # an answer must name exactly the request we sent, or none when we sent none.
        raise SignInRefused(BAD_ANSWER.format(reason="it answers a sign-in started elsewhere"))
    _record_assertion(provider, response)
    attributes = {str(k): [str(v) for v in vs] for k, vs in (response.ava or {}).items()}
    name_id = getattr(response.name_id, "text", "") or ""
    contexts = {context for context, _, _ in response.authn_info()}
    return SamlIdentity(attributes, str(name_id), bool(contexts & _MFA_CONTEXTS))


def _strong_algorithms_only(saml_response: str) -> None:
    """Refuses an answer whose signatures use SHA-1 (a policy read from the algorithm names;
    the signatures themselves are checked by pysaml2 and xmlsec1)."""
    try:
        root = DefusedET.fromstring(base64.b64decode(saml_response, validate=False))
    except Exception:  # not base64 or not XML: pysaml2 refuses it with its own reason
        return
    for name in ("SignatureMethod", "DigestMethod"):
        for element in root.iter(f"{{{XMLDSIG}}}{name}"):
            if element.get("Algorithm") in _WEAK_ALGORITHMS:
                raise SignInRefused(BAD_ANSWER.format(reason="it is signed with SHA-1"))


def _record_assertion(provider: IdentityProvider, response: AuthnResponse) -> None:
    valid_until = timezone.now() + timedelta(hours=1)
    if response.not_on_or_after:
        valid_until = datetime.fromtimestamp(response.not_on_or_after, tz=UTC)
    used_id_record(
        kind=f"saml-assertion:{provider.pk}",
        value=str(response.assertion.id),
        valid_until=valid_until,
    )


def _reason(exc: Exception) -> str:
    """A short, safe reason for the person (pysaml2's exception kinds)."""
    name = type(exc).__name__
    text = str(exc).lower()
    if "audience" in text or name == "AudienceRestrictionError":
        return "it is meant for another service"
    if "destination" in text or "recipient" in text or name == "OtherError" and "return" in text:
        return "it is addressed to another service"
    if "on_or_after" in text or "too old" in text or name == "ResponseLifetimeExceed":
        return "it has expired"
    if "not_before" in text or "not yet valid" in text or name == "ToEarly":
        return "it is not valid yet"
    if "sign" in text or name in ("SignatureError", "IncorrectlySigned", "MissingKey"):
        return "its signature is missing or wrong"
    return "it is not a valid sign-in answer"
