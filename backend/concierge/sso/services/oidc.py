"""OpenID Connect (authorization code with PKCE, `state` and `nonce`) through authlib's client;
the ID token's signature and claims checked by joserfc against the provider's published keys."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import httpx
from authlib.integrations.requests_client import OAuth2Session
from authlib.oauth2 import OAuth2Error
from django.core.cache import cache
from joserfc import jwt
from joserfc.errors import JoseError
from joserfc.jwk import KeySet
from requests import RequestException

from concierge.accounts.services.links import account_link
from concierge.accounts.services.mfa.totp import secret_decrypt
from concierge.sso.models import IdentityProvider, SignInAttempt
from concierge.sso.services.errors import SignInRefused
from concierge.sso.services.records import used_id_record

CALLBACK_PATH = "/api/v1/sso/oidc/callback"
METADATA_SECONDS = 300
TIMEOUT_SECONDS = 10
CLOCK_SKEW_SECONDS = 60
ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "ES256", "ES384", "EdDSA"]
# RFC 8176 methods: "mfa" says it; two different factors say it too.
_MFA_AMR = {"mfa"}
_FACTOR_AMR = {
    "pwd",
    "pin",
    "kba",
    "hwk",
    "swk",
    "otp",
    "sms",
    "tel",
    "fpt",
    "face",
    "iris",
    "retina",
    "sc",
}
_MFA_ACR = {
    "https://refeds.org/profile/mfa",
    "http://schemas.openid.net/pape/policies/2007/06/multi-factor",
    "http://schemas.openid.net/pape/policies/2007/06/multi-factor-physical",
    "http://schemas.microsoft.com/claims/multipleauthn",
}

UNREACHABLE = "We couldn't reach your company's sign-in. Please try again in a moment."
BAD_TOKEN = (
    "Your company's sign-in sent an answer we can't accept ({reason}). Nobody was signed in."
)


def redirect_uri() -> str:
    """The one callback address to register at the provider."""
    return account_link(CALLBACK_PATH)


@dataclass(frozen=True)
class OidcIdentity:
    claims: dict[str, Any]
    mfa_done: bool


def _get_json(url: str) -> dict[str, Any]:
    try:
        response = httpx.get(url, timeout=TIMEOUT_SECONDS, follow_redirects=False)
        response.raise_for_status()
        data = response.json()
    except (httpx.HTTPError, ValueError):
        raise SignInRefused(UNREACHABLE) from None
    if not isinstance(data, dict):
        raise SignInRefused(UNREACHABLE)
    return data


def discovery(issuer: str) -> dict[str, Any]:
    """The provider's configuration (<issuer>/.well-known/openid-configuration), cached briefly."""
    key = "sso:oidc:" + hashlib.sha256(issuer.encode()).hexdigest()
    if (found := cache.get(key)) is not None:
        return found  # type: ignore[no-any-return]
    data = _get_json(issuer.rstrip("/") + "/.well-known/openid-configuration")
    if str(data.get("issuer", "")).rstrip("/") != issuer.rstrip("/"):
        raise SignInRefused(BAD_TOKEN.format(reason="its configuration names another issuer"))
    for name in ("authorization_endpoint", "token_endpoint", "jwks_uri"):
        if not isinstance(data.get(name), str):
            raise SignInRefused(UNREACHABLE)
    cache.set(key, data, METADATA_SECONDS)
    return data


def _session(provider: IdentityProvider) -> OAuth2Session:
    return OAuth2Session(
        client_id=provider.oidc_client_id,
        client_secret=secret_decrypt(provider.oidc_client_secret_encrypted),
        scope=provider.oidc_scopes or "openid email profile",
        redirect_uri=redirect_uri(),
        code_challenge_method="S256",
    )


def authorization_url(*, provider: IdentityProvider, attempt: SignInAttempt, state: str) -> str:
    """Where the browser goes to sign in at the provider."""
    endpoint = discovery(provider.oidc_issuer)["authorization_endpoint"]
    url, _ = _session(provider).create_authorization_url(
        endpoint, state=state, code_verifier=attempt.code_verifier, nonce=attempt.nonce
    )
    return str(url)


def identity_from_code(*, attempt: SignInAttempt, code: str) -> OidcIdentity:
    """Exchanges the code (with the PKCE verifier) and checks the ID token."""
    provider = attempt.provider
    config = discovery(provider.oidc_issuer)
    try:
        token = _session(provider).fetch_token(
            config["token_endpoint"],
            code=code,
            code_verifier=attempt.code_verifier,
            timeout=TIMEOUT_SECONDS,
        )
    except (OAuth2Error, RequestException, ValueError):
        raise SignInRefused(BAD_TOKEN.format(reason="the code was refused")) from None
    id_token = token.get("id_token")
    if not isinstance(id_token, str):
        raise SignInRefused(BAD_TOKEN.format(reason="no ID token"))
    claims = id_token_claims(
        id_token, provider=provider, nonce=attempt.nonce, jwks=_get_json(config["jwks_uri"])
    )
    if provider.email_attribute not in claims and isinstance(config.get("userinfo_endpoint"), str):
        claims = {**_userinfo(config["userinfo_endpoint"], token, claims["sub"]), **claims}
    return OidcIdentity(claims=claims, mfa_done=mfa_done(claims))


def _userinfo(endpoint: str, token: dict[str, Any], subject: str) -> dict[str, Any]:
    """The UserInfo endpoint's claims, for a provider whose ID token leaves the email out
    (taken only when they name the same subject, OIDC Core 5.3.2)."""
    try:
        response = httpx.get(
            endpoint,
            headers={"Authorization": f"Bearer {token.get('access_token', '')}"},
            timeout=TIMEOUT_SECONDS,
        )
        response.raise_for_status()
        data = response.json()
    except (httpx.HTTPError, ValueError):
        raise SignInRefused(UNREACHABLE) from None
    if not isinstance(data, dict) or data.get("sub") != subject:
        raise SignInRefused(BAD_TOKEN.format(reason="its user info names someone else"))
    return data


def id_token_claims(
    id_token: str, *, provider: IdentityProvider, nonce: str, jwks: dict[str, Any]
) -> dict[str, Any]:
    """The ID token's claims once its signature (the provider's keys), issuer, audience,
    lifetime and nonce hold; its nonce is then recorded so that it never works again."""
    try:
        decoded = jwt.decode(id_token, KeySet.import_key_set(jwks), algorithms=ALGORITHMS)  # type: ignore[arg-type]
        registry = jwt.JWTClaimsRegistry(
            leeway=CLOCK_SKEW_SECONDS,
            iss={"essential": True, "value": provider.oidc_issuer},
            aud={"essential": True, "value": provider.oidc_client_id},
            sub={"essential": True},
            exp={"essential": True},
            iat={"essential": True},
            nonce={"essential": True, "value": nonce},
        )
        registry.validate(decoded.claims)
    except (JoseError, ValueError, TypeError) as exc:
        reason = getattr(exc, "description", "") or type(exc).__name__
        raise SignInRefused(BAD_TOKEN.format(reason=f"ID token: {reason}")) from None
    claims = dict(decoded.claims)
    audiences = claims["aud"] if isinstance(claims["aud"], list) else [claims["aud"]]
    if len(audiences) > 1 and claims.get("azp") != provider.oidc_client_id:
        raise SignInRefused(BAD_TOKEN.format(reason="ID token for another party"))
    expires = datetime.fromtimestamp(int(claims["exp"]), tz=UTC)
    used_id_record(kind=f"oidc-nonce:{provider.oidc_issuer}", value=nonce, valid_until=expires)
    return claims


def mfa_done(claims: dict[str, Any]) -> bool:
    """Whether the provider says a second factor was used (`amr`, or an MFA `acr`)."""
    amr = claims.get("amr")
    methods = {str(m) for m in amr} if isinstance(amr, list) else set()
    return bool(
        methods & _MFA_AMR or len(methods & _FACTOR_AMR) >= 2 or claims.get("acr") in _MFA_ACR
    )
