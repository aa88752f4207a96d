"""The desk's queue: every company's requests, filtered, searched and paged, with the tab
counts."""

from __future__ import annotations

import orjson
from django.http import HttpRequest, HttpResponse
from ninja import Query, Schema
from pydantic import Field

from concierge.common.errors import ValidationFailed
from concierge.common.validation import is_database_id
from concierge.concierge_desk.api.access import ERRORS, concierge_of, desk_router
from concierge.concierge_desk.queue_view import desk_queue_view
from concierge.concierge_desk.schemas import QueueOut
from concierge.servicerequests import selectors as request_selectors
from concierge.servicerequests.choices import RequestStatus

router = desk_router()

COMPANY_INVALID = "Choose a company from the list."


class QueueFilters(Schema):
    status: RequestStatus | None = Field(
        None, description="open, in_progress or closed; all statuses when absent."
    )
    company: int | None = Field(None, ge=1, description="Only employees of this company.")
    assignee: str | None = Field(
        None, max_length=20, description="'mine', 'unassigned' or a concierge's user id."
    )
    q: str = Field(
        "",
        max_length=200,
        description="Search: employee name or email, request name, message text, or #id.",
    )
    order: str = Field(
        "due",
        pattern="^(due|oldest|newest)$",
        description="'due': the soonest reply-time deadline first (requests without a running "
        "clock after, oldest first); 'oldest' or 'newest': by issue time.",
    )
    due: str | None = Field(
        None,
        pattern="^(overdue|soon)$",
        description="'overdue': past the deadline; 'soon': due within the hour.",
    )
    cursor: str | None = Field(
        None, max_length=200, description="A page's `next_cursor`: the page after it."
    )
    limit: int = Field(
        request_selectors.QUEUE_LIMIT_DEFAULT, ge=1, le=request_selectors.QUEUE_LIMIT_MAX
    )


@router.get("/concierge/requests", response={200: QueueOut, **ERRORS})
def queue(request: HttpRequest, filters: Query[QueueFilters]):
    """The shared queue of every company's requests, due soonest first by default, a page of
    `limit` rows at a time (`next_cursor`), with the count of each status under the same
    filters (for the In Queue / In Progress / Completed tabs), up to `count_limit`.
    A fixed number of SQL queries whatever the number of requests."""
    # No company has an id past a bigint's, and the database refuses one (a 500).
    if filters.company is not None and not is_database_id(filters.company):
        raise ValidationFailed.for_field("company", COMPANY_INVALID)
    view = desk_queue_view(
        concierge=concierge_of(request),
        status=filters.status,
        company_id=filters.company,
        assignee=filters.assignee,
        q=filters.q,
        order=filters.order,
        due=filters.due,
        cursor=filters.cursor,
        limit=filters.limit,
    )
    # orjson writes a dataclass as an object of its fields.
    return HttpResponse(orjson.dumps(view), content_type="application/json")
