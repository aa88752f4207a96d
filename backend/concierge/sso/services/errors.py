"""The one error of company sign-in: shown to the person as it is, nothing created."""

from __future__ import annotations

from concierge.common.errors import ApiError


class SignInRefused(ApiError):
    """The identity provider's answer is refused (or the provider could not be reached)."""

    status_code = 401
    # Set once the refused answer is known to end the company admin's test sign-in.
    test = False
