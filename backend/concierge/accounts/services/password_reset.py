"""Password reset: a link emailed on request (sent by `tasks`), and a new password chosen with
it."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from concierge.accounts.models import PasswordResetToken, User
from concierge.accounts.selectors.password_reset import INVALID_RESET_TOKEN, password_resets_usable
from concierge.accounts.services.identity import password_errors
from concierge.accounts.services.links import account_link
from concierge.accounts.services.profile import password_changed_notice
from concierge.accounts.services.tokens import user_sessions_revoke
from concierge.accounts.tasks import password_reset_email
from concierge.audit import actions as audit_actions
from concierge.audit.services import audit_record
from concierge.common.errors import ValidationFailed
from concierge.common.tokens import token_new
from concierge.notifications.background import enqueue_on_commit


def password_reset_request(*, email: str) -> None:
    """Queues the reset email. The request does the same work whether the email is known or
    not (the lookup happens in the task), so neither its answer nor its time tells them apart."""
    enqueue_on_commit(password_reset_email, email=email.strip())


def password_set_link_create(*, user: User) -> str:
    """A link (the reset page's) that sets `user`'s password once, within
    PASSWORD_RESET_TTL_SECONDS: handed to an operator (`manage.py bootstrap`), never emailed,
    so the hourly cap of reset emails does not apply."""
    raw, hashed = token_new()
    PasswordResetToken.objects.create(
        user=user,
        token_hash=hashed,
        expires_at=timezone.now() + timedelta(seconds=settings.PASSWORD_RESET_TTL_SECONDS),
    )
    return account_link(f"/reset-password/{raw}")


@transaction.atomic
def password_reset_complete(*, token: str, password: str, password_confirmation: str) -> User:
    reset = password_resets_usable(token=token).select_for_update().select_related("user").first()
    if reset is None:
        raise ValidationFailed.for_field("reset_password_token", INVALID_RESET_TOKEN)
    if password != password_confirmation:
        raise ValidationFailed.for_field("password_confirmation", "Passwords do not match")
    user = reset.user
    if errors := password_errors(password, user):
        raise ValidationFailed(errors[0], errors={"password": errors})
    user.set_password(password)
    audit_record(
        action=audit_actions.PASSWORD_RESET, actor=user, target_type="user", target_id=user.pk
    )
    user.locked_at = None
    user.failed_sign_in_count = 0
    user.unlock_token_hash = ""
    user.save()
    reset.used_at = timezone.now()
    reset.save(update_fields=["used_at"])
    user_sessions_revoke(user=user)
    # Links sent before this one die with it.
    user.password_resets.filter(used_at__isnull=True).update(used_at=reset.used_at)
    password_changed_notice(user=user, how="reset with a link sent to this address")
    return user
