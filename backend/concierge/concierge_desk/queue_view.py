"""The desk queue's answer: a page of the shared queue composed into what the queue screen
shows, as plain JSON values shaped like `QueueOut`.

The queue is the desk's most read answer, so its rows skip per-attribute schema validation:
`QueueOut` declares the shape in the OpenAPI document and the tests check the answer
against it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Literal, TypedDict

from django.utils import timezone

from concierge.concierge_desk.selectors import excerpt_from_html
from concierge.service_levels.selectors import sla_state
from concierge.servicerequests import selectors as request_selectors

if TYPE_CHECKING:
    from concierge.accounts.models import User
    from concierge.servicerequests.selectors import QueueRow


class _Ref(TypedDict):
    id: int
    name: str


class _Employee(TypedDict):
    full_name: str
    email: str


class _Assignee(TypedDict):
    id: int
    full_name: str


class _LastMessage(TypedDict):
    body_text: str
    source: str
    source_name: str | None
    created_at: str | None


class _SlaBadge(TypedDict):
    state: str
    due_at: str | None
    target: str | None


class QueueItemData(TypedDict):
    """QueueItemOut's fields."""

    id: int
    name: str
    status: str
    company: _Ref | None
    employee: _Employee
    survey_category_name: str | None
    survey_category_icon: str | None
    issued_at: str | None
    last_message: _LastMessage | None
    waiting_on: Literal["concierge", "employee"]
    assignee: _Assignee | None
    sla: _SlaBadge | None


@dataclass(frozen=True)
class DeskQueueView:
    """QueueOut's fields: a page of rows, the tab counts, and the cursor of the next page."""

    requests: list[QueueItemData]
    counts: dict[str, int]
    count_limit: int
    counts_capped: list[str]
    next_cursor: str | None


def desk_queue_view(
    *,
    concierge: User,
    status: str | None,
    company_id: int | None,
    assignee: str | None,
    q: str,
    order: str,
    due: str | None,
    cursor: str | None,
    limit: int,
) -> DeskQueueView:
    """The queue screen's page under these filters (`request_selectors.request_queue`)."""
    page = request_selectors.request_queue(
        concierge=concierge,
        status=status,
        company_id=company_id,
        assignee=assignee,
        q=q,
        order=order,
        due=due,
        cursor=cursor,
        limit=limit,
    )
    now = timezone.now()
    return DeskQueueView(
        requests=[_queue_item(row, now) for row in page.rows],
        counts=page.counts,
        count_limit=request_selectors.QUEUE_COUNT_LIMIT,
        counts_capped=page.capped,
        next_cursor=page.next_cursor,
    )


def _queue_item(row: QueueRow, now: datetime) -> QueueItemData:
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
            "body_text": excerpt_from_html(row.last_message_start or ""),
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


def _sla_badge(row: QueueRow, now: datetime) -> _SlaBadge:
    due_at = row.due_at_utc
    state, target = sla_state(
        completed=row.clock_completed,
        running=row.clock_running,
        responded=row.clock_responded,
        due_at=datetime.fromisoformat(due_at) if due_at else None,
        now=now,
    )
    return {"state": state, "due_at": _api_time(due_at) if target else None, "target": target}
