"""Lockout: too many failed sign-ins lock an account for a while; an emailed link unlocks it
sooner."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from concierge.accounts.account_emails import account_email_reserve
from concierge.accounts.models import AccountEmail, User
from concierge.accounts.services.links import account_link
from concierge.audit import actions as audit_actions
from concierge.audit.services import audit_record
from concierge.common.errors import ValidationFailed
from concierge.common.tokens import token_hash, token_new
from concierge.notifications.services import email_enqueue

ACCOUNT_LOCKED = (
    "Your account is locked after too many failed sign-in attempts. "
    "We've emailed you a link to unlock it, or try again in an hour."
)
INVALID_UNLOCK_TOKEN = "Invalid unlock token."


def lock_lift_if_expired(user: User) -> None:
    if user.locked_at and timezone.now() - user.locked_at >= timedelta(
        seconds=settings.LOCKOUT_SECONDS
    ):
        user.locked_at = None
        user.failed_sign_in_count = 0
        user.unlock_token_hash = ""
        user.save(update_fields=["locked_at", "failed_sign_in_count", "unlock_token_hash"])
        audit_record(action=audit_actions.ACCOUNT_UNLOCKED, actor=user, details={"how": "expired"})


def sign_in_failure_count(user: User) -> None:
    """One more failed sign-in (or fresh check) for `user`, locked by the caller; the 10th
    locks the account and emails an unlock link (once per lock, within the hourly cap).
    Attempts during the lock keep counting."""
    user.failed_sign_in_count += 1
    fields = ["failed_sign_in_count"]
    if user.failed_sign_in_count >= settings.LOCKOUT_MAX_ATTEMPTS and not user.locked_at:
        raw, hashed = token_new()
        user.locked_at = timezone.now()
        user.unlock_token_hash = hashed
        fields += ["locked_at", "unlock_token_hash"]
        audit_record(
            action=audit_actions.ACCOUNT_LOCKED,
            actor=user,
            details={"failed_attempts": user.failed_sign_in_count},
        )
        if account_email_reserve(user=user, kind=AccountEmail.Kind.UNLOCK) is not None:
            _unlock_email(user, raw)
    user.save(update_fields=fields)


def _unlock_email(user: User, raw_token: str) -> None:
    email_enqueue(
        to=user.email,
        subject="Unlock your account",
        body=(
            f"Hello {user.first_name},\n\n"
            "Your account was locked after too many failed sign-in attempts.\n"
            f"Unlock it here: {account_link(f'/unlock/{raw_token}')}\n\n"
            "It also unlocks by itself after one hour. "
            "If this wasn't you, reset your password after unlocking."
        ),
    )


@transaction.atomic
def user_unlock(*, token: str) -> User:
    if not token:
        raise ValidationFailed.for_field("unlock_token", INVALID_UNLOCK_TOKEN)
    # The link lives as long as the lock it was sent for.
    lock_start = timezone.now() - timedelta(seconds=settings.LOCKOUT_SECONDS)
    user = (
        User.objects.select_for_update()
        .filter(unlock_token_hash=token_hash(token), locked_at__gt=lock_start)
        .first()
    )
    if user is None:
        raise ValidationFailed.for_field("unlock_token", INVALID_UNLOCK_TOKEN)
    user.locked_at = None
    user.failed_sign_in_count = 0
    user.unlock_token_hash = ""
    user.save(update_fields=["locked_at", "failed_sign_in_count", "unlock_token_hash"])
    audit_record(action=audit_actions.ACCOUNT_UNLOCKED, actor=user, details={"how": "emailed link"})
    return user
