"""Onboarding: an employee's answers, read and saved."""

from __future__ import annotations

from django.http import HttpRequest
from ninja import Router

from concierge.accounts.api.responses import ERRORS
from concierge.accounts.auth import request_auth_token, token_auth
from concierge.accounts.schemas import (
    OnboardingAnswerIn,
    OnboardingAnswersIn,
    OnboardingAnswersOut,
    SuccessOut,
)
from concierge.accounts.selectors.onboarding import onboarding_answers_for_user
from concierge.accounts.services import onboarding
from concierge.common.schemas import ErrorOut

router = Router(tags=["account"])


@router.get(
    "/users/onboarding", response={200: OnboardingAnswersOut, 401: ErrorOut}, auth=token_auth
)
def onboarding_answers(request: HttpRequest):
    answers = onboarding_answers_for_user(user=request_auth_token(request).user)
    return OnboardingAnswersOut(
        answers=[OnboardingAnswerIn(answer_id=k, value=v) for k, v in answers.items()]
    )


@router.post("/users/onboarding", response={200: SuccessOut, **ERRORS}, auth=token_auth)
def onboarding_answers_save(request: HttpRequest, payload: OnboardingAnswersIn):
    onboarding.onboarding_answers_save(
        user=request_auth_token(request).user,
        answers=[a.dict() for a in payload.answers],
    )
    return SuccessOut()
