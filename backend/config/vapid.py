"""The web push key pair (VAPID) checked when the settings load: a key that is not one, or a
public key of another pair, stops the process naming the variable, rather than leaving push
quietly off (concierge.notification_settings.push reads the same keys)."""

from __future__ import annotations

import base64

from cryptography.hazmat.primitives import serialization
from django.core.exceptions import ImproperlyConfigured
from py_vapid import Vapid

HOW_TO_MAKE = "`deploy/manage vapid_keys` prints a new pair"


def vapid_keys_check(private: str, public: str) -> None:
    """Nothing without a private key (push off); else the key must read and `public`, when
    given, be its own public key."""
    if not private:
        if public:
            raise ImproperlyConfigured(
                f"VAPID_PUBLIC_KEY is set without VAPID_PRIVATE_KEY: {HOW_TO_MAKE}"
            )
        return
    try:
        point = Vapid.from_string(private_key=private).public_key.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
    except Exception:  # noqa: BLE001 (py_vapid raises whatever its parsing meets)
        raise ImproperlyConfigured(
            "VAPID_PRIVATE_KEY is not a private key (base64url, the raw 32-byte key or DER): "
            f"{HOW_TO_MAKE}"
        ) from None
    own = base64.urlsafe_b64encode(point).rstrip(b"=").decode()
    if public and public.rstrip("=") != own:
        raise ImproperlyConfigured(
            f"VAPID_PUBLIC_KEY is not VAPID_PRIVATE_KEY's public key (leave it empty to derive it): {HOW_TO_MAKE}"
        )
