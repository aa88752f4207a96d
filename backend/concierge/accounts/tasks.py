"""Background tasks of accounts (run by the task worker, see notifications.background)."""

from __future__ import annotations

from django_tasks import task

from concierge.accounts import services


@task()
def password_reset_email(*, email: str) -> str:
    """The reset email asked for at `POST /users/password`, if the email has an account."""
    return services.password_reset_email_send(email=email)
