"""What every second factor shares: its label and default name, the email when one is added or
removed, and the MFA step's count of wrong codes (per session, and per account and hour)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Sum
from django.utils import timezone

from concierge.accounts.models import AuthToken, MfaFactor, OneTimeCode, User
from concierge.accounts.selectors.mfa import SMS
from concierge.accounts.services.links import account_link
from concierge.accounts.services.tokens import auth_token_mfa_verified
from concierge.audit import actions as audit_actions
from concierge.audit.services import audit_record
from concierge.common.errors import ApiError, NotFound, ValidationFailed
from concierge.common.validation import too_long
from concierge.notifications.services import email_enqueue

FACTOR_NOT_FOUND = "That sign-in method was not found."
FACTOR_NAME_MAX = 100
FACTOR_NAME_REQUIRED = "Please enter a name"
FACTOR_NAME_TOO_LONG = too_long(FACTOR_NAME_MAX)
TOO_MANY_OTP_ATTEMPTS = "Too many incorrect verification codes. Please try again in an hour."
SESSION_VOIDED = "Too many incorrect codes. Please sign in again."


def kind_label(kind: str) -> str:
    return {
        MfaFactor.Kind.TOTP: "An authenticator app",
        MfaFactor.Kind.PASSKEY: "A passkey",
        SMS: "A phone number for text messages",
    }.get(kind, "A sign-in method")


def default_factor_name(label: str, user: User, kind: str) -> str:
    """'Passkey', then 'Passkey 2', ...: the Account page tells a user's factors apart."""
    count = MfaFactor.objects.filter(user=user, kind=kind, confirmed_at__isnull=False).count()
    return f"{label} {count + 1}" if count else label


def factor_rename(*, user: User, factor_id: str, name: str) -> MfaFactor:
    """Names one of `user`'s authenticator apps or passkeys, so the Account page tells them
    apart ("Work laptop")."""
    name = name.strip()
    if not name:
        raise ValidationFailed.for_field("name", FACTOR_NAME_REQUIRED)
    if len(name) > FACTOR_NAME_MAX:
        raise ValidationFailed.for_field("name", FACTOR_NAME_TOO_LONG)
    factor = (
        MfaFactor.objects.filter(pk=int(factor_id), user=user, confirmed_at__isnull=False).first()
        if factor_id.isascii() and factor_id.isdigit() and len(factor_id) < 12
        else None
    )
    if factor is None:
        raise NotFound(FACTOR_NOT_FOUND)
    factor.name = name
    factor.save(update_fields=["name"])
    return factor


def mfa_failures_last_hour(user: User) -> int:
    """Wrong second-factor codes of `user` in the last hour: SMS codes and the other factors'
    (counted per session)."""
    since = timezone.now() - timedelta(hours=1)
    recent = OneTimeCode.objects.filter(user=user, created_at__gte=since)
    sms = recent.aggregate(total=Sum("failed_attempts"))["total"] or 0
    sessions = AuthToken.objects.filter(user=user, created_at__gte=since, mfa_failed_attempts__gt=0)
    return sms + (sessions.aggregate(total=Sum("mfa_failed_attempts"))["total"] or 0)


def factor_change_email(*, user: User, added: bool, label: str) -> None:
    """Tells the account's owner that a sign-in method was added or removed (sent on commit)."""
    what = "added to" if added else "removed from"
    audit_record(
        action=audit_actions.MFA_FACTOR_ADDED if added else audit_actions.MFA_FACTOR_REMOVED,
        actor=user,
        target_type="user",
        target_id=user.pk,
        details={"factor": label},
    )
    email_enqueue(
        to=user.email,
        subject=f"A sign-in method was {'added' if added else 'removed'}",
        body=(
            f"Hello {user.first_name},\n\n"
            f"{label} was {what} your account's two-step verification.\n"
            f"Review your sign-in methods here: {account_link('/account')}\n\n"
            "If this wasn't you, reset your password now and contact support."
        ),
    )


@dataclass(frozen=True)
class _Outcome:
    mfa_token: str = ""
    error: str = ""
    status_code: int = 401


def code_attempt(*, auth_token: AuthToken, check: Callable[[User], bool], wrong: str) -> str:
    """Runs `check` for this session's MFA step. Wrong codes count per session (5 void it: the
    password is needed again) and, with wrong SMS codes, per account and hour."""
    outcome = _code_attempt_locked(auth_token_id=auth_token.pk, check=check, wrong=wrong)
    if outcome.error:
        # Raised only after the transaction committed, so wrong tries are counted.
        raise ApiError(outcome.error, status_code=outcome.status_code)
    return outcome.mfa_token


@transaction.atomic
def _code_attempt_locked(
    *, auth_token_id: int, check: Callable[[User], bool], wrong: str
) -> _Outcome:
    auth_token = AuthToken.objects.select_related("user").get(pk=auth_token_id)
    user = User.objects.select_for_update().get(pk=auth_token.user_id)
    if auth_token.revoked_at is not None:
        return _Outcome(error=SESSION_VOIDED, status_code=429)
    if mfa_failures_last_hour(user) >= settings.OTP_MAX_ATTEMPTS_PER_HOUR:
        return _Outcome(error=TOO_MANY_OTP_ATTEMPTS, status_code=429)
    if not check(user):
        auth_token.mfa_failed_attempts += 1
        fields = ["mfa_failed_attempts"]
        if auth_token.mfa_failed_attempts >= settings.OTP_MAX_ATTEMPTS:
            auth_token.revoked_at = timezone.now()
            fields.append("revoked_at")
        auth_token.save(update_fields=fields)
        if auth_token.revoked_at is not None:
            return _Outcome(error=SESSION_VOIDED, status_code=429)
        return _Outcome(error=wrong)
    return _Outcome(mfa_token=auth_token_mfa_verified(auth_token=auth_token))
