"""Password reset: asking for the emailed link, checking it as its page opens, and choosing a
new password with it."""

from __future__ import annotations

from django.http import HttpRequest
from ninja import Router

from concierge.accounts.api.responses import ERRORS
from concierge.accounts.schemas import (
    PasswordResetCheckIn,
    PasswordResetIn,
    PasswordResetRequestIn,
    SuccessOut,
)
from concierge.accounts.selectors.password_reset import password_reset_token_check
from concierge.accounts.services import password_reset as password_reset_services
from concierge.common.ratelimit import rate_limit

router = Router(tags=["account"])


@router.post("/users/password", response={200: SuccessOut, **ERRORS}, auth=None)
def password_reset_request(request: HttpRequest, payload: PasswordResetRequestIn):
    rate_limit(request, "password")
    password_reset_services.password_reset_request(email=payload.user.email)
    return SuccessOut()


@router.put("/users/password", response={200: SuccessOut, **ERRORS}, auth=None)
def password_reset(request: HttpRequest, payload: PasswordResetIn):
    rate_limit(request, "password")
    password_reset_services.password_reset_complete(
        token=payload.reset_password_token,
        password=payload.password,
        password_confirmation=payload.password_confirmation,
    )
    return SuccessOut()


@router.post("/users/password/check", response={200: SuccessOut, **ERRORS}, auth=None)
def password_reset_check(request: HttpRequest, payload: PasswordResetCheckIn):
    """Whether the reset link can still be used, without using it (the page asks on load)."""
    rate_limit(request, "password", key="check")
    password_reset_token_check(token=payload.reset_password_token)
    return SuccessOut()
