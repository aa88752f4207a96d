"""Recovery codes: renewing them after a fresh check."""

from __future__ import annotations

from django.http import HttpRequest
from ninja import Router

from concierge.accounts.api.mfa.factors import ERRORS
from concierge.accounts.auth import request_auth_token, token_auth
from concierge.accounts.schemas import FreshCheckIn, RecoveryCodesOut
from concierge.accounts.services.mfa import fresh_check
from concierge.common.ratelimit import rate_limit

router = Router(tags=["two-step verification"])


@router.post("/mfa/recovery-codes", response={200: RecoveryCodesOut, **ERRORS}, auth=token_auth)
def recovery_codes_regenerate(request: HttpRequest, payload: FreshCheckIn):
    rate_limit(request, "otp")
    codes = fresh_check.recovery_codes_regenerate(
        user=request_auth_token(request).user, password=payload.password, code=payload.code
    )
    return RecoveryCodesOut(recovery_codes=codes)
