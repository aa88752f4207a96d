from __future__ import annotations

from typing import Any, Literal

from ninja import Schema
from pydantic import Field, field_validator

OFFERING_TYPES = ("benefit", "product")


class OfferingListQuery(Schema):
    types: list[str] = Field(
        default_factory=lambda: list(OFFERING_TYPES),
        description="Comma-separated: benefit, product or both.",
    )
    limit: int | None = Field(None, ge=1, le=100)
    prefer_featured: bool = Field(
        False, description="Only featured offerings, or all of them when none is featured."
    )

    @field_validator("types", mode="before")
    @classmethod
    def _types(cls, value: Any) -> list[str]:
        raw = value if isinstance(value, list | tuple) else [value]
        parts = [p.strip() for item in raw for p in str(item or "").split(",") if p.strip()]
        if not parts:
            raise ValueError("Choose at least one offering type: benefit or product.")
        unknown = [p for p in parts if p not in OFFERING_TYPES]
        if unknown:
            raise ValueError(
                f"Unknown offering type: {', '.join(unknown)[:100]}. Use benefit or product."
            )
        return list(dict.fromkeys(parts))


class OfferingOut(Schema):
    id: int
    type: Literal["benefit", "product"]
    provider_name: str
    provider_logo_url: str | None
    heading: str
    subheading: str
    name: str
    featured: bool
    categories: list[str] = Field(description="Category names.")


class OfferingListOut(Schema):
    offerings: list[OfferingOut]


class SectionItemOut(Schema):
    key: str | None
    value: str
    external_url: str | None


class SectionOut(Schema):
    id: int
    section_type: Literal["numbered", "key_value", "text"]
    heading: str | None
    items: list[SectionItemOut]
    cta_url: str | None
    cta_text: str | None


class PreselectedAnswerOut(Schema):
    question_id: int
    value: str = Field(description="The value of the question's option that starts selected.")


class OfferingDetailOut(OfferingOut):
    sections: list[SectionOut]
    request_survey_cta: str | None
    request_survey_id: int | None
    request_survey_name: str | None
    request_survey_answer: PreselectedAnswerOut | None = Field(
        description="The answer 'Get help' starts the survey with (the employee can change it): "
        "e.g. 'Medical insurance' for 'Which benefit do you need help with?'."
    )


class OfferingDetailResponse(Schema):
    offering: OfferingDetailOut


class OfferingCategoryOut(Schema):
    external_id: str
    name: str
    image_url: str | None


class OfferingCategoryListOut(Schema):
    offering_categories: list[OfferingCategoryOut]
