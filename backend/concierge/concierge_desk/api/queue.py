"""The desk's queue: every company's requests, filtered, searched and paged, with the tab
counts."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

import orjson
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from ninja import Query, Schema
from pydantic import Field

from concierge.concierge_desk import selectors
from concierge.concierge_desk.api.access import ERRORS, concierge_of, desk_router
from concierge.concierge_desk.schemas import (
    QueueOut,
)
from concierge.service_levels.selectors import sla_state
from concierge.servicerequests import selectors as request_selectors
from concierge.servicerequests.choices import RequestStatus

if TYPE_CHECKING:
    from concierge.servicerequests.selectors import QueueRow

router = desk_router()


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
    page = request_selectors.request_queue(
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
    now = timezone.now()
    body = {
        "requests": [_queue_item_data(row, now) for row in page.rows],
        "counts": page.counts,
        "count_limit": request_selectors.QUEUE_COUNT_LIMIT,
        "counts_capped": page.capped,
        "next_cursor": page.next_cursor,
    }
    return HttpResponse(orjson.dumps(body), content_type="application/json")


def _queue_item_data(row: QueueRow, now: datetime) -> dict[str, Any]:
    """QueueItemOut's fields as plain JSON values: the queue is the desk's most read answer,
    so it skips per-attribute schema validation (its shape is QueueItemOut, which the OpenAPI
    document declares and the tests check)."""
    company = row.company
    source = row.last_message_source
    return {
        "id": row.id,
        "name": row.name,
        "status": row.status,
        "company": {"id": company[0], "name": company[1]} if company else None,
        "employee": {
            "full_name": _full_name(row.employee_first_name, row.employee_last_name),
            "email": row.employee_email,
        },
        "survey_category_name": row.category_name,
        "survey_category_icon": row.category_icon,
        "issued_at": _api_time(row.issued_at_utc),
        "last_message": None
        if source is None
        else {
            "body_text": selectors.excerpt_from_html(row.last_message_start),
            "source": source,
            "source_name": row.last_message_source_name,
            "created_at": _api_time(row.last_message_at_utc),
        },
        "waiting_on": request_selectors.waiting_on_source(source),
        "assignee": None
        if row.assignee_id is None
        else {
            "id": row.assignee_id,
            "full_name": _full_name(row.assignee_first_name, row.assignee_last_name),
        },
        "sla": None if row.clock_id is None else _sla_badge(row, now),
    }


def _full_name(first_name: str | None, last_name: str | None) -> str:
    """User.full_name from the two names."""
    if first_name and last_name:
        return f"{first_name} {last_name}"
    return first_name or last_name or ""


def _api_time(utc_text: str | None) -> str | None:
    """'YYYY-MM-DDTHH:MM:SS[.ffffff]Z' as the API writes times everywhere (DjangoJSONEncoder:
    milliseconds, none when the time has no fraction)."""
    if utc_text is None:
        return None
    if len(utc_text) > 20 and utc_text[20:26] != "000000":
        return utc_text[:23] + "Z"
    return utc_text[:19] + "Z"


def _sla_badge(row: QueueRow, now: datetime) -> dict[str, Any]:
    due_at = row.due_at_utc
    state, target = sla_state(
        completed=row.clock_completed,
        running=row.clock_running,
        responded=row.clock_responded,
        due_at=datetime.fromisoformat(due_at) if due_at else None,
        now=now,
    )
    return {"state": state, "due_at": _api_time(due_at) if target else None, "target": target}
