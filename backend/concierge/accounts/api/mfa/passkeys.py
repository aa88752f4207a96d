"""Passkeys: registering one, the MFA step's options, and signing in with a passkey alone."""

from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse
from ninja import Router

from concierge.accounts.api.mfa.factors import (
    ERRORS,
    adding_user,
    enrolling_user,
    session_verified,
)
from concierge.accounts.auth import request_auth_token, token_auth_pending_mfa
from concierge.accounts.schemas import (
    PasskeyRegisterIn,
    PasskeySignInIn,
    RecoveryCodesOut,
    SignInOut,
    WebAuthnOptionsOut,
)
from concierge.accounts.services.mfa import passkeys
from concierge.common.ratelimit import rate_limit

router = Router(tags=["two-step verification"])


@router.post(
    "/mfa/passkeys/options",
    response={200: WebAuthnOptionsOut, **ERRORS},
    auth=token_auth_pending_mfa,
)
def passkey_registration_options(request: HttpRequest):
    rate_limit(request, "otp")
    options = passkeys.passkey_registration_options(user=adding_user(request))
    return WebAuthnOptionsOut(options=json.loads(options))


@router.post(
    "/mfa/passkeys", response={200: RecoveryCodesOut, **ERRORS}, auth=token_auth_pending_mfa
)
def passkey_register(request: HttpRequest, response: HttpResponse, payload: PasskeyRegisterIn):
    rate_limit(request, "otp")
    codes = passkeys.passkey_register(
        user=enrolling_user(request), credential=payload.credential, name=payload.name
    )
    session_verified(request, response)
    return RecoveryCodesOut(recovery_codes=codes)


@router.post(
    "/mfa/passkey/options",
    response={200: WebAuthnOptionsOut, **ERRORS},
    auth=token_auth_pending_mfa,
)
def passkey_mfa_options(request: HttpRequest):
    rate_limit(request, "otp")
    options = passkeys.passkey_mfa_options(auth_token=request_auth_token(request))
    return WebAuthnOptionsOut(options=json.loads(options))


@router.post(
    "/users/sign_in/passkey/options", response={200: WebAuthnOptionsOut, **ERRORS}, auth=None
)
def passkey_sign_in_options(request: HttpRequest):
    rate_limit(request, "sign_in")
    return WebAuthnOptionsOut(options=json.loads(passkeys.passkey_sign_in_options()))


@router.post("/users/sign_in/passkey", response={200: SignInOut, **ERRORS}, auth=None)
def passkey_sign_in(request: HttpRequest, response: HttpResponse, payload: PasskeySignInIn):
    """Signing in with a passkey alone: the answer carries both the `Authorization` and the
    `mfa-token` headers, as a password sign-in followed by the MFA step would."""
    rate_limit(request, "sign_in")
    result = passkeys.passkey_sign_in(credential=payload.credential)
    response["Authorization"] = f"Bearer {result.token}"
    response["mfa-token"] = result.mfa_token
    return SignInOut(
        expires_at=result.auth_token.expires_at,
        mfa_required=False,
        mfa_requires_verification=False,
    )
