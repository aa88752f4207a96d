"""Signing up, in and out, and the signed-in user (spec §7 'Account')."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from ninja import Router

from concierge.accounts.api.responses import ERRORS
from concierge.accounts.auth import request_auth_token, token_auth, token_auth_pending_mfa
from concierge.accounts.models import User
from concierge.accounts.schemas import (
    CompanyOut,
    CurrentUserOut,
    SignInIn,
    SignInOut,
    SignUpIn,
    SignUpOut,
    SuccessOut,
)
from concierge.accounts.selectors.companies import (
    user_companies_with_content,
    user_email_verification_pending,
)
from concierge.accounts.selectors.concierges import user_is_concierge
from concierge.accounts.selectors.mfa import user_has_mfa_factor
from concierge.accounts.selectors.users import user_initials
from concierge.accounts.services import identity, tokens
from concierge.common.ratelimit import rate_limit
from concierge.common.schemas import ErrorOut

router = Router(tags=["account"])


def image_url(request: HttpRequest, field) -> str | None:  # type: ignore[no-untyped-def]
    """The absolute address of an uploaded image (a company's logo), or None without one."""
    return request.build_absolute_uri(field.url) if field else None


def current_user_out(request: HttpRequest, user: User) -> CurrentUserOut:
    companies = user_companies_with_content(user=user)
    is_concierge = user_is_concierge(user=user)
    return CurrentUserOut(
        external_id=user.external_id,
        initials=user_initials(full_name=user.full_name),
        full_name=user.full_name,
        first_name=user.first_name,
        last_name=user.last_name,
        email=user.email,
        request_count=user.request_count,
        companies=[
            CompanyOut(id=c.id, name=c.name, image_url=image_url(request, c.logo))
            for c in companies
        ],
        is_internal=any(c.is_internal for c in companies),
        onboarding_required=user.onboarded_at is None and not is_concierge,
        mfa_enabled=bool(user.mfa_phone) or user_has_mfa_factor(user=user),
        # Every company's MFA rule holds, verified or not.
        mfa_required=any(c.requires_mfa for c in user.companies.all()),
        mfa_enrollment_available=not user.mfa_phone,
        is_concierge=is_concierge,
        email_verification_pending=user_email_verification_pending(user=user),
        pending_email=user.pending_email or None,
    )


@router.post("/users/sign_in", response={200: SignInOut, **ERRORS}, auth=None)
def sign_in(request: HttpRequest, response: HttpResponse, payload: SignInIn):
    rate_limit(request, "sign_in")
    result = identity.user_sign_in(email=payload.user.email, password=payload.user.password)
    response["Authorization"] = f"Bearer {result.token}"
    return SignInOut(
        expires_at=result.auth_token.expires_at,
        mfa_required=result.mfa_required,
        mfa_requires_verification=result.mfa_requires_verification,
    )


@router.post("/users/sign_up", response={200: SignUpOut, **ERRORS}, auth=None)
def sign_up(request: HttpRequest, payload: SignUpIn):
    rate_limit(request, "sign_up")
    email = identity.user_sign_up(
        email=payload.user.email,
        password=payload.user.password,
        first_name=payload.user.name,
        last_name=payload.user.last_name,
        company_slug=payload.user.company_slug,
        invite=payload.user.invite,
    )
    return SignUpOut(data=identity.sign_up_response_data(email))


@router.delete(
    "/users/sign_out", response={200: SuccessOut, 401: ErrorOut}, auth=token_auth_pending_mfa
)
def sign_out(request: HttpRequest):
    tokens.auth_token_revoke(auth_token=request_auth_token(request))
    return SuccessOut()


@router.get("/users/current", response={200: CurrentUserOut, 401: ErrorOut}, auth=token_auth)
def current_user(request: HttpRequest):
    return current_user_out(request, request_auth_token(request).user)
