"""Checks that may refuse a password sign-in, registered by the apps above accounts (company
sign-in's "SSO required", registered by the sso app), so accounts need not import them."""

from __future__ import annotations

from collections.abc import Callable

from concierge.accounts.models import User

PasswordSignInCheck = Callable[[User], "str | None"]
_password_sign_in_checks: list[PasswordSignInCheck] = []


def password_sign_in_check_register(check: PasswordSignInCheck) -> None:
    """Adds a check that may refuse a password sign-in with a message (sso's "SSO required")."""
    if check not in _password_sign_in_checks:
        _password_sign_in_checks.append(check)


def password_sign_in_refusal(user: User) -> str | None:
    """The message of the first check that refuses `user` a password sign-in, or None."""
    for check in _password_sign_in_checks:
        if message := check(user):
            return message
    return None
