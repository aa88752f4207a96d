"""Password rules of our own, beside Django's (settings.AUTH_PASSWORD_VALIDATORS)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.hashers import check_password
from django.core.exceptions import ValidationError

PASSWORD_IN_USE = "Please choose a password you haven’t used here before."


class NotTheCurrentPasswordValidator:
    """A new password (a reset, a change) must differ from the one the account has: the reset
    page promises it, and a reset that keeps the old password changes nothing a thief knows."""

    def validate(self, password: str, user: Any = None) -> None:
        current = getattr(user, "password", "")
        # The hashers' own check: unlike `user.check_password` it never re-saves the hash.
        if current and user.has_usable_password() and check_password(password, current):
            raise ValidationError(PASSWORD_IN_USE, code="password_in_use")

    def get_help_text(self) -> str:
        return "Your password can’t be the one you use now."
