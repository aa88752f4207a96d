"""Account endpoints: spec §7 'Account'."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from ninja import Router

from concierge.accounts import mfa_services, selectors, services
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
    CompanyOut,
    CurrentUserOut,
    EmailVerifyIn,
    MfaEnrollIn,
    OnboardingAnswerIn,
    OnboardingAnswersIn,
    OnboardingAnswersOut,
    OtpIn,
    PasswordResetIn,
    PasswordResetRequestIn,
    SignInIn,
    SignInOut,
    SignUpIn,
    SignUpOut,
    SuccessOut,
)
from concierge.common.errors import Unauthorized
from concierge.common.ratelimit import rate_limit
from concierge.common.schemas import ErrorOut

router = Router(tags=["account"])
ERRORS = {400: ErrorOut, 401: ErrorOut, 422: ErrorOut, 429: ErrorOut}


def _image_url(request: HttpRequest, field) -> str | None:  # type: ignore[no-untyped-def]
    return request.build_absolute_uri(field.url) if field else None


def current_user_out(request: HttpRequest, user: User) -> CurrentUserOut:
    companies = selectors.user_companies_with_content(user=user)
    is_concierge = selectors.user_is_concierge(user=user)
    return CurrentUserOut(
        external_id=user.external_id,
        initials=selectors.user_initials(full_name=user.full_name),
        full_name=user.full_name,
        first_name=user.first_name,
        last_name=user.last_name,
        email=user.email,
        request_count=user.request_count,
        companies=[
            CompanyOut(id=c.id, name=c.name, image_url=_image_url(request, c.logo))
            for c in companies
        ],
        is_internal=any(c.is_internal for c in companies),
        onboarding_required=user.onboarded_at is None and not is_concierge,
        mfa_enabled=bool(user.mfa_phone) or user_has_mfa_factor(user=user),
        # Every company's MFA rule holds, verified or not.
        mfa_required=any(c.requires_mfa for c in user.companies.all()),
        mfa_enrollment_available=not user.mfa_phone,
        is_concierge=is_concierge,
        email_verification_pending=selectors.user_email_verification_pending(user=user),
    )


@router.post("/users/sign_in", response={200: SignInOut, **ERRORS}, auth=None)
def sign_in(request: HttpRequest, response: HttpResponse, payload: SignInIn):
    rate_limit(request, "sign_in")
    result = services.user_sign_in(email=payload.user.email, password=payload.user.password)
    response["Authorization"] = f"Bearer {result.token}"
    return SignInOut(
        expires_at=result.auth_token.expires_at,
        mfa_required=result.mfa_required,
        mfa_requires_verification=result.mfa_requires_verification,
    )


@router.post("/users/sign_up", response={200: SignUpOut, **ERRORS}, auth=None)
def sign_up(request: HttpRequest, payload: SignUpIn):
    rate_limit(request, "sign_up")
    email = services.user_sign_up(
        email=payload.user.email,
        password=payload.user.password,
        first_name=payload.user.name,
        last_name=payload.user.last_name,
        company_slug=payload.user.company_slug,
        invite=payload.user.invite,
    )
    return SignUpOut(data=services.sign_up_response_data(email))


@router.delete(
    "/users/sign_out", response={200: SuccessOut, 401: ErrorOut}, auth=token_auth_pending_mfa
)
def sign_out(request: HttpRequest):
    services.auth_token_revoke(auth_token=request_auth_token(request))
    return SuccessOut()


@router.post("/users/password", response={200: SuccessOut, **ERRORS}, auth=None)
def password_reset_request(request: HttpRequest, payload: PasswordResetRequestIn):
    rate_limit(request, "password")
    services.password_reset_request(email=payload.user.email)
    return SuccessOut()


@router.put("/users/password", response={200: SuccessOut, **ERRORS}, auth=None)
def password_reset(request: HttpRequest, payload: PasswordResetIn):
    rate_limit(request, "password")
    services.password_reset_complete(
        token=payload.reset_password_token,
        password=payload.password,
        password_confirmation=payload.password_confirmation,
    )
    return SuccessOut()


@router.get("/users/current", response={200: CurrentUserOut, 401: ErrorOut}, auth=token_auth)
def current_user(request: HttpRequest):
    return current_user_out(request, request_auth_token(request).user)


@router.get("/users/unlock", response={200: SuccessOut, **ERRORS}, auth=None)
def unlock(request: HttpRequest, unlock_token: str = ""):
    rate_limit(request, "password")
    services.user_unlock(token=unlock_token[:200])
    return SuccessOut()


@router.post("/users/verify_email", response={200: SuccessOut, **ERRORS}, auth=None)
def email_verify(request: HttpRequest, payload: EmailVerifyIn):
    rate_limit(request, "password")
    services.email_verify(token=payload.token)
    return SuccessOut()


@router.post("/users/verify_email/resend", response={200: SuccessOut, **ERRORS}, auth=token_auth)
def email_verification_resend(request: HttpRequest):
    rate_limit(request, "password")
    services.email_verification_send(user=request_auth_token(request).user)
    return SuccessOut()


@router.post("/mfa/send-otp", response={200: SuccessOut, **ERRORS}, auth=token_auth_pending_mfa)
def mfa_send_otp(request: HttpRequest):
    rate_limit(request, "otp")
    services.otp_resend(user=request_auth_token(request).user)
    return SuccessOut()


@router.post("/mfa/verify", response={200: SuccessOut, **ERRORS}, auth=token_auth_pending_mfa)
def mfa_verify(request: HttpRequest, response: HttpResponse, payload: OtpIn):
    rate_limit(request, "otp")
    auth_token = request_auth_token(request)
    if payload.method == "totp":
        mfa_token = mfa_services.mfa_totp_verify(auth_token=auth_token, code=payload.otp)
    elif payload.method == "recovery":
        mfa_token = mfa_services.mfa_recovery_verify(auth_token=auth_token, code=payload.otp)
    elif payload.method == "passkey":
        mfa_token = mfa_services.mfa_passkey_verify(
            auth_token=auth_token, credential=payload.credential or {}
        )
    else:
        mfa_token = services.mfa_verify(auth_token=auth_token, code=payload.otp)
    response["mfa-token"] = mfa_token
    return SuccessOut()


@router.post("/mfa", response={200: SuccessOut, **ERRORS}, auth=token_auth_pending_mfa)
def mfa_enroll(request: HttpRequest, payload: MfaEnrollIn):
    rate_limit(request, "otp")
    auth_token = request_auth_token(request)
    user = auth_token.user
    if (user.mfa_phone or user_has_mfa_factor(user=user)) and not mfa_verified(request, auth_token):
        # Replacing an enrolled phone (or adding one next to an app or a passkey) needs the
        # MFA step first, or a password alone would let anyone enrol their own phone.
        raise Unauthorized(MFA_AUTHENTICATION_REQUIRED)
    services.mfa_enroll(user=auth_token.user, phone_digits=payload.mfa_number)
    return SuccessOut()


@router.get(
    "/users/onboarding", response={200: OnboardingAnswersOut, 401: ErrorOut}, auth=token_auth
)
def onboarding_answers(request: HttpRequest):
    answers = selectors.onboarding_answers_for_user(user=request_auth_token(request).user)
    return OnboardingAnswersOut(
        answers=[OnboardingAnswerIn(answer_id=k, value=v) for k, v in answers.items()]
    )


@router.post("/users/onboarding", response={200: SuccessOut, **ERRORS}, auth=token_auth)
def onboarding_answers_save(request: HttpRequest, payload: OnboardingAnswersIn):
    services.onboarding_answers_save(
        user=request_auth_token(request).user,
        answers=[a.dict() for a in payload.answers],
    )
    return SuccessOut()
