"""Checks that may refuse a sign-in with the product's own credentials (a password, or a
passkey alone), registered by the apps above accounts (company sign-in's "SSO required",
registered by the sso app), so accounts need not import them."""

from __future__ import annotations

from collections.abc import Callable

from concierge.accounts.models import User

OwnSignInCheck = Callable[[User], "str | None"]
_own_sign_in_checks: list[OwnSignInCheck] = []


def own_sign_in_check_register(check: OwnSignInCheck) -> None:
    """Adds a check that may refuse a password or passkey sign-in with a message (sso's "SSO
    required")."""
    if check not in _own_sign_in_checks:
        _own_sign_in_checks.append(check)


def own_sign_in_refusal(user: User) -> str | None:
    """The message of the first check that refuses `user` a sign-in by password or passkey,
    or None."""
    for check in _own_sign_in_checks:
        if message := check(user):
            return message
    return None
