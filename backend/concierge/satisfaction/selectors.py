"""Rating reads: one request's rating, and the averages the desk shows."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.db.models import Avg, Count
from django.db.models.functions import TruncMonth

from concierge.satisfaction.models import Rating


def rating_for_request(*, request_id: int) -> Rating | None:
    return Rating.objects.filter(request_id=request_id).first()


@dataclass(frozen=True)
class Average:
    id: int | None
    name: str
    average: float
    count: int


@dataclass(frozen=True)
class RatingSummary:
    overall: Average
    concierges: list[Average]
    companies: list[Average]


UNASSIGNED = "Unassigned"


def _average(value: float | None) -> float:
    return round(float(value or 0), 2)


def rating_summary() -> RatingSummary:
    """The average rating and its count: overall, per concierge who worked the request (and
    for requests nobody was assigned) and per employee company. Three queries."""
    overall = Rating.objects.aggregate(average=Avg("score"), count=Count("id"))
    by_concierge = (
        Rating.objects.values("concierge_id", "concierge__first_name", "concierge__last_name")
        .annotate(average=Avg("score"), count=Count("id"))
        .order_by("concierge__first_name", "concierge__last_name", "concierge_id")
    )
    by_company = (
        Rating.objects.filter(company__isnull=False)
        .values("company_id", "company__name")
        .annotate(average=Avg("score"), count=Count("id"))
        .order_by("company__name", "company_id")
    )
    return RatingSummary(
        overall=Average(
            id=None, name="All", average=_average(overall["average"]), count=overall["count"]
        ),
        # Requests rated while nobody was assigned have a row of their own, last, so that the
        # rows add up to the overall count.
        concierges=sorted(
            (
                Average(
                    id=row["concierge_id"],
                    name=UNASSIGNED
                    if row["concierge_id"] is None
                    else " ".join(
                        p for p in (row["concierge__first_name"], row["concierge__last_name"]) if p
                    ),
                    average=_average(row["average"]),
                    count=row["count"],
                )
                for row in by_concierge
            ),
            key=lambda average: average.id is None,
        ),
        companies=[
            Average(
                id=row["company_id"],
                name=row["company__name"],
                average=_average(row["average"]),
                count=row["count"],
            )
            for row in by_company
        ],
    )


def company_ratings_by_month(*, company_id: int, since: datetime) -> list[dict[str, Any]]:
    """A company's ratings since `since` by calendar month (UTC): month, average, count."""
    rows: Any = (
        Rating.objects.filter(company_id=company_id, created_at__gte=since)
        .annotate(month=TruncMonth("created_at", tzinfo=UTC))
        .values("month")
        .annotate(average=Avg("score"), count=Count("id"))
        .order_by("month")
    )
    return list(rows)
