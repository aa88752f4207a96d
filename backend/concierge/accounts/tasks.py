"""Background tasks of accounts (run by the task worker, see notifications.background)."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django_tasks import task

from concierge.accounts.account_emails import account_email_release, account_email_reserve
from concierge.accounts.models import AccountEmail, PasswordResetToken, User
from concierge.common.tokens import token_new
from concierge.notifications.delivery import email_send


@task()
def password_reset_email(*, email: str) -> str:
    """The reset email asked for at `POST /users/password`, if the email has an account."""
    return password_reset_email_send(email=email)


def password_reset_email_send(*, email: str) -> str:
    """Emails a reset link when the email belongs to an active account and the account's
    hourly cap of reset emails is not reached (run by a task)."""
    user = User.objects.filter(email__iexact=email.strip(), is_active=True).first()
    if user is None:
        return "no active account"
    issued = _password_reset_link_issue(user)
    if issued is None:
        return "hourly cap reached"
    raw, reserved = issued
    try:
        email_send(
            to=user.email,
            subject="Reset your password",
            body=(
                f"Hello {user.first_name},\n\n"
                "Someone asked to reset the password of your account.\n"
                f"Choose a new password here: {settings.PUBLIC_URL + f'/reset-password/{raw}'}\n\n"
                "The link works once and expires in 6 hours. "
                "If you didn't ask for this, you can ignore this email."
            ),
        )
    except Exception:
        account_email_release(reserved=reserved)  # the task tries again and counts then
        raise
    return "sent"


@transaction.atomic
def _password_reset_link_issue(user: User) -> tuple[str, AccountEmail] | None:
    """A new reset token for `user` and its place under the cap, or None past the cap."""
    reserved = account_email_reserve(user=user, kind=AccountEmail.Kind.PASSWORD_RESET)
    if reserved is None:
        return None
    raw, hashed = token_new()
    PasswordResetToken.objects.create(
        user=user,
        token_hash=hashed,
        expires_at=timezone.now() + timedelta(seconds=settings.PASSWORD_RESET_TTL_SECONDS),
    )
    return raw, reserved
