"""The company admin's report (/company in the SPA): aggregates only, for their company."""

from __future__ import annotations

import csv
import io

from django.http import HttpRequest, HttpResponse
from ninja import Query, Router

from concierge.accounts.auth import request_auth_token
from concierge.common.schemas import ErrorOut
from concierge.company_reports import selectors, services
from concierge.company_reports.schemas import (
    CategoryOut,
    CompanyAccessOut,
    CompanyRefOut,
    CompanyReportOut,
    MonthOut,
    ReportQuery,
)

router = Router(tags=["company report"])
ERRORS = {401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 422: ErrorOut}


@router.get("/company/access", response={200: CompanyAccessOut, 401: ErrorOut})
def company_access(request: HttpRequest):
    """The companies whose report the signed-in person may see (empty for everyone else)."""
    companies = selectors.company_admin_companies(user=request_auth_token(request).user)
    return CompanyAccessOut(companies=[CompanyRefOut(id=c.pk, name=c.name) for c in companies])


def _report(request: HttpRequest, query: ReportQuery, *, exported: bool) -> CompanyReportOut:
    user = request_auth_token(request).user
    company = selectors.company_for_admin(user=user, company_id=query.company)
    services.report_access_record(
        user=user, company=company, exported=exported, months=query.months
    )
    months = selectors.company_report(company=company, months=query.months)
    return CompanyReportOut(
        company=CompanyRefOut(id=company.pk, name=company.name),
        months=[
            MonthOut(
                month=m.month,
                requests_created=m.requests_created,
                requests_completed=m.requests_completed,
                median_first_response_hours=m.median_first_response_hours,
                median_completion_hours=m.median_completion_hours,
                csat_average=m.csat_average,
                csat_count=m.csat_count,
                employees=m.employees,
                employees_using=m.employees_using,
                usage_share=m.usage_share,
                top_categories=[CategoryOut(name=c.name, count=c.count) for c in m.top_categories],
            )
            for m in months
        ],
    )


@router.get("/company/report", response={200: CompanyReportOut, **ERRORS})
def company_report(request: HttpRequest, query: Query[ReportQuery]):
    """My company's figures by month, oldest first: requests created and completed, median
    hours to the first reply and to completion, the satisfaction average and count, the top
    categories, and the share of employees who used the service. Aggregates only: no request
    names, answers or messages. To protect privacy, a figure about fewer than 5 people,
    requests or ratings is null (withheld), as is one from which it could be worked out;
    categories with fewer than 5 requests are not listed. Company admins only (403
    otherwise)."""
    return _report(request, query, exported=False)


CSV_COLUMNS = [
    "month",
    "requests_created",
    "requests_completed",
    "median_first_response_hours",
    "median_completion_hours",
    "csat_average",
    "csat_count",
    "employees",
    "employees_using",
    "usage_share",
    "top_categories",
]


def _cell(value: object) -> str:
    text = "" if value is None else str(value)
    # A spreadsheet must not run a cell as a formula.
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


@router.get(
    "/company/report.csv",
    response={200: str, **ERRORS},
    openapi_extra={"responses": {200: {"content": {"text/csv": {}}}}},
)
def company_report_csv(request: HttpRequest, query: Query[ReportQuery]):
    """The same report as CSV (one row per month; categories as 'name: count; ...'). A
    withheld figure is an empty cell."""
    report = _report(request, query, exported=True)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for month in report.months:
        row = month.model_dump()
        row["top_categories"] = "; ".join(f"{c.name}: {c.count}" for c in month.top_categories)
        writer.writerow([_cell(row[column]) for column in CSV_COLUMNS])
    response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
    slug = "".join(ch if ch.isalnum() else "-" for ch in report.company.name.lower())
    response["Content-Disposition"] = f'attachment; filename="{slug}-report.csv"'
    return response
