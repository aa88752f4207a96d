"""Links in account emails: pages of the app at its public address."""

from __future__ import annotations

from django.conf import settings
from django.core import signing


def account_link(path: str) -> str:
    return f"{settings.PUBLIC_URL}{path}"


def signed_claims(token: str, *, salt: str, keys: tuple[str, ...]) -> dict[str, str] | None:
    """The claims of a link token made with `signing.dumps(..., salt=salt)`, when its
    signature holds, it is younger than EMAIL_VERIFICATION_TTL_SECONDS and every key is a
    string; else None."""
    try:
        claims = signing.loads(token, salt=salt, max_age=settings.EMAIL_VERIFICATION_TTL_SECONDS)
    except signing.BadSignature:  # also SignatureExpired
        return None
    if not isinstance(claims, dict) or not all(isinstance(claims.get(k), str) for k in keys):
        return None
    return claims
