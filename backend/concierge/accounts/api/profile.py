"""The Account page's changes to the account itself: the name, the email address (with its
emailed confirmation) and the password."""

from __future__ import annotations

from django.http import HttpRequest
from ninja import Router

from concierge.accounts.api.identity import current_user_out
from concierge.accounts.api.responses import ERRORS, FRESH_CHECK_ERRORS
from concierge.accounts.auth import request_auth_token, token_auth
from concierge.accounts.schemas import (
    CurrentUserOut,
    EmailChangeConfirmIn,
    EmailChangeIn,
    EmailChangeOut,
    PasswordChangeIn,
    ProfileNameIn,
    SuccessOut,
)
from concierge.accounts.services import profile
from concierge.common.ratelimit import rate_limit

router = Router(tags=["account"])


@router.put("/users/profile", response={200: CurrentUserOut, **ERRORS}, auth=token_auth)
def profile_name_update(request: HttpRequest, payload: ProfileNameIn):
    user = profile.profile_name_update(
        user=request_auth_token(request).user,
        first_name=payload.first_name,
        last_name=payload.last_name,
    )
    return current_user_out(request, user)


@router.post(
    "/users/email_change", response={200: EmailChangeOut, **FRESH_CHECK_ERRORS}, auth=token_auth
)
def email_change_request(request: HttpRequest, payload: EmailChangeIn):
    rate_limit(request, "otp")
    pending = profile.email_change_request(
        user=request_auth_token(request).user,
        email=payload.email,
        password=payload.password,
        code=payload.code,
    )
    return EmailChangeOut(pending_email=pending)


@router.delete("/users/email_change", response={200: SuccessOut, **ERRORS}, auth=token_auth)
def email_change_cancel(request: HttpRequest):
    profile.email_change_cancel(user=request_auth_token(request).user)
    return SuccessOut()


@router.post("/users/email_change/confirm", response={200: SuccessOut, **ERRORS}, auth=None)
def email_change_confirm(request: HttpRequest, payload: EmailChangeConfirmIn):
    rate_limit(request, "password")
    profile.email_change_confirm(token=payload.token)
    return SuccessOut()


@router.post(
    "/users/password/change", response={200: SuccessOut, **FRESH_CHECK_ERRORS}, auth=token_auth
)
def password_change(request: HttpRequest, payload: PasswordChangeIn):
    rate_limit(request, "otp")
    profile.password_change(
        auth_token=request_auth_token(request),
        new_password=payload.new_password,
        new_password_confirmation=payload.new_password_confirmation,
        password=payload.password,
        code=payload.code,
    )
    return SuccessOut()
