"""The text-message factor (spec §7): enrolling a phone, texting a code, and the MFA step, which
takes every factor's answer."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from ninja import Router

from concierge.accounts.api.mfa.factors import adding_user
from concierge.accounts.api.responses import ERRORS
from concierge.accounts.auth import (
    request_auth_token,
    token_auth_pending_mfa,
)
from concierge.accounts.schemas import MfaEnrollIn, OtpIn, SuccessOut
from concierge.accounts.services.mfa import passkeys, recovery_codes, sms, totp
from concierge.common.ratelimit import rate_limit

router = Router(tags=["account"])


@router.post("/mfa/send-otp", response={200: SuccessOut, **ERRORS}, auth=token_auth_pending_mfa)
def mfa_send_otp(request: HttpRequest):
    rate_limit(request, "otp")
    sms.otp_resend(user=request_auth_token(request).user)
    return SuccessOut()


@router.post("/mfa/verify", response={200: SuccessOut, **ERRORS}, auth=token_auth_pending_mfa)
def mfa_verify(request: HttpRequest, response: HttpResponse, payload: OtpIn):
    rate_limit(request, "otp")
    auth_token = request_auth_token(request)
    if payload.method == "totp":
        mfa_token = totp.mfa_totp_verify(auth_token=auth_token, code=payload.otp)
    elif payload.method == "recovery":
        mfa_token = recovery_codes.mfa_recovery_verify(auth_token=auth_token, code=payload.otp)
    elif payload.method == "passkey":
        mfa_token = passkeys.mfa_passkey_verify(
            auth_token=auth_token, credential=payload.credential or {}
        )
    else:
        mfa_token = sms.mfa_verify(auth_token=auth_token, code=payload.otp)
    response["mfa-token"] = mfa_token
    return SuccessOut()


@router.post("/mfa", response={200: SuccessOut, **ERRORS}, auth=token_auth_pending_mfa)
def mfa_enroll(request: HttpRequest, payload: MfaEnrollIn):
    rate_limit(request, "otp")
    # Replacing an enrolled phone (or adding one next to an app or a passkey) needs the MFA
    # step first, or a password alone would let anyone enrol their own phone.
    sms.mfa_enroll(user=adding_user(request), phone_digits=payload.mfa_number)
    return SuccessOut()
