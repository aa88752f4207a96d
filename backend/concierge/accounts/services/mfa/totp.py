"""Authenticator apps (TOTP, RFC 6238): adding one with its secret (kept encrypted), and its
codes, each of which works once."""

from __future__ import annotations

import base64
import hashlib
import time
from dataclasses import dataclass
from datetime import timedelta

import pyotp
import segno
from cryptography.fernet import Fernet, InvalidToken
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from concierge.accounts.models import AuthToken, MfaFactor, User
from concierge.accounts.services.mfa.factors import (
    code_attempt,
    default_factor_name,
    factor_change_email,
    kind_label,
)
from concierge.accounts.services.mfa.recovery_codes import first_strong_factor_codes
from concierge.common.errors import ValidationFailed
from concierge.common.tokens import hashes_equal

TOTP_DIGITS = 6
TOTP_PERIOD = 30
# A code of the step before or after the current one still counts: clocks drift.
TOTP_DRIFT_STEPS = 1

INVALID_TOTP = "That code is incorrect or was already used. Please enter the current code from your authenticator app."
NO_TOTP = "There is no authenticator app on your account."
ENROLMENT_EXPIRED = "This setup has expired. Please start again."


def _fernet() -> Fernet:
    digest = hashlib.sha256(f"concierge.mfa-secrets:{settings.MFA_ENCRYPTION_KEY}".encode())
    return Fernet(base64.urlsafe_b64encode(digest.digest()))


def secret_encrypt(secret: str) -> str:
    return _fernet().encrypt(secret.encode()).decode()


def secret_decrypt(encrypted: str) -> str:
    try:
        return _fernet().decrypt(encrypted.encode()).decode()
    except InvalidToken:
        return ""  # the key changed: the app must be enrolled again


@dataclass(frozen=True)
class TotpEnrolment:
    factor_id: int
    secret: str
    otpauth_uri: str
    qr_data_uri: str


def totp_enrol_start(*, user: User) -> TotpEnrolment:
    """A new, unconfirmed authenticator app with its secret (shown once, as text and QR)."""
    MfaFactor.objects.filter(
        user=user, kind=MfaFactor.Kind.TOTP, confirmed_at__isnull=True
    ).delete()
    secret = pyotp.random_base32()
    factor = MfaFactor.objects.create(
        user=user,
        kind=MfaFactor.Kind.TOTP,
        name="Authenticator app",
        totp_secret_encrypted=secret_encrypt(secret),
    )
    uri = pyotp.TOTP(secret, digits=TOTP_DIGITS, interval=TOTP_PERIOD).provisioning_uri(
        name=user.email, issuer_name=settings.PRODUCT_NAME
    )
    qr = segno.make(uri, error="m").svg_data_uri(scale=4, border=2, dark="#1f2937")
    return TotpEnrolment(factor_id=factor.pk, secret=secret, otpauth_uri=uri, qr_data_uri=qr)


def _totp_step_matching(factor: MfaFactor, code: str, *, at: float | None = None) -> int | None:
    """The time step whose code `code` is (within the allowed drift), if not used yet."""
    secret = secret_decrypt(factor.totp_secret_encrypted)
    if not secret:
        return None
    totp = pyotp.TOTP(secret, digits=TOTP_DIGITS, interval=TOTP_PERIOD)
    now_step = int((time.time() if at is None else at) // TOTP_PERIOD)
    for step in range(now_step - TOTP_DRIFT_STEPS, now_step + TOTP_DRIFT_STEPS + 1):
        candidate = totp.at(step * TOTP_PERIOD)
        if hashes_equal(candidate, code) and step > factor.totp_last_step:
            return step
    return None


def totp_use(factor: MfaFactor, code: str) -> bool:
    """Checks `code` (single use: its step and the ones before it are spent)."""
    step = _totp_step_matching(factor, code)
    if step is None:
        return False
    factor.totp_last_step = step
    factor.last_used_at = timezone.now()
    factor.save(update_fields=["totp_last_step", "last_used_at"])
    return True


@transaction.atomic
def totp_enrol_confirm(
    *, user: User, factor_id: int, code: str, name: str = ""
) -> list[str] | None:
    """Confirms the app with its first code; returns the recovery codes when they are new."""
    user = User.objects.select_for_update().get(pk=user.pk)
    factor = MfaFactor.objects.filter(
        pk=factor_id, user=user, kind=MfaFactor.Kind.TOTP, confirmed_at__isnull=True
    ).first()
    if factor is None or factor.created_at < timezone.now() - timedelta(hours=1):
        raise ValidationFailed.for_field("code", ENROLMENT_EXPIRED)
    if not totp_use(factor, code):
        raise ValidationFailed.for_field("code", INVALID_TOTP)
    factor.confirmed_at = timezone.now()
    factor.name = name.strip() or default_factor_name(
        "Authenticator app", user, MfaFactor.Kind.TOTP
    )
    factor.save(update_fields=["confirmed_at", "name"])
    factor_change_email(user=user, added=True, label=kind_label(factor.kind))
    return first_strong_factor_codes(user)


def mfa_totp_verify(*, auth_token: AuthToken, code: str) -> str:
    """The MFA step with an authenticator app's code; returns the session's MFA token."""

    def check(user: User) -> bool:
        factors = MfaFactor.objects.select_for_update().filter(
            user=user, kind=MfaFactor.Kind.TOTP, confirmed_at__isnull=False
        )
        return any(totp_use(factor, code) for factor in factors)

    if not MfaFactor.objects.filter(
        user_id=auth_token.user_id, kind=MfaFactor.Kind.TOTP, confirmed_at__isnull=False
    ).exists():
        raise ValidationFailed.for_field("method", NO_TOTP)
    return code_attempt(auth_token=auth_token, check=check, wrong=INVALID_TOTP)
