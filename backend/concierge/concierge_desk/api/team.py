"""The desk's people: the concierges (the assign menu) and the satisfaction averages."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.http import HttpRequest

from concierge.accounts.selectors.concierges import concierge_list
from concierge.concierge_desk.api.access import ERRORS, desk_router
from concierge.concierge_desk.schemas import (
    ConciergeListOut,
    ConciergeOut,
)
from concierge.satisfaction.schemas import RatingSummaryOut
from concierge.satisfaction.selectors import rating_summary

if TYPE_CHECKING:
    pass

router = desk_router()


@router.get("/concierge/concierges", response={200: ConciergeListOut, **ERRORS})
def concierges(request: HttpRequest):
    """Every concierge, by name (for the assign menu)."""
    return ConciergeListOut(
        concierges=[
            ConciergeOut(id=c.pk, full_name=c.full_name, email=c.email) for c in concierge_list()
        ]
    )


@router.get("/concierge/ratings", response={200: RatingSummaryOut, **ERRORS})
def ratings(request: HttpRequest):
    """Satisfaction: the average rating and count overall, per concierge who worked the
    requests, and per employee company."""
    summary = rating_summary()
    return RatingSummaryOut.model_validate(summary, from_attributes=True)
