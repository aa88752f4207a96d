from __future__ import annotations

from ninja import Schema


class SurveyCategoryOut(Schema):
    id: int
    name: str
    image_url: str | None
    icon: str


class SurveyCategoryListOut(Schema):
    survey_categories: list[SurveyCategoryOut]


class RequestSurveyOut(Schema):
    id: int
    name: str
    slug: str
    for_alpha: bool


class CategoryRequestSurveysOut(Schema):
    survey_category: SurveyCategoryOut
    request_surveys: list[RequestSurveyOut]


class RecommendedCategoryOut(SurveyCategoryOut):
    request_surveys: list[RequestSurveyOut]


class RecommendedCategoriesOut(Schema):
    success: bool = True
    recommended_request_categories: list[RecommendedCategoryOut]
