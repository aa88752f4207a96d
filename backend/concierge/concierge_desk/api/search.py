"""The desk's full-text search across all time."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.http import HttpRequest
from ninja import Query, Schema
from pydantic import Field

from concierge.concierge_desk.api.access import ERRORS, desk_router, person_ref
from concierge.concierge_desk.schemas import (
    CompanyRef,
    EmployeeRef,
    SearchOut,
    SearchResultOut,
)
from concierge.concierge_desk.search import RESULTS_DEFAULT, RESULTS_MAX, request_search
from concierge.servicerequests import selectors as request_selectors
from concierge.servicerequests.choices import RequestStatus

if TYPE_CHECKING:
    pass

router = desk_router()


class SearchQuery(Schema):
    q: str = Field(..., min_length=1, max_length=200, description="Words to find.")
    limit: int = Field(RESULTS_DEFAULT, ge=1, le=RESULTS_MAX)


@router.get("/concierge/search", response={200: SearchOut, **ERRORS})
def search(request: HttpRequest, query: Query[SearchQuery]):
    """Full-text search across all time: request names, survey answers, messages and internal
    notes. Every word must match (a word's beginning is enough: 'walk' finds 'walkers');
    best first, each with its best match highlighted. A fixed number of SQL queries."""
    hits = request_search(q=query.q, limit=query.limit)
    requests = request_selectors.requests_for_desk_by_ids(request_ids=[h.request_id for h in hits])
    results = []
    for hit in hits:
        service_request = requests.get(hit.request_id)
        if service_request is None:
            continue
        employee = service_request.user
        companies = list(employee.companies.all())
        results.append(
            SearchResultOut(
                id=service_request.pk,
                name=service_request.name,
                status=RequestStatus(service_request.status),
                company=CompanyRef(id=companies[0].pk, name=companies[0].name)
                if companies
                else None,
                employee=EmployeeRef(
                    id=employee.pk, full_name=employee.full_name, email=employee.email
                ),
                issued_at=service_request.issued_at,
                assignee=person_ref(service_request.assignee),
                match=hit.kind,  # type: ignore[arg-type]
                snippet_html=hit.snippet_html,
                rank=round(hit.rank, 6),
            )
        )
    return SearchOut(query=query.q, results=results)
