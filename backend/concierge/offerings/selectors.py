"""Offering reads, always through what one user may see.

Visibility: a benefit is seen by employees of the companies it is attached to; a partner offer
(product) with no companies is seen by everyone, one with companies only by their employees.
A company with the work-email join policy counts only once the employee's email is verified.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from django.db.models import Exists, OuterRef, Prefetch, Q, QuerySet

from concierge.accounts.selectors.companies import companies_with_content_queryset
from concierge.common.errors import NotFound
from concierge.common.validation import is_database_id
from concierge.offerings.models import Offering, OfferingCategory, Section, SectionItem

if TYPE_CHECKING:
    from concierge.accounts.models import User

OFFERING_NOT_FOUND = "We couldn't find that benefit or offer."


def offering_visible_queryset(*, user: User) -> QuerySet[Offering]:
    audience = Offering.companies.through.objects.filter(offering_id=OuterRef("pk"))
    return Offering.objects.alias(
        for_user=Exists(audience.filter(company__in=companies_with_content_queryset(user=user))),
        has_audience=Exists(audience),
    ).filter(
        Q(type=Offering.Type.BENEFIT, for_user=True)
        | Q(type=Offering.Type.PRODUCT, has_audience=False)
        | Q(type=Offering.Type.PRODUCT, for_user=True)
    )


def _categories_prefetch() -> Prefetch:
    return Prefetch("categories", queryset=OfferingCategory.objects.order_by("position", "id"))


def offering_list_for_user(
    *,
    user: User,
    types: Iterable[str],
    limit: int | None = None,
    prefer_featured: bool = False,
) -> list[Offering]:
    """The user's offerings of the given types: benefits first, then by position.

    With `prefer_featured`, only featured offerings are returned when any exist among them;
    when none is featured, all of them are (spec §7). Two queries whatever the length.
    """
    queryset = (
        offering_visible_queryset(user=user)
        .filter(type__in=list(types))
        .prefetch_related(_categories_prefetch())
    )
    # "benefit" sorts before "product".
    order = ["type", "position", "id"]
    if prefer_featured:
        order = ["-featured", *order]
    queryset = queryset.order_by(*order)
    if limit is not None:
        queryset = queryset[:limit]
    offerings = list(queryset)
    if prefer_featured and offerings and offerings[0].featured:
        offerings = [o for o in offerings if o.featured]
    return offerings


def offering_get_for_user(*, user: User, offering_id: int) -> Offering:
    """One offering with its categories, sections and items; 404 unless the user may see it."""
    if not is_database_id(offering_id):
        raise NotFound(OFFERING_NOT_FOUND)
    items = SectionItem.objects.order_by("position", "id")
    sections = Section.objects.order_by("position", "id").prefetch_related(
        Prefetch("items", queryset=items)
    )
    offering = (
        offering_visible_queryset(user=user)
        .filter(pk=offering_id)
        .select_related("request_survey", "request_survey_answer__question")
        .prefetch_related(_categories_prefetch(), Prefetch("sections", queryset=sections))
        .first()
    )
    if offering is None:
        raise NotFound(OFFERING_NOT_FOUND)
    return offering


def offering_request_survey_id_for_user(*, user: User, offering_id: int) -> int | None:
    """The id of the request survey the offering's 'Get help' starts, None when it offers none
    (no survey, or no button label: the catalogue shows the 'Get help' block only with one);
    404 unless the user may see the offering (worded as `offering_get_for_user`'s)."""
    if not is_database_id(offering_id):
        raise NotFound(OFFERING_NOT_FOUND)
    offering = (
        offering_visible_queryset(user=user)
        .filter(pk=offering_id)
        .only("request_survey_id", "request_survey_cta")
        .first()
    )
    if offering is None:
        raise NotFound(OFFERING_NOT_FOUND)
    return offering.request_survey_id if offering.offers_get_help else None


def offering_category_list_for_user(*, user: User) -> QuerySet[OfferingCategory]:
    """Categories holding at least one offering the user can see, in display order."""
    visible = offering_visible_queryset(user=user).filter(categories=OuterRef("pk"))
    return OfferingCategory.objects.filter(Exists(visible)).order_by("position", "id")
