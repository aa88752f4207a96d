"""Benefits & Offers endpoints: spec §7 'Offerings'."""

from __future__ import annotations

from django.db.models.fields.files import FieldFile
from django.http import HttpRequest
from ninja import Query, Router

from concierge.accounts.auth import request_auth_token
from concierge.common.schemas import ErrorOut
from concierge.offerings import selectors
from concierge.offerings.models import Offering, Section
from concierge.offerings.schemas import (
    OfferingCategoryListOut,
    OfferingCategoryOut,
    OfferingDetailOut,
    OfferingDetailResponse,
    OfferingListOut,
    OfferingListQuery,
    OfferingOut,
    PreselectedAnswerOut,
    SectionItemOut,
    SectionOut,
)

router = Router(tags=["offerings"])


def _file_url(request: HttpRequest, field: FieldFile) -> str | None:
    return request.build_absolute_uri(field.url) if field else None


def _offering_out(request: HttpRequest, offering: Offering) -> dict:
    return {
        "id": offering.id,
        "type": offering.type,
        "provider_name": offering.provider_name,
        "provider_logo_url": _file_url(request, offering.provider_logo)
        or offering.provider_logo_url
        or None,
        "heading": offering.heading,
        "subheading": offering.subheading,
        "name": offering.name,
        "featured": offering.featured,
        "categories": [c.name for c in offering.categories.all()],
    }


def _section_out(section: Section) -> SectionOut:
    return SectionOut(
        id=section.id,
        section_type=section.section_type,  # type: ignore[arg-type]
        heading=section.heading or None,
        items=[
            SectionItemOut(key=i.key or None, value=i.value, external_url=i.external_url or None)
            for i in section.items.all()
        ],
        cta_url=section.cta_url or None,
        cta_text=section.cta_text or None,
    )


def _survey_answer(offering: Offering) -> PreselectedAnswerOut | None:
    """The answer 'Get help' pre-selects, while it is one of the offering's survey's options."""
    option = offering.request_survey_answer
    if (
        option is None
        or not offering.offers_get_help
        or option.question.survey_id != offering.request_survey_id
    ):
        return None
    return PreselectedAnswerOut(question_id=option.question_id, value=option.value)


@router.get("/offerings", response={200: OfferingListOut, 401: ErrorOut, 422: ErrorOut})
def offerings(request: HttpRequest, filters: Query[OfferingListQuery]):
    found = selectors.offering_list_for_user(
        user=request_auth_token(request).user,
        types=filters.types,
        limit=filters.limit,
        prefer_featured=filters.prefer_featured,
    )
    return OfferingListOut(offerings=[OfferingOut(**_offering_out(request, o)) for o in found])


@router.get(
    "/offerings/{offering_id}",
    response={200: OfferingDetailResponse, 401: ErrorOut, 404: ErrorOut},
)
def offering_detail(request: HttpRequest, offering_id: int):
    offering = selectors.offering_get_for_user(
        user=request_auth_token(request).user, offering_id=offering_id
    )
    # Without a button label, 'Get help' would be refused (offering_request_survey_id_for_user).
    survey = offering.request_survey if offering.offers_get_help else None
    return OfferingDetailResponse(
        offering=OfferingDetailOut(
            **_offering_out(request, offering),
            sections=[_section_out(s) for s in offering.sections.all()],
            request_survey_cta=offering.request_survey_cta.strip() if survey else None,
            request_survey_id=survey.id if survey else None,
            request_survey_name=survey.name if survey else None,
            request_survey_answer=_survey_answer(offering),
        )
    )


@router.get("/offering_categories", response={200: OfferingCategoryListOut, 401: ErrorOut})
def offering_categories(request: HttpRequest):
    categories = selectors.offering_category_list_for_user(user=request_auth_token(request).user)
    return OfferingCategoryListOut(
        offering_categories=[
            OfferingCategoryOut(
                external_id=c.external_id, name=c.name, image_url=_file_url(request, c.image)
            )
            for c in categories
        ]
    )
