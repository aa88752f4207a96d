"""The one error of company sign-in: shown to the person as it is, nothing created."""

from __future__ import annotations

from concierge.common.errors import ApiError


class SignInRefused(ApiError):
    """The identity provider's answer is refused (or the provider could not be reached)."""

    # 400, not 401: the web app signs a person out on a 401 to a request carrying their
    # session, and a company admin's test sign-in is exchanged while signed in.
    status_code = 400
    # Set once the refused answer is known to end the company admin's test sign-in.
    test = False
