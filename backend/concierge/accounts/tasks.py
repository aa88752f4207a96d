"""Background tasks of accounts (run by the task worker, see notifications.background)."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.utils import timezone
from django_tasks import task

from concierge.accounts.models import PasswordResetToken, User
from concierge.common.tokens import token_new
from concierge.notifications.delivery import email_send


@task()
def password_reset_email(*, email: str) -> str:
    """The reset email asked for at `POST /users/password`, if the email has an account."""
    return password_reset_email_send(email=email)


def password_reset_email_send(*, email: str) -> str:
    """Emails a reset link when the email belongs to an active account (run by a task)."""
    user = User.objects.filter(email__iexact=email.strip(), is_active=True).first()
    if user is None:
        return "no active account"
    raw, hashed = token_new()
    PasswordResetToken.objects.create(
        user=user,
        token_hash=hashed,
        expires_at=timezone.now() + timedelta(seconds=settings.PASSWORD_RESET_TTL_SECONDS),
    )
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
    return "sent"
