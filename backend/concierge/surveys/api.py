"""Survey endpoints: spec §7 'Requests and surveys' (categories and recommendations)."""

from __future__ import annotations

from django.http import HttpRequest
from ninja import Router

from concierge.accounts.auth import request_auth_token
from concierge.accounts.schemas import ErrorOut
from concierge.surveys import selectors
from concierge.surveys.models import RequestSurvey, SurveyCategory
from concierge.surveys.schemas import (
    CategoryRequestSurveysOut,
    RecommendedCategoriesOut,
    RecommendedCategoryOut,
    RequestSurveyOut,
    SurveyCategoryListOut,
    SurveyCategoryOut,
)

router = Router(tags=["surveys"])


def _category_out(request: HttpRequest, category: SurveyCategory) -> SurveyCategoryOut:
    return SurveyCategoryOut(
        id=category.id,
        name=category.name,
        image_url=request.build_absolute_uri(category.image.url) if category.image else None,
        icon=category.icon,
    )


def _survey_out(survey: RequestSurvey) -> RequestSurveyOut:
    return RequestSurveyOut(
        id=survey.id, name=survey.name, slug=survey.slug, for_alpha=survey.for_alpha
    )


@router.get("/survey_categories", response={200: SurveyCategoryListOut, 401: ErrorOut})
def survey_categories(request: HttpRequest):
    categories = selectors.survey_category_list()
    return SurveyCategoryListOut(survey_categories=[_category_out(request, c) for c in categories])


@router.get(
    "/survey_categories/{category_id}/request_surveys",
    response={200: CategoryRequestSurveysOut, 401: ErrorOut, 404: ErrorOut},
)
def category_request_surveys(request: HttpRequest, category_id: int):
    category = selectors.survey_category_get(category_id=category_id)
    surveys = selectors.request_survey_list_for_category(category=category)
    return CategoryRequestSurveysOut(
        survey_category=_category_out(request, category),
        request_surveys=[_survey_out(s) for s in surveys],
    )


@router.get(
    "/recommended_request_categories", response={200: RecommendedCategoriesOut, 401: ErrorOut}
)
def recommended_request_categories(request: HttpRequest):
    user = request_auth_token(request).user
    categories = selectors.recommended_category_list_for_user(user=user)
    return RecommendedCategoriesOut(
        recommended_request_categories=[
            RecommendedCategoryOut(
                **_category_out(request, c).dict(),
                request_surveys=[_survey_out(s) for s in c.alpha_surveys],  # type: ignore[attr-defined]
            )
            for c in categories
        ]
    )
