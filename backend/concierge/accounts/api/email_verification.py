"""Email verification: confirming the address with the emailed link, and sending it again."""

from __future__ import annotations

from django.http import HttpRequest
from ninja import Router

from concierge.accounts.api.responses import ERRORS
from concierge.accounts.auth import request_auth_token, token_auth
from concierge.accounts.schemas import EmailVerifyIn, SuccessOut
from concierge.accounts.services import email_verification
from concierge.common.ratelimit import rate_limit

router = Router(tags=["account"])


@router.post("/users/verify_email", response={200: SuccessOut, **ERRORS}, auth=None)
def email_verify(request: HttpRequest, payload: EmailVerifyIn):
    rate_limit(request, "password")
    email_verification.email_verify(token=payload.token)
    return SuccessOut()


@router.post("/users/verify_email/resend", response={200: SuccessOut, **ERRORS}, auth=token_auth)
def email_verification_resend(request: HttpRequest):
    rate_limit(request, "password")
    email_verification.email_verification_send(user=request_auth_token(request).user)
    return SuccessOut()
