"""Text-message codes (spec §7): enrolling a phone, texting a code, and passing the MFA step
with it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from concierge.accounts.models import AuthToken, OneTimeCode, User
from concierge.accounts.services.mfa.factors import (
    TOO_MANY_OTP_ATTEMPTS,
    factor_change_email,
    mfa_failures_last_hour,
)
from concierge.accounts.services.tokens import auth_token_mfa_verified
from concierge.common.errors import ApiError, Unauthorized
from concierge.common.tokens import digits_new, hashes_equal, token_hash
from concierge.notifications.services import sms_enqueue

INVALID_OTP = "That verification code is invalid or has expired. Please request a new code."
# A wrong code while the one sent still works: it is worth checking the text again, not
# asking for another (which the hourly cap may refuse).
WRONG_OTP = "That verification code isn’t right. Please check the latest text we sent you."
NO_PENDING_OTP = "There is no verification code waiting. Please request a new code."


def otp_issue(*, user: User, purpose: str, phone: str) -> OneTimeCode:
    code = digits_new(6)
    otp = OneTimeCode.objects.create(
        user=user,
        purpose=purpose,
        phone=phone,
        code_hash=token_hash(code),
        expires_at=timezone.now() + timedelta(seconds=settings.OTP_TTL_SECONDS),
    )
    sms_enqueue(
        to=phone,
        body=f"{code} is your {settings.PRODUCT_NAME} verification code. It expires in 10 minutes.",
    )
    return otp


def _otp_pending(user: User) -> OneTimeCode | None:
    return (
        OneTimeCode.objects.filter(user=user, used_at__isnull=True)
        .order_by("-created_at", "-id")
        .first()
    )


def otp_resend(*, user: User) -> None:
    """Sends a fresh code to the enrolled phone, or to the phone being enrolled."""
    if user.mfa_phone:
        otp_issue(user=user, purpose=OneTimeCode.Purpose.SIGN_IN, phone=user.mfa_phone)
        return
    pending = _otp_pending(user)
    if pending is None or pending.purpose != OneTimeCode.Purpose.ENROLL:
        raise ApiError("Please enter your phone number first.", status_code=422)
    otp_issue(user=user, purpose=OneTimeCode.Purpose.ENROLL, phone=pending.phone)


def mfa_enroll(*, user: User, phone_digits: str) -> None:
    otp_issue(user=user, purpose=OneTimeCode.Purpose.ENROLL, phone=f"+1{phone_digits}")


def mfa_verify(*, auth_token: AuthToken, code: str) -> str:
    """Checks the latest code; on success marks this session verified and returns its MFA token."""
    outcome = _mfa_verify_attempt(auth_token=auth_token, code=code)
    if outcome.error == TOO_MANY_OTP_ATTEMPTS:
        raise ApiError(outcome.error, status_code=429)
    if outcome.error:
        # Raised only after the transaction committed, so wrong tries are counted.
        raise Unauthorized(outcome.error)
    return outcome.mfa_token


@dataclass(frozen=True)
class _MfaOutcome:
    mfa_token: str = ""
    error: str = ""


def _otp_check(user: User, code: str) -> str:
    """Checks `code` against the user's latest code (locked by the caller) and uses it up;
    returns an error message, or "" when it matched. Wrong tries count per code and, across
    resends, per account and hour."""
    otp = _otp_pending(user)
    if otp is None:
        return NO_PENDING_OTP
    if mfa_failures_last_hour(user) >= settings.OTP_MAX_ATTEMPTS_PER_HOUR:
        return TOO_MANY_OTP_ATTEMPTS
    if otp.expires_at <= timezone.now() or otp.failed_attempts >= settings.OTP_MAX_ATTEMPTS:
        return INVALID_OTP
    if not hashes_equal(otp.code_hash, token_hash(code)):
        otp.failed_attempts += 1
        otp.save(update_fields=["failed_attempts"])
        return WRONG_OTP if otp.failed_attempts < settings.OTP_MAX_ATTEMPTS else INVALID_OTP
    otp.used_at = timezone.now()
    otp.save(update_fields=["used_at"])
    if otp.purpose == OneTimeCode.Purpose.ENROLL:
        user.mfa_phone = otp.phone
        user.save(update_fields=["mfa_phone"])
        factor_change_email(user=user, added=True, label="A phone number for text messages")
    return ""


@transaction.atomic
def _mfa_verify_attempt(*, auth_token: AuthToken, code: str) -> _MfaOutcome:
    user = User.objects.select_for_update().get(pk=auth_token.user_id)
    if error := _otp_check(user, code):
        return _MfaOutcome(error=error)
    return _MfaOutcome(mfa_token=auth_token_mfa_verified(auth_token=auth_token))
