from __future__ import annotations

from ninja import Schema
from pydantic import Field


class CompanyRefOut(Schema):
    id: int
    name: str


class CompanyAccessOut(Schema):
    companies: list[CompanyRefOut] = Field(
        description="The companies whose report I may see (empty: not a company admin)."
    )


WITHHELD = "Null when withheld: about fewer than 5 people, requests or ratings."


class CategoryOut(Schema):
    name: str
    count: int = Field(description="5 or more: smaller categories are not listed.")


class MonthOut(Schema):
    """One month's figures. Null means withheld to protect privacy (fewer than 5, zero
    included, or a figure from which such a number could be worked out): it is never sent."""

    month: str = Field(description="YYYY-MM (UTC).")
    requests_created: int | None = Field(description=WITHHELD)
    requests_completed: int | None = Field(description=WITHHELD)
    median_first_response_hours: float | None = Field(
        description="Null when of fewer than 5 requests."
    )
    median_completion_hours: float | None = Field(description="Null when of fewer than 5 requests.")
    csat_average: float | None = Field(description="Null when of fewer than 5 ratings.")
    csat_count: int | None = Field(description=WITHHELD)
    employees: int | None = Field(description=WITHHELD)
    employees_using: int | None = Field(
        description="Null when fewer than 5 employees used the service, or fewer than 5 did not."
    )
    usage_share: float | None = Field(
        description="Share of employees who made a request; null when `employees_using` is."
    )
    top_categories: list[CategoryOut] = Field(
        description="Up to 5 categories with 5 or more requests, most requested first."
    )


class CompanyReportOut(Schema):
    company: CompanyRefOut
    months: list[MonthOut] = Field(description="Oldest first.")


class ReportQuery(Schema):
    company: int | None = Field(None, ge=1, le=2**63 - 1)
    months: int = Field(12, ge=1, le=24)
