"""Second factors beyond the SMS code: the Account page's list, authenticator apps, passkeys and
recovery codes; the MFA step's choices; signing in with a passkey alone. The MFA step itself is
`POST /mfa/verify` (accounts.api), whatever the factor."""

from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse
from ninja import Router

from concierge.accounts import mfa_selectors, mfa_services, services
from concierge.accounts.auth import (
    MFA_AUTHENTICATION_REQUIRED,
    mfa_verified,
    request_auth_token,
    token_auth,
    token_auth_pending_mfa,
)
from concierge.accounts.mfa_selectors import user_has_mfa_factor
from concierge.accounts.models import User
from concierge.accounts.schemas import (
    FreshCheckIn,
    MfaFactorOut,
    MfaFactorsOut,
    MfaMethodsOut,
    PasskeyRegisterIn,
    PasskeySignInIn,
    RecoveryCodesOut,
    SignInOut,
    SuccessOut,
    TotpConfirmIn,
    TotpEnrolmentOut,
    WebAuthnOptionsOut,
)
from concierge.common.errors import Unauthorized
from concierge.common.ratelimit import rate_limit
from concierge.common.schemas import ErrorOut

router = Router(tags=["two-step verification"])


def _enrolling_user(request: HttpRequest) -> User:
    """The user adding a factor: a session that passed the MFA step, or one that has no factor
    yet (a company rule asks it to enrol one before anything else)."""
    auth_token = request_auth_token(request)
    user = auth_token.user
    if (user.mfa_phone or user_has_mfa_factor(user=user)) and not mfa_verified(request, auth_token):
        raise Unauthorized(MFA_AUTHENTICATION_REQUIRED)
    return user


def _session_verified(request: HttpRequest, response: HttpResponse) -> None:
    """The factor just added proved itself: this session passes the MFA step with it (the
    answer carries the `mfa-token` header, as `POST /mfa/verify` does)."""
    auth_token = request_auth_token(request)
    if not mfa_verified(request, auth_token):
        response["mfa-token"] = services.auth_token_mfa_verified(auth_token=auth_token)


ERRORS = {400: ErrorOut, 401: ErrorOut, 404: ErrorOut, 422: ErrorOut, 429: ErrorOut}


@router.get(
    "/mfa/methods", response={200: MfaMethodsOut, 401: ErrorOut}, auth=token_auth_pending_mfa
)
def mfa_methods(request: HttpRequest):
    user = request_auth_token(request).user
    return MfaMethodsOut(
        methods=mfa_selectors.user_mfa_methods(user=user),
        phone_hint=mfa_selectors.phone_hint(user.mfa_phone),
    )


@router.get("/mfa/factors", response={200: MfaFactorsOut, 401: ErrorOut}, auth=token_auth)
def mfa_factors(request: HttpRequest):
    user = request_auth_token(request).user
    return MfaFactorsOut(
        factors=[
            MfaFactorOut(
                id=f.id,
                kind=f.kind,
                name=f.name,
                created_at=f.created_at,
                last_used_at=f.last_used_at,
            )
            for f in mfa_selectors.user_factor_list(user=user)
        ],
        recovery_codes_left=mfa_selectors.recovery_codes_left(user=user),
        company_requires_mfa=any(c.requires_mfa for c in user.companies.all()),
    )


@router.post(
    "/mfa/factors/{factor_id}/remove", response={200: SuccessOut, **ERRORS}, auth=token_auth
)
def mfa_factor_remove(request: HttpRequest, factor_id: str, payload: FreshCheckIn):
    rate_limit(request, "otp")
    mfa_services.factor_remove(
        user=request_auth_token(request).user,
        factor_id=factor_id[:20],
        password=payload.password,
        code=payload.code,
    )
    return SuccessOut()


@router.post("/mfa/totp", response={200: TotpEnrolmentOut, **ERRORS}, auth=token_auth_pending_mfa)
def totp_enrol_start(request: HttpRequest):
    rate_limit(request, "otp")
    enrolment = mfa_services.totp_enrol_start(user=_enrolling_user(request))
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
    codes = mfa_services.totp_enrol_confirm(
        user=_enrolling_user(request),
        factor_id=factor_id,
        code=payload.code,
        name=payload.name,
    )
    _session_verified(request, response)
    return RecoveryCodesOut(recovery_codes=codes)


@router.post(
    "/mfa/passkeys/options",
    response={200: WebAuthnOptionsOut, **ERRORS},
    auth=token_auth_pending_mfa,
)
def passkey_registration_options(request: HttpRequest):
    rate_limit(request, "otp")
    options = mfa_services.passkey_registration_options(user=_enrolling_user(request))
    return WebAuthnOptionsOut(options=json.loads(options))


@router.post(
    "/mfa/passkeys", response={200: RecoveryCodesOut, **ERRORS}, auth=token_auth_pending_mfa
)
def passkey_register(request: HttpRequest, response: HttpResponse, payload: PasskeyRegisterIn):
    rate_limit(request, "otp")
    codes = mfa_services.passkey_register(
        user=_enrolling_user(request), credential=payload.credential, name=payload.name
    )
    _session_verified(request, response)
    return RecoveryCodesOut(recovery_codes=codes)


@router.post(
    "/mfa/passkey/options",
    response={200: WebAuthnOptionsOut, **ERRORS},
    auth=token_auth_pending_mfa,
)
def passkey_mfa_options(request: HttpRequest):
    rate_limit(request, "otp")
    options = mfa_services.passkey_mfa_options(auth_token=request_auth_token(request))
    return WebAuthnOptionsOut(options=json.loads(options))


@router.post("/mfa/recovery-codes", response={200: RecoveryCodesOut, **ERRORS}, auth=token_auth)
def recovery_codes_regenerate(request: HttpRequest, payload: FreshCheckIn):
    rate_limit(request, "otp")
    codes = mfa_services.recovery_codes_regenerate(
        user=request_auth_token(request).user, password=payload.password, code=payload.code
    )
    return RecoveryCodesOut(recovery_codes=codes)


@router.post(
    "/users/sign_in/passkey/options", response={200: WebAuthnOptionsOut, **ERRORS}, auth=None
)
def passkey_sign_in_options(request: HttpRequest):
    rate_limit(request, "sign_in")
    return WebAuthnOptionsOut(options=json.loads(mfa_services.passkey_sign_in_options()))


@router.post("/users/sign_in/passkey", response={200: SignInOut, **ERRORS}, auth=None)
def passkey_sign_in(request: HttpRequest, response: HttpResponse, payload: PasskeySignInIn):
    """Signing in with a passkey alone: the answer carries both the `Authorization` and the
    `mfa-token` headers, as a password sign-in followed by the MFA step would."""
    rate_limit(request, "sign_in")
    result = mfa_services.passkey_sign_in(credential=payload.credential)
    response["Authorization"] = f"Bearer {result.token}"
    response["mfa-token"] = result.mfa_token
    return SignInOut(
        expires_at=result.auth_token.expires_at,
        mfa_required=False,
        mfa_requires_verification=False,
    )
