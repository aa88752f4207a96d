"""Authenticator apps: adding one, confirmed by its first code."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from ninja import Router

from concierge.accounts.api.mfa.factors import (
    ERRORS,
    adding_user,
    enrolling_user,
    session_verified,
)
from concierge.accounts.auth import token_auth_pending_mfa
from concierge.accounts.schemas import RecoveryCodesOut, TotpConfirmIn, TotpEnrolmentOut
from concierge.accounts.services.mfa import totp
from concierge.common.ratelimit import rate_limit

router = Router(tags=["two-step verification"])


@router.post("/mfa/totp", response={200: TotpEnrolmentOut, **ERRORS}, auth=token_auth_pending_mfa)
def totp_enrol_start(request: HttpRequest):
    rate_limit(request, "otp")
    enrolment = totp.totp_enrol_start(user=adding_user(request))
    return TotpEnrolmentOut(
        factor_id=enrolment.factor_id,
        secret=enrolment.secret,
        otpauth_uri=enrolment.otpauth_uri,
        qr_data_uri=enrolment.qr_data_uri,
    )


@router.post(
    "/mfa/totp/{factor_id}/confirm",
    response={200: RecoveryCodesOut, **ERRORS},
    auth=token_auth_pending_mfa,
)
def totp_enrol_confirm(
    request: HttpRequest, response: HttpResponse, factor_id: int, payload: TotpConfirmIn
):
    rate_limit(request, "otp")
    codes = totp.totp_enrol_confirm(
        user=enrolling_user(request),
        factor_id=factor_id,
        code=payload.code,
        name=payload.name,
    )
    session_verified(request, response)
    return RecoveryCodesOut(recovery_codes=codes)
