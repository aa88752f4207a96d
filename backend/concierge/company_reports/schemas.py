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


class CategoryOut(Schema):
    name: str
    count: int | None = Field(description="Null when fewer than 5 (see `display`).")
    display: str = Field(description="The count, or '< 5'.")


class MonthOut(Schema):
    month: str = Field(description="YYYY-MM (UTC).")
    requests_created: int
    requests_completed: int
    median_first_response_hours: float | None
    median_completion_hours: float | None
    csat_average: float | None
    csat_count: int
    employees: int
    employees_using: int
    usage_share: float | None = Field(description="Share of employees who made a request.")
    top_categories: list[CategoryOut]


class CompanyReportOut(Schema):
    company: CompanyRefOut
    months: list[MonthOut] = Field(description="Oldest first.")


class ReportQuery(Schema):
    company: int | None = Field(None, ge=1, le=2**63 - 1)
    months: int = Field(12, ge=1, le=24)
