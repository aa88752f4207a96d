"""Notification preference writes, push subscriptions, one-click unsubscribe, and the web push
notifications about requests (queued after the commit, sent by `tasks.push_deliver`)."""

from __future__ import annotations

import base64
import binascii
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone

from concierge.accounts.selectors.concierges import user_is_concierge
from concierge.common.errors import NotFound, ValidationFailed
from concierge.common.validation import is_database_id
from concierge.notification_settings.models import NotificationPreference, PushSubscription
from concierge.notification_settings.selectors import KINDS, unsubscribe_claims

if TYPE_CHECKING:
    from concierge.accounts.models import User

logger = logging.getLogger(__name__)

EMPLOYEE_FIELDS = ("reply_email", "reply_push", "completion_email", "completion_push")
DESK_FIELDS = ("desk_new_request_push", "desk_reply_push")
PREFERENCE_FIELDS = (*EMPLOYEE_FIELDS, "show_previews", *DESK_FIELDS)
CONCIERGES_ONLY = "This setting is for concierges."
SUBSCRIPTION_NOT_FOUND = "We couldn't find that device."
DEVICE_NOT_ON_FILE = "This browser doesn't get notifications: turn them on to get them here."
ENDPOINT_INVALID = "This browser's push address is not one we can send to."
KEYS_INVALID = "This browser's push keys are not valid."
UNSUBSCRIBE_LINK_INVALID = "This unsubscribe link is not valid."
SUBSCRIPTIONS_MAX = 20
# The push services of the browsers people use. Only these are sent to, so a made-up
# subscription cannot make the server call an address of the operator's network.
PUSH_SERVICE_HOSTS = (
    "fcm.googleapis.com",
    "android.googleapis.com",
    "updates.push.services.mozilla.com",
    "push.services.mozilla.com",
    "web.push.apple.com",
    ".push.apple.com",
    ".notify.windows.com",
)

# =========================================================================== preferences


def preference_update(*, user: User, changes: dict[str, bool]) -> NotificationPreference:
    """Store the given choices (others keep their value). Desk settings: concierges only."""
    unknown = [f for f in changes if f not in PREFERENCE_FIELDS]
    if unknown:
        raise ValidationFailed.for_field(unknown[0], "Unknown setting.")
    for field in DESK_FIELDS:
        if field in changes and not user_is_concierge(user=user):
            raise ValidationFailed.for_field(field, CONCIERGES_ONLY)
    with transaction.atomic():
        preference, _ = NotificationPreference.objects.select_for_update().get_or_create(user=user)
        for field, value in changes.items():
            setattr(preference, field, bool(value))
        preference.save()
    return preference


def unsubscribe(*, token: str) -> tuple[int, str]:
    """One-click unsubscribe (RFC 8058): turn off the email of the token's kind for its
    person. Idempotent. A token that is not genuine, or names nobody any more: NotFound."""
    claims = unsubscribe_claims(token)
    if claims is None:
        raise NotFound(UNSUBSCRIBE_LINK_INVALID)
    user_id, kind = claims
    if not get_user_model().objects.filter(pk=user_id).exists():
        raise NotFound(UNSUBSCRIBE_LINK_INVALID)
    with transaction.atomic():
        preference, _ = NotificationPreference.objects.select_for_update().get_or_create(
            user_id=user_id
        )
        if getattr(preference, f"{kind}_email"):
            setattr(preference, f"{kind}_email", False)
            preference.save()
    return user_id, kind


# =========================================================================== subscriptions


def _b64url_decode(value: str) -> bytes:
    value = value.strip()
    return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))


def endpoint_allowed(endpoint: str) -> bool:
    """An https URL of a known browser push service."""
    try:
        parts = urlsplit(endpoint)
        host = (parts.hostname or "").lower()
        port = parts.port
    except ValueError:
        return False
    if parts.scheme != "https" or not host or port not in (None, 443) or parts.username:
        return False
    return any(
        host.endswith(allowed) if allowed.startswith(".") else host == allowed
        for allowed in PUSH_SERVICE_HOSTS
    )


def _keys_check(p256dh: str, auth: str) -> None:
    try:
        point = _b64url_decode(p256dh)
        secret = _b64url_decode(auth)
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except (ValueError, binascii.Error, TypeError):
        raise ValidationFailed.for_field("keys", KEYS_INVALID) from None
    if len(point) != 65 or len(secret) != 16:
        raise ValidationFailed.for_field("keys", KEYS_INVALID)


def device_label(user_agent: str) -> str:
    """'Chrome on Android', 'Safari on iPhone', ... from a User-Agent header."""
    ua = user_agent or ""
    if "Edg/" in ua or "EdgA/" in ua or "EdgiOS/" in ua:
        browser = "Edge"
    elif "OPR/" in ua or "Opera" in ua:
        browser = "Opera"
    elif "SamsungBrowser/" in ua:
        browser = "Samsung Internet"
    elif "Firefox/" in ua or "FxiOS/" in ua:
        browser = "Firefox"
    elif "Chrome/" in ua or "CriOS/" in ua or "Chromium/" in ua:
        browser = "Chrome"
    elif "Safari/" in ua:
        browser = "Safari"
    else:
        browser = "Browser"
    if "iPhone" in ua:
        system = "iPhone"
    elif "iPad" in ua:
        system = "iPad"
    elif "Android" in ua:
        system = "Android"
    elif "Windows" in ua:
        system = "Windows"
    elif "Mac OS X" in ua or "Macintosh" in ua:
        system = "macOS"
    elif "CrOS" in ua:
        system = "ChromeOS"
    elif "Linux" in ua:
        system = "Linux"
    else:
        return browser if browser != "Browser" else "Unknown device"
    return f"{browser} on {system}"


def push_subscription_save(
    *,
    user: User,
    endpoint: str,
    p256dh: str,
    auth: str,
    user_agent: str = "",
    session: Any = None,
    explicit: bool = False,
) -> PushSubscription:
    """Store this browser's subscription for `user`, bound to the `session` (auth token) it was
    saved in: pushes reach it only while that session is signed in. The same endpoint again (the
    browser subscribing again, a new sign-in on it, or another person now signed in on it)
    updates the one row, which then belongs to `user` and that session, and keeps the date it was
    added (unless it changed hands). Only an `explicit` save (the person turned notifications on)
    adds a device: the app's own save on start updates one, and for a device that is not on file
    (removed by its person, or gone) it is NotFound. A person keeps at most SUBSCRIPTIONS_MAX
    devices (the oldest go)."""
    endpoint = (endpoint or "").strip()
    if len(endpoint) > 1000 or not endpoint_allowed(endpoint):
        raise ValidationFailed.for_field("endpoint", ENDPOINT_INVALID)
    if len(p256dh) > 200 or len(auth) > 100:
        raise ValidationFailed.for_field("keys", KEYS_INVALID)
    _keys_check(p256dh, auth)
    fields = {
        "user": user,
        "p256dh": p256dh.strip(),
        "auth": auth.strip(),
        "device_label": device_label(user_agent)[:100],
        "session": session,
    }
    for _ in range(2):  # a concurrent first save of the same endpoint: the second updates
        try:
            with transaction.atomic():
                subscription, _ = PushSubscription.objects.update_or_create(
                    endpoint=endpoint, defaults=fields | _added_date(endpoint, user, explicit)
                )
                extra = PushSubscription.objects.filter(user=user).values_list("pk", flat=True)[
                    SUBSCRIPTIONS_MAX:
                ]
                PushSubscription.objects.filter(pk__in=list(extra)).delete()
            return subscription
        except IntegrityError:
            continue
    raise ValidationFailed.for_field("endpoint", ENDPOINT_INVALID)


def _added_date(endpoint: str, user: User, explicit: bool) -> dict[str, Any]:
    """The device's `created_at` to set: none for the person's own device (the date they added it
    stays), now for one that changes hands. No device and no `explicit` save: NotFound."""
    owners = PushSubscription.objects.filter(endpoint=endpoint).values_list("user_id", flat=True)
    owner_id = owners.first()
    if owner_id is None and not explicit:
        raise NotFound(DEVICE_NOT_ON_FILE)
    return {} if owner_id == user.pk else {"created_at": timezone.now()}


def push_subscription_delete(*, user: User, subscription_id: int) -> None:
    """Remove one of `user`'s devices; someone else's (or none): NotFound."""
    deleted = 0
    if is_database_id(subscription_id):
        deleted, _ = PushSubscription.objects.filter(pk=subscription_id, user=user).delete()
    if not deleted:
        raise NotFound(SUBSCRIPTION_NOT_FOUND)


# =========================================================================== push about requests

EMPLOYEE_KINDS = {"reply": "reply_push", "completion": "completion_push"}
DESK_KINDS = {"new_request": "desk_new_request_push", "employee_reply": "desk_reply_push"}
PUSH_KINDS = {**EMPLOYEE_KINDS, **DESK_KINDS}


@dataclass(frozen=True)
class PushSubject:
    """What a push about a request says: read when it is sent, so it is never stale."""

    owner_id: int
    request_name: str
    message_text: str = ""
    # False when it should no longer be sent (the completion was undone, the reply deleted).
    current: bool = True


PushSubjectReader = Callable[..., "PushSubject | None"]
_subject_readers: list[PushSubjectReader] = []


def push_subject_reader_register(reader: PushSubjectReader) -> None:
    """The app that owns requests tells this one how to read a push's subject:
    `reader(kind=..., request_id=..., message_id=...)` -> PushSubject or None (gone)."""
    if reader not in _subject_readers:
        _subject_readers.append(reader)


def push_subject(*, kind: str, request_id: int, message_id: int | None) -> PushSubject | None:
    for reader in _subject_readers:
        subject = reader(kind=kind, request_id=request_id, message_id=message_id)
        if subject is not None:
            return subject
    return None


PREVIEW_MAX = 180


def _preview(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= PREVIEW_MAX else text[: PREVIEW_MAX - 1].rstrip() + "…"


def push_payload(
    *, kind: str, request_id: int, subject: PushSubject, show_previews: bool
) -> dict[str, Any]:
    """The notification: a title, a body, the request's URL and a tag (one per request). The
    request's name and the message text only when previews are allowed (lock screens are
    public)."""
    desk = kind in DESK_KINDS
    url = f"/concierge/requests/{request_id}" if desk else f"/requests/{request_id}"
    name = subject.request_name
    if kind == "reply":
        title = f"New reply: {name}" if show_previews else "New reply from your concierge"
        body = _preview(subject.message_text) if show_previews else "Open the app to read it."
    elif kind == "completion":
        title = f"Completed: {name}" if show_previews else "Your request is completed"
        body = "Open the app to see it."
    elif kind == "new_request":
        title = f"New request: {name}" if show_previews else "New request in the queue"
        body = "Open the desk to pick it up."
    else:
        title = f"Employee reply: {name}" if show_previews else "An employee replied"
        body = _preview(subject.message_text) if show_previews else "Open the desk to read it."
    return {"title": title, "body": body, "url": url, "tag": f"request-{request_id}-{kind}"}


def push_recipient_allowed(*, kind: str, user: Any, subject: PushSubject) -> bool:
    """Whether `user` may still get this push: the request's owner for an employee's push, a
    concierge for the desk's."""
    if not user.is_active:
        return False
    if kind in EMPLOYEE_KINDS:
        return bool(subject.owner_id == user.pk)
    return user_is_concierge(user=user)


__all__ = [
    "KINDS",
    "PushSubject",
    "device_label",
    "preference_update",
    "push_payload",
    "push_subject_reader_register",
    "push_subscription_delete",
    "push_subscription_save",
    "unsubscribe",
]
