"""The Account page's list of second factors and their removal, the MFA step's choices, and
what adding any factor shares."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from ninja import Router

from concierge.accounts.auth import (
    MFA_AUTHENTICATION_REQUIRED,
    mfa_verified,
    request_auth_token,
    token_auth,
    token_auth_pending_mfa,
)
from concierge.accounts.models import User
from concierge.accounts.schemas import (
    FactorRenameIn,
    FreshCheckIn,
    MfaFactorOut,
    MfaFactorsOut,
    MfaMethodsOut,
    SuccessOut,
)
from concierge.accounts.selectors import mfa as mfa_selectors
from concierge.accounts.selectors.mfa import user_has_mfa_factor
from concierge.accounts.services import tokens
from concierge.accounts.services.mfa import factors, fresh_check
from concierge.common.errors import ApiError, Unauthorized
from concierge.common.ratelimit import rate_limit
from concierge.common.schemas import ErrorOut

router = Router(tags=["two-step verification"])


def enrolling_user(request: HttpRequest) -> User:
    """The user adding a factor: a session that passed the MFA step, or one that has no factor
    yet (a company rule asks it to enrol one before anything else)."""
    auth_token = request_auth_token(request)
    user = auth_token.user
    if (user.mfa_phone or user_has_mfa_factor(user=user)) and not mfa_verified(request, auth_token):
        raise Unauthorized(MFA_AUTHENTICATION_REQUIRED)
    return user


def adding_user(request: HttpRequest) -> User:
    """`enrolling_user`, for the first step of adding a factor: the session must also have
    proven its person recently (signed in, or `POST /mfa/confirm`), so that a session left
    signed in, or stolen, cannot add a way of signing in of its own."""
    user = enrolling_user(request)
    if not fresh_check.session_recently_confirmed(request_auth_token(request)):
        message = fresh_check.CONFIRM_REQUIRED
        raise ApiError(message, status_code=403, errors={"confirm": [message]})
    return user


def session_verified(request: HttpRequest, response: HttpResponse) -> None:
    """The factor just added proved itself: this session passes the MFA step with it (the
    answer carries the `mfa-token` header, as `POST /mfa/verify` does)."""
    auth_token = request_auth_token(request)
    if not mfa_verified(request, auth_token):
        response["mfa-token"] = tokens.auth_token_mfa_verified(auth_token=auth_token)


ERRORS = {400: ErrorOut, 401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 422: ErrorOut, 429: ErrorOut}


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
        add_needs_confirm=not fresh_check.session_recently_confirmed(request_auth_token(request)),
    )


@router.post("/mfa/confirm", response={200: SuccessOut, **ERRORS}, auth=token_auth_pending_mfa)
def mfa_session_confirm(request: HttpRequest, payload: FreshCheckIn):
    """The person proves themselves again (password, or a code from another sign-in method):
    for the next 15 minutes this session may add a sign-in method. A wrong proof counts as a
    failed sign-in (403)."""
    rate_limit(request, "otp")
    fresh_check.session_confirm(
        auth_token=request_auth_token(request), password=payload.password, code=payload.code
    )
    return SuccessOut()


@router.patch("/mfa/factors/{factor_id}", response={200: MfaFactorOut, **ERRORS}, auth=token_auth)
def mfa_factor_rename(request: HttpRequest, factor_id: str, payload: FactorRenameIn):
    factor = factors.factor_rename(
        user=request_auth_token(request).user, factor_id=factor_id[:20], name=payload.name
    )
    return MfaFactorOut(
        id=str(factor.pk),
        kind=factor.kind,
        name=factor.name,
        created_at=factor.created_at,
        last_used_at=factor.last_used_at,
    )


@router.post(
    "/mfa/factors/{factor_id}/remove", response={200: SuccessOut, **ERRORS}, auth=token_auth
)
def mfa_factor_remove(request: HttpRequest, factor_id: str, payload: FreshCheckIn):
    rate_limit(request, "otp")
    fresh_check.factor_remove(
        user=request_auth_token(request).user,
        factor_id=factor_id[:20],
        password=payload.password,
        code=payload.code,
    )
    return SuccessOut()
