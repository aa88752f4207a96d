"""The company report: per month, aggregates only, never a request's name, answers or
messages. Small numbers are withheld here, on the server, so they never reach a browser or a
CSV: every figure about fewer than SMALL_NUMBER people, requests or ratings is None (the screen
shows "fewer than 5", the CSV an empty cell). See `_published` for the rules,
including the ones that stop a withheld figure being worked out from those shown."""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from django.utils import timezone

from concierge.common.errors import NotFound, PermissionDenied
from concierge.company_reports.models import CompanyAdmin
from concierge.satisfaction.selectors import company_ratings_by_month
from concierge.servicerequests.selectors import (
    company_requests_completed,
    company_requests_created,
)

if TYPE_CHECKING:
    from concierge.accounts.models import Company, User

SMALL_NUMBER = 5  # the one privacy threshold of the report: fewer is never shown
MONTHS_MAX = 24
TOP_CATEGORIES = 5
NOT_A_COMPANY_ADMIN = "This report is for your company's admins only."


def company_admin_companies(*, user: User) -> list[Company]:
    """The companies `user` is an admin of (and still a member of), by name."""
    roles = CompanyAdmin.objects.filter(user=user, company__members=user).select_related("company")
    return sorted((role.company for role in roles), key=lambda c: c.name)


def company_for_admin(*, user: User, company_id: int | None = None) -> Company:
    companies = company_admin_companies(user=user)
    if not companies:
        raise PermissionDenied(NOT_A_COMPANY_ADMIN)
    if company_id is None:
        return companies[0]
    company = next((c for c in companies if c.pk == company_id), None)
    if company is None:
        raise NotFound("We couldn't find that company.")
    return company


@dataclass
class CategoryCount:
    name: str
    count: int  # at least SMALL_NUMBER: smaller categories are not listed at all


@dataclass
class MonthFigures:
    """One month's figures as published: None where withheld (see `_published`)."""

    month: str  # 'YYYY-MM'
    requests_created: int | None
    requests_completed: int | None
    median_first_response_hours: float | None
    median_completion_hours: float | None
    csat_average: float | None
    csat_count: int | None
    employees: int | None
    employees_using: int | None
    top_categories: list[CategoryCount]

    @property
    def usage_share(self) -> float | None:
        if self.employees_using is None or not self.employees:
            return None
        return round(self.employees_using / self.employees, 4)


@dataclass
class _Month:
    """One month's exact figures, before anything is withheld: never leaves this module."""

    month: str
    requests_created: int = 0
    requests_completed: int = 0
    first_response_seconds: list[float] = field(default_factory=list)
    completion_seconds: list[float] = field(default_factory=list)
    rating_average: float | None = None
    ratings: int = 0
    employees: int = 0
    employees_using: set[int] = field(default_factory=set)
    categories: Counter[str] = field(default_factory=Counter)


def shown(count: int) -> int | None:
    """`count` if at least SMALL_NUMBER, else None (withheld)."""
    return count if count >= SMALL_NUMBER else None


def _median_hours(seconds: list[float]) -> float | None:
    """The median in hours, withheld when of fewer than SMALL_NUMBER requests (the median of
    one request is that request's own time)."""
    if len(seconds) < SMALL_NUMBER:
        return None
    return round(statistics.median(seconds) / 3600, 1)


def _published(month: _Month) -> MonthFigures:
    """The month with every figure about fewer than SMALL_NUMBER people, requests or ratings
    withheld (None), zero included so that "none" and "a few" look the same, and every figure
    from which one of those could be worked out:

    - an average or a median of fewer than SMALL_NUMBER values (one rating's average is that
      person's score);
    - usage, when fewer than SMALL_NUMBER employees used the service *or did not*: with the
      headcount shown, those who did not are the headcount minus those who did, so "6 of 6"
      would say that each employee used it;
    - a category with fewer than SMALL_NUMBER requests is left out of the list, not listed as
      "< 5": with the month's total shown, one hidden count would be the total minus the others
      (8 requests, Pet 6, so Home 2), and several can be pinned down by their bounds (8
      requests, Pet 6, two more categories: 1 each). Only categories of SMALL_NUMBER or more
      are named, so what the total leaves over has no name to attach it to.
    """
    using = len(month.employees_using)
    hidden_usage = using < SMALL_NUMBER or month.employees - using < SMALL_NUMBER
    average = month.rating_average if month.ratings >= SMALL_NUMBER else None
    return MonthFigures(
        month=month.month,
        requests_created=shown(month.requests_created),
        requests_completed=shown(month.requests_completed),
        median_first_response_hours=_median_hours(month.first_response_seconds),
        median_completion_hours=_median_hours(month.completion_seconds),
        csat_average=None if average is None else round(average, 2),
        csat_count=shown(month.ratings),
        employees=shown(month.employees),
        employees_using=None if hidden_usage else using,
        top_categories=[
            CategoryCount(name=name, count=count)
            for name, count in month.categories.most_common(TOP_CATEGORIES)
            if count >= SMALL_NUMBER
        ],
    )


def _months(count: int, now: datetime) -> list[str]:
    year, month = now.year, now.month
    keys = []
    for _ in range(count):
        keys.append(f"{year:04d}-{month:02d}")
        month -= 1
        if month == 0:
            year, month = year - 1, 12
    return keys[::-1]


def _key(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m")


def company_report(*, company: Company, months: int = 12) -> list[MonthFigures]:
    """The company's figures for the last `months` calendar months (UTC), oldest first, small
    numbers withheld: a fixed number of queries whatever the number of requests."""
    months = max(1, min(months, MONTHS_MAX))
    keys = _months(months, timezone.now())
    start = datetime.fromisoformat(f"{keys[0]}-01").replace(tzinfo=UTC)
    members = company.members.count()  # type: ignore[attr-defined]
    figures = {key: _Month(month=key, employees=members) for key in keys}

    for row in company_requests_created(company_id=company.pk, since=start):
        month = figures.get(_key(row["issued_at"]))
        if month is None:
            continue
        month.requests_created += 1
        month.employees_using.add(row["user_id"])
        month.categories[row["survey_category__name"] or "Other"] += 1
        if row["first_response_at"] is not None:
            month.first_response_seconds.append(
                (row["first_response_at"] - row["issued_at"]).total_seconds()
            )
    for row in company_requests_completed(company_id=company.pk, since=start):
        month = figures.get(_key(row["completed_at"]))
        if month is not None:
            month.requests_completed += 1
            month.completion_seconds.append(
                (row["completed_at"] - row["issued_at"]).total_seconds()
            )
    for row in company_ratings_by_month(company_id=company.pk, since=start):
        month = figures.get(_key(row["month"]))
        if month is not None:
            month.rating_average = float(row["average"])
            month.ratings = row["count"]
    return [_published(month) for month in figures.values()]
