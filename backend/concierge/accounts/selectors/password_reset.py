"""Password reset: whether an emailed reset link can still set a new password."""

from __future__ import annotations

from django.db.models import QuerySet
from django.utils import timezone

from concierge.accounts.models import PasswordResetToken
from concierge.common.errors import ValidationFailed
from concierge.common.tokens import token_hash

INVALID_RESET_TOKEN = (
    "This password reset link is invalid or has expired. Please request a new one."
)


def password_resets_usable(*, token: str) -> QuerySet[PasswordResetToken]:
    """The stored reset of the link's `token` while it can be used: unused and unexpired."""
    return PasswordResetToken.objects.filter(
        token_hash=token_hash(token), used_at__isnull=True, expires_at__gt=timezone.now()
    )


def password_reset_token_check(*, token: str) -> None:
    """Raises the invalid-link error unless `token` can still set a new password. It only
    reads (the link stays usable) and says nothing of the account it belongs to."""
    if not token or not password_resets_usable(token=token).exists():
        raise ValidationFailed.for_field("reset_password_token", INVALID_RESET_TOKEN)
