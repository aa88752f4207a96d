"""Changes to the second factors that need a fresh proof (the password, or a code from another
factor): renewing the recovery codes and removing a factor; and adding one, which needs the
session to have proven the person recently (signed in, or confirmed again: `session_confirm`)."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from concierge.accounts.models import AuthToken, MfaFactor, RecoveryCode, User
from concierge.accounts.selectors.mfa import SMS, user_factor_count, user_has_mfa_factor
from concierge.accounts.services.lockout import lock_lift_if_expired, sign_in_failure_count
from concierge.accounts.services.mfa.factors import (
    FACTOR_NOT_FOUND,
    factor_change_email,
    kind_label,
)
from concierge.accounts.services.mfa.recovery_codes import (
    recovery_code_use,
    recovery_codes_issue,
)
from concierge.accounts.services.mfa.totp import totp_use
from concierge.common.errors import ApiError, NotFound, ValidationFailed

FRESH_CHECK_FAILED = "That password or code is incorrect."
FRESH_CHECK_REQUIRED = "Please enter your password or a code from another sign-in method."
CONFIRM_REQUIRED = "To add a sign-in method, please confirm it’s you first."
# How long after signing in, or confirming again, a session may add a sign-in method.
CONFIRM_WINDOW = timedelta(minutes=15)
LAST_FACTOR_REQUIRED = (
    "Your employer requires two-step verification: add another sign-in method "
    "before removing this one."
)


class FreshCheckFailed(ApiError):
    """A wrong password or code for a sensitive change. Not a 401: the session is still good,
    and a 401 signs the app out."""

    status_code = 403

    def __init__(self) -> None:
        super().__init__(FRESH_CHECK_FAILED)


def session_recently_confirmed(auth_token: AuthToken) -> bool:
    """Whether the session proved its person within CONFIRM_WINDOW: it was signed in, or
    confirmed again (`session_confirm`), that recently."""
    proven = max(auth_token.created_at, auth_token.confirmed_at or auth_token.created_at)
    return proven >= timezone.now() - CONFIRM_WINDOW


def session_confirm(*, auth_token: AuthToken, password: str = "", code: str = "") -> None:
    """The person proves themselves again (password or code) in this session: for
    CONFIRM_WINDOW it may add a sign-in method. A wrong proof counts as a failed sign-in."""
    if not _session_confirm(auth_token=auth_token, password=password, code=code):
        # Raised only after the transaction committed, so the failed check is counted.
        raise FreshCheckFailed


@transaction.atomic
def _session_confirm(*, auth_token: AuthToken, password: str, code: str) -> bool:
    user = User.objects.select_for_update().get(pk=auth_token.user_id)
    if not fresh_check_passed(user, password=password, code=code):
        return False
    auth_token.confirmed_at = timezone.now()
    auth_token.save(update_fields=["confirmed_at"])
    return True


def recovery_codes_regenerate(*, user: User, password: str = "", code: str = "") -> list[str]:
    """Replaces the recovery codes after a fresh check; returns the new ones (shown once)."""
    codes = _recovery_codes_regenerate(user_id=user.pk, password=password, code=code)
    if codes is None:
        # Raised only after the transaction committed, so the failed check is counted.
        raise FreshCheckFailed
    return codes


@transaction.atomic
def _recovery_codes_regenerate(*, user_id: int, password: str, code: str) -> list[str] | None:
    user = User.objects.select_for_update().get(pk=user_id)
    if not fresh_check_passed(user, password=password, code=code):
        return None
    if not user_has_mfa_factor(user=user):
        raise ValidationFailed("Add an authenticator app or a passkey first.")
    return recovery_codes_issue(user)


def fresh_check_passed(user: User, *, password: str, code: str) -> bool:
    """A fresh proof for a sensitive change: the password, or a current authenticator-app code
    or an unused recovery code. A wrong one counts as a failed sign-in (the lockout's count),
    so a session cannot be used to guess the password. Call it with `user`'s row locked, and
    raise `FreshCheckFailed` only after the transaction committed, so the failure is counted."""
    code = code.strip()
    if not password and not code:
        raise ValidationFailed.for_field("password", FRESH_CHECK_REQUIRED)
    lock_lift_if_expired(user)
    if user.locked_at:
        # As at sign-in: while locked no proof is checked, and every attempt still counts.
        sign_in_failure_count(user)
        return False
    if password:
        ok = user.check_password(password)
    else:
        factors = MfaFactor.objects.select_for_update().filter(
            user=user, kind=MfaFactor.Kind.TOTP, confirmed_at__isnull=False
        )
        ok = (code.isdigit() and any(totp_use(factor, code) for factor in factors)) or (
            recovery_code_use(user, code)
        )
    if not ok:
        sign_in_failure_count(user)
    return ok


def factor_remove(*, user: User, factor_id: str, password: str = "", code: str = "") -> None:
    """Removes one of `user`'s factors after a fresh check; a company that requires MFA keeps
    at least one."""
    if not _factor_remove(user_id=user.pk, factor_id=factor_id, password=password, code=code):
        # Raised only after the transaction committed, so the failed check is counted.
        raise FreshCheckFailed


@transaction.atomic
def _factor_remove(*, user_id: int, factor_id: str, password: str, code: str) -> bool:
    user = User.objects.select_for_update().get(pk=user_id)
    if factor_id == SMS:
        if not user.mfa_phone:
            raise NotFound(FACTOR_NOT_FOUND)
        factor = None
        kind = SMS
    else:
        factor = (
            MfaFactor.objects.filter(
                pk=int(factor_id), user=user, confirmed_at__isnull=False
            ).first()
            if factor_id.isascii() and factor_id.isdigit() and len(factor_id) < 12
            else None
        )
        if factor is None:
            raise NotFound(FACTOR_NOT_FOUND)
        kind = factor.kind
    if not fresh_check_passed(user, password=password, code=code):
        return False
    company_rule = any(company.requires_mfa for company in user.companies.all())
    if company_rule and user_factor_count(user=user) <= 1:
        raise ValidationFailed(LAST_FACTOR_REQUIRED)
    if factor is None:
        user.mfa_phone = ""
        user.save(update_fields=["mfa_phone"])
    else:
        factor.delete()
    if not user_has_mfa_factor(user=user):
        # Recovery codes stand in for an app or a passkey: they go with the last of them.
        RecoveryCode.objects.filter(user=user).delete()
    factor_change_email(user=user, added=False, label=kind_label(kind))
    return True
