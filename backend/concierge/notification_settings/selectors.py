"""Notification preference reads: what a person allowed, per kind and channel, and the
one-click unsubscribe headers of the emails (RFC 8058)."""

from __future__ import annotations

from typing import Any, Literal, cast

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing

from concierge.common.validation import is_database_id
from concierge.notification_settings.models import NotificationPreference, PushSubscription

Kind = Literal["reply", "completion"]
KINDS: tuple[str, ...] = ("reply", "completion")
UNSUBSCRIBE_SALT = "concierge.notification_settings.unsubscribe"
# Each kind of email as the emails' unsubscribe line and the unsubscribe page name it.
EMAIL_KIND_NAMES = {
    "reply": "emails about your concierge\u2019s replies",
    "completion": "emails about completed requests",
}


def preference_for(*, user: Any) -> NotificationPreference:
    """The person's stored preferences, or an unsaved row holding the defaults."""
    preference = NotificationPreference.objects.filter(user_id=user.pk).first()
    return preference or NotificationPreference(user_id=user.pk)


def email_allowed(*, user: Any, kind: str) -> bool:
    """Whether the notification email of `kind` ("reply" or "completion") may be sent."""
    if kind not in KINDS:
        raise ValueError(f"Unknown notification kind {kind!r}")
    return bool(getattr(preference_for(user=user), f"{kind}_email"))


def push_allowed(*, user: Any, kind: str) -> bool:
    if kind not in KINDS:
        raise ValueError(f"Unknown notification kind {kind!r}")
    return bool(getattr(preference_for(user=user), f"{kind}_push"))


def unsubscribe_token(*, user: Any, kind: str) -> str:
    """A signed token naming the person and the kind of email; it does not expire (an old
    email's unsubscribe link keeps working)."""
    if kind not in KINDS:
        raise ValueError(f"Unknown notification kind {kind!r}")
    return signing.dumps({"u": user.pk, "k": kind}, salt=UNSUBSCRIBE_SALT)


def unsubscribe_claims(token: str) -> tuple[int, str] | None:
    """(user id, kind) of a genuine token, else None."""
    if len(token) > 300:
        return None
    try:
        claims = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except (signing.BadSignature, ValueError, UnicodeError):
        return None
    if not isinstance(claims, dict):
        return None
    user_id, kind = claims.get("u"), claims.get("k")
    if not isinstance(user_id, int) or isinstance(user_id, bool) or kind not in KINDS:
        return None
    if not is_database_id(user_id):
        return None
    return user_id, str(kind)


def unsubscribe_url(*, user: Any, kind: str) -> str:
    token = unsubscribe_token(user=user, kind=kind)
    return f"{settings.PUBLIC_URL}/api/v1/notifications/unsubscribe/{token}"


def email_unsubscribe(*, user: Any, kind: str) -> tuple[dict[str, str], str]:
    """List-Unsubscribe and List-Unsubscribe-Post (RFC 8058 one-click) for an email of `kind`
    to `user`, and their URL, for the email's visible unsubscribe line (`unsubscribe_footer`).
    A mail client POSTs to the URL; opening it in a browser shows a page with a button (it
    never unsubscribes on GET, since mail scanners prefetch links)."""
    url = unsubscribe_url(user=user, kind=kind)
    headers = {
        "List-Unsubscribe": f"<{url}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    }
    return headers, url


def unsubscribe_footer(*, kind: str, url: str) -> str:
    """The line at the foot of an email of `kind` that shows its unsubscribe link (plain
    text)."""
    return f"To stop getting {EMAIL_KIND_NAMES[kind]}, unsubscribe: {url}"


def unsubscribe_state(token: str) -> tuple[Kind, bool] | None:
    """What an unsubscribe link names and whether that email is already off for its person:
    (kind, already off). None when the token is not genuine or its person is gone."""
    claims = unsubscribe_claims(token)
    if claims is None:
        return None
    user_id, kind = claims
    user = get_user_model().objects.filter(pk=user_id).first()
    if user is None:
        return None
    return cast(Kind, kind), not email_allowed(user=user, kind=kind)


def push_subscriptions_of(*, user: Any) -> list[PushSubscription]:
    return list(PushSubscription.objects.filter(user_id=user.pk))
