"""Web push delivery (RFC 8030, payloads encrypted per RFC 8291, VAPID per RFC 8292) through
pywebpush. Keys come from the environment: VAPID_PRIVATE_KEY (base64url, the raw 32-byte key
or DER), VAPID_PUBLIC_KEY (base64url, the uncompressed point; derived from the private key when
unset) and VAPID_SUBJECT (a mailto: or https: contact; PUBLIC_URL when unset). Without a private
key push is unavailable and nothing is sent."""

from __future__ import annotations

import base64
import json
import os
from dataclasses import dataclass
from typing import Any

from cryptography.hazmat.primitives import serialization
from django.conf import settings
from py_vapid import Vapid
from pywebpush import WebPushException, webpush

PUSH_TIMEOUT_SECONDS = 10
PUSH_TTL_SECONDS = 24 * 3600
# The push service forgot the subscription (RFC 8030 §7.3): it must never be used again.
GONE_STATUSES = (404, 410)


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _env(name: str) -> str:
    return str(getattr(settings, name, "") or os.environ.get(name, "")).strip()


@dataclass(frozen=True)
class VapidKeys:
    vapid: Any
    public_key: str
    subject: str


_cache: dict[str, VapidKeys | None] = {}


def vapid_keys() -> VapidKeys | None:
    """The server's VAPID keys, or None when push is not configured (or the key is invalid)."""
    private = _env("VAPID_PRIVATE_KEY")
    if not private:
        return None
    cache_key = f"{private}|{_env('VAPID_PUBLIC_KEY')}|{_env('VAPID_SUBJECT')}"
    if cache_key not in _cache:
        _cache.clear()
        _cache[cache_key] = _vapid_keys_load(private)
    return _cache[cache_key]


def _vapid_keys_load(private: str) -> VapidKeys | None:
    try:
        vapid = Vapid.from_string(private_key=private)
        point = vapid.public_key.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
    except Exception:  # an unreadable key: push stays off rather than failing every request
        return None
    public = _env("VAPID_PUBLIC_KEY") or _b64url(point)
    if public.rstrip("=") != _b64url(point):
        return None  # the public key does not belong to the private key
    subject = _env("VAPID_SUBJECT") or str(settings.PUBLIC_URL)
    if not subject.startswith(("mailto:", "https://", "http://")):
        subject = f"mailto:{subject}"
    return VapidKeys(vapid=vapid, public_key=public, subject=subject)


class PushGone(Exception):
    """The push service says the subscription no longer exists (404/410)."""


class PushRefused(Exception):
    """The push service refused this message for good (another 4xx): trying again won't help."""


def push_send(*, endpoint: str, p256dh: str, auth: str, payload: dict[str, Any]) -> None:
    """Send one encrypted push message. Raises PushGone, PushRefused, or (for what may pass:
    429, 5xx, a network error) any other exception, for the task to be tried again."""
    keys = vapid_keys()
    if keys is None:
        raise PushRefused("Web push is not configured")
    try:
        webpush(
            subscription_info={"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": auth}},
            data=json.dumps(payload, separators=(",", ":")),
            vapid_private_key=keys.vapid,
            vapid_claims={"sub": keys.subject},
            content_encoding="aes128gcm",
            ttl=PUSH_TTL_SECONDS,
            timeout=PUSH_TIMEOUT_SECONDS,
            headers={"Urgency": "normal"},
        )
    except WebPushException as exc:
        status = getattr(exc.response, "status_code", None)
        if status in GONE_STATUSES:
            raise PushGone(str(status)) from None
        if status is not None and 400 <= status < 500 and status != 429:
            raise PushRefused(f"Push service answered {status}") from None
        raise
