"""The company report: per month, aggregates only. Small numbers are suppressed: a category
with fewer than SMALL_NUMBER requests in a month is reported as '< 5', never its count, and
the report never carries a request's name, answers or messages."""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
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

SMALL_NUMBER = 5
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
    count: int | None  # None: fewer than SMALL_NUMBER (shown '< 5')

    @property
    def display(self) -> str:
        return str(self.count) if self.count is not None else f"< {SMALL_NUMBER}"


@dataclass
class MonthFigures:
    month: str  # 'YYYY-MM'
    requests_created: int = 0
    requests_completed: int = 0
    median_first_response_hours: float | None = None
    median_completion_hours: float | None = None
    csat_average: float | None = None
    csat_count: int = 0
    employees: int = 0
    employees_using: int = 0
    top_categories: list[CategoryCount] = field(default_factory=list)

    @property
    def usage_share(self) -> float | None:
        return round(self.employees_using / self.employees, 4) if self.employees else None


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


def _hours(seconds: list[float]) -> float | None:
    return round(statistics.median(seconds) / 3600, 1) if seconds else None


def company_report(*, company: Company, months: int = 12) -> list[MonthFigures]:
    """The company's figures for the last `months` calendar months (UTC), oldest first: a
    fixed number of queries whatever the number of requests."""
    months = max(1, min(months, MONTHS_MAX))
    keys = _months(months, timezone.now())
    start = datetime.fromisoformat(f"{keys[0]}-01").replace(tzinfo=UTC)
    figures = {key: MonthFigures(month=key) for key in keys}
    members = company.members.count()  # type: ignore[attr-defined]
    for month in figures.values():
        month.employees = members

    created = company_requests_created(company_id=company.pk, since=start)
    first_response: dict[str, list[float]] = defaultdict(list)
    users: dict[str, set[int]] = defaultdict(set)
    categories: dict[str, Counter[str]] = defaultdict(Counter)
    for row in created:
        key = _key(row["issued_at"])
        if key not in figures:
            continue
        figures[key].requests_created += 1
        users[key].add(row["user_id"])
        categories[key][row["survey_category__name"] or "Other"] += 1
        if row["first_response_at"] is not None:
            first_response[key].append(
                (row["first_response_at"] - row["issued_at"]).total_seconds()
            )
    completion: dict[str, list[float]] = defaultdict(list)
    for row in company_requests_completed(company_id=company.pk, since=start):
        key = _key(row["completed_at"])
        if key in figures:
            figures[key].requests_completed += 1
            completion[key].append((row["completed_at"] - row["issued_at"]).total_seconds())
    for row in company_ratings_by_month(company_id=company.pk, since=start):
        key = _key(row["month"])
        if key in figures:
            figures[key].csat_average = round(float(row["average"]), 2)
            figures[key].csat_count = row["count"]
    for key, month in figures.items():
        month.median_first_response_hours = _hours(first_response[key])
        month.median_completion_hours = _hours(completion[key])
        month.employees_using = len(users[key])
        month.top_categories = [
            CategoryCount(name=name, count=count if count >= SMALL_NUMBER else None)
            for name, count in categories[key].most_common(TOP_CATEGORIES)
        ]
    return list(figures.values())
