"""Request and message reads. Each runs a fixed number of queries whatever the list length.

The desk (one shared desk: every concierge works every company's requests) reads through
the `request_queue` and `request_*_for_desk` selectors at the end.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from html import escape
from typing import TYPE_CHECKING, Any, Literal

from django.db.models import Count, Exists, F, Min, OuterRef, Prefetch, Q, QuerySet, Subquery
from django.utils import timezone

from concierge.accounts.selectors import companies_prefetch, user_is_concierge
from concierge.common.errors import NotFound, ValidationFailed
from concierge.servicerequests.models import Message, MessageAttachment, ServiceRequest

if TYPE_CHECKING:
    from concierge.accounts.models import Company, User

# The list endpoints by path segment (spec §7): /requests/open, /in_progress, /completed.
LIST_STATUSES = {
    "open": ServiceRequest.Status.OPEN,
    "in_progress": ServiceRequest.Status.IN_PROGRESS,
    "completed": ServiceRequest.Status.CLOSED,
}


def _with_category() -> QuerySet[ServiceRequest]:
    return ServiceRequest.objects.select_related("survey_category", "reply_clock")


def request_list_for_user(*, user: User, status: str) -> list[ServiceRequest]:
    """`user`'s requests with this status, newest first (one query)."""
    return list(_with_category().filter(user=user, status=status).order_by("-issued_at", "-id"))


def request_get_for_user(
    *, user: User, request_id: int, allow_concierge: bool = False
) -> ServiceRequest:
    """`user`'s own request, else NotFound (another person's request is a 404 too). With
    `allow_concierge`, a concierge gets any request (the desk works every request)."""
    requests = _with_category().filter(pk=request_id)
    if not (allow_concierge and user_is_concierge(user=user)):
        requests = requests.filter(user=user)
    service_request = requests.first()
    if service_request is None:
        raise NotFound()
    return service_request


def request_attachable(user: User, request_id: int) -> bool:
    """Whether `user` may attach files to the request: their own; any request for a concierge."""
    try:
        request_get_for_user(user=user, request_id=request_id, allow_concierge=True)
    except NotFound:
        return False
    return True


THREAD_PAGE_SIZE = 50
THREAD_PAGE_MAX = 200
CURSOR_UNKNOWN = "That cursor is not a message of this thread."


@dataclass
class ThreadPage:
    """A page of a thread, oldest first, and the cursor for the messages before it (None
    when the thread starts here)."""

    messages: list[Message]
    older_cursor: str | None


def thread_page(
    *, request_id: int, before: str | None = None, limit: int = THREAD_PAGE_SIZE
) -> ThreadPage:
    """The newest `limit` messages of the thread (those before the cursor's message when
    `before` is given) with their attachments: two queries, three with a cursor. The cursor is
    a message id; messages are ordered by (external_created_at, id)."""
    messages = Message.objects.filter(request_id=request_id)
    if before is not None:
        before_id = int(before)
        cursor_at = messages.filter(pk=before_id).values_list("external_created_at", flat=True)
        created_at = cursor_at.first()
        if created_at is None:
            raise ValidationFailed.for_field("before", CURSOR_UNKNOWN)
        messages = messages.filter(
            Q(external_created_at__lt=created_at)
            | Q(external_created_at=created_at, pk__lt=before_id)
        )
    limit = max(1, min(limit, THREAD_PAGE_MAX))
    newest_first = list(
        messages.order_by("-external_created_at", "-id").prefetch_related(_attachments_prefetch())[
            : limit + 1
        ]
    )
    page = newest_first[:limit][::-1]
    has_older = len(newest_first) > limit
    return ThreadPage(messages=page, older_cursor=str(page[0].pk) if has_older else None)


def _attachments_prefetch() -> Prefetch:
    return Prefetch(
        "attachment_links",
        queryset=MessageAttachment.objects.select_related("upload").order_by("position", "id"),
    )


def message_attachments(*, message: Message) -> list[MessageAttachment]:
    """The prefetched attachment links of a message, in order."""
    return list(message.attachment_links.all())


# --------------------------------------------------------------------------- the desk

MAX_ID = 2**63 - 1
QUEUE_LIMIT_DEFAULT = 200
QUEUE_LIMIT_MAX = 500
SEARCH_TERMS_MAX = 6
STATUSES = tuple(ServiceRequest.Status.values)
ASSIGNEE_INVALID = "Choose 'mine', 'unassigned' or a concierge's id."
DUE_SOON = timedelta(hours=1)
REQUEST_NOT_FOUND = "We couldn't find that request."


def _ascii_digits(value: str) -> bool:
    """0-9 only: str.isdigit() also accepts '²' and '①', which int() refuses."""
    return value.isascii() and value.isdigit()


def _valid_id(value: int) -> bool:
    return 0 < value <= MAX_ID


def waiting_on(last_message: Message | None) -> Literal["concierge", "employee"]:
    """Who has to act next: the concierge when the employee wrote last (or nobody has yet)."""
    if last_message is None or last_message.source == Message.Source.USER:
        return "concierge"
    return "employee"


@dataclass
class Queue:
    requests: Sequence[ServiceRequest]
    counts: dict[str, int]
    last_messages: dict[int, Message] = field(default_factory=dict)
    company_id: int | None = None

    def last_message(self, service_request: ServiceRequest) -> Message | None:
        message_id = getattr(service_request, "last_message_id", None)
        return self.last_messages.get(message_id) if message_id else None

    def company(self, service_request: ServiceRequest) -> Company | None:
        """The employee's company to show: the filtered one, else their first by name."""
        companies = list(service_request.user.companies.all())
        if self.company_id is not None:
            chosen = next((c for c in companies if c.pk == self.company_id), None)
            if chosen is not None:
                return chosen
        return companies[0] if companies else None


def _search(requests: QuerySet[ServiceRequest], q: str) -> QuerySet[ServiceRequest]:
    """Every word must match the employee's name or email, the request's name, or the text
    of one of its messages; '#42' or '42' also finds request 42."""
    for term in q.split()[:SEARCH_TERMS_MAX]:
        term = term[:100]
        in_messages = Exists(
            Message.objects.filter(
                request_id=OuterRef("pk"), body_html__icontains=escape(term, quote=False)
            )
        )
        match = (
            Q(user__first_name__icontains=term)
            | Q(user__last_name__icontains=term)
            | Q(user__email__icontains=term)
            | Q(name__icontains=term)
            | Q(in_messages)
        )
        number = term.lstrip("#")
        if _ascii_digits(number) and _valid_id(int(number)):
            match |= Q(pk=int(number))
        requests = requests.filter(match)
    return requests


def request_queue(
    *,
    concierge: User,
    status: str | None = None,
    company_id: int | None = None,
    assignee: str | None = None,
    q: str = "",
    order: str = "due",
    due: str | None = None,
    limit: int = QUEUE_LIMIT_DEFAULT,
) -> Queue:
    """The desk's queue: requests of every company (one shared desk), filtered and searched,
    due soonest first by default (the reply-time clock's next deadline; requests whose clock
    is paused or stopped follow, oldest first), with per-status counts under the same filters.
    `due`: 'overdue' (deadline passed) or 'soon' (deadline within the hour, not passed).

    Four queries whatever the number of requests: counts, requests (with employee, category
    and assignee), the employees' companies, and the last message of each request.
    """
    requests = ServiceRequest.objects.all()
    if company_id is not None:
        requests = requests.filter(user__companies__id=company_id)
    if assignee:
        if assignee == "mine":
            requests = requests.filter(assignee=concierge)
        elif assignee == "unassigned":
            requests = requests.filter(assignee__isnull=True)
        elif _ascii_digits(assignee) and _valid_id(int(assignee)):
            requests = requests.filter(assignee_id=int(assignee))
        else:
            raise ValidationFailed.for_field("assignee", ASSIGNEE_INVALID)
    if q.strip():
        requests = _search(requests, q)
    if due is not None:
        now = timezone.now()
        if due == "overdue":
            requests = requests.filter(reply_clock__due_at__lte=now)
        else:
            requests = requests.filter(
                reply_clock__due_at__gt=now, reply_clock__due_at__lte=now + DUE_SOON
            )

    counts = dict.fromkeys(STATUSES, 0)
    for row in requests.order_by().values("status").annotate(n=Count("id")):
        counts[row["status"]] = row["n"]

    if status is not None:
        requests = requests.filter(status=status)
    last_message_id = Subquery(
        Message.objects.filter(request_id=OuterRef("pk"))
        .order_by("-external_created_at", "-id")
        .values("id")[:1]
    )
    ordering: tuple = {
        "newest": ("-issued_at", "-id"),
        "oldest": ("issued_at", "id"),
    }.get(order, (F("reply_clock__due_at").asc(nulls_last=True), "issued_at", "id"))
    page = list(
        requests.select_related("user", "survey_category", "assignee", "reply_clock")
        .prefetch_related(companies_prefetch(path="user__companies"))
        .annotate(last_message_id=last_message_id)
        .order_by(*ordering)[: max(1, min(limit, QUEUE_LIMIT_MAX))]
    )
    message_ids = [r.last_message_id for r in page if r.last_message_id]  # type: ignore[attr-defined]
    last_messages = Message.objects.in_bulk(message_ids) if message_ids else {}
    return Queue(requests=page, counts=counts, last_messages=last_messages, company_id=company_id)


def request_get_for_desk(*, request_id: int) -> ServiceRequest:
    """Any request (one shared desk), else NotFound."""
    if not _valid_id(request_id):
        raise NotFound(REQUEST_NOT_FOUND)
    service_request = (
        ServiceRequest.objects.select_related("user", "survey_category", "assignee")
        .filter(pk=request_id)
        .first()
    )
    if service_request is None:
        raise NotFound(REQUEST_NOT_FOUND)
    return service_request


def request_with_employee_for_desk(*, request_id: int) -> ServiceRequest:
    """Any request with the employee's companies (two queries); its thread is read by pages
    (`thread_page`)."""
    if not _valid_id(request_id):
        raise NotFound(REQUEST_NOT_FOUND)
    service_request = (
        ServiceRequest.objects.select_related("user", "survey_category", "assignee")
        .prefetch_related(companies_prefetch(path="user__companies"))
        .filter(pk=request_id)
        .first()
    )
    if service_request is None:
        raise NotFound(REQUEST_NOT_FOUND)
    return service_request


def requests_for_desk_by_ids(*, request_ids: Sequence[int]) -> dict[int, ServiceRequest]:
    """Requests by id with their employee, the employee's companies and the assignee (two
    queries), for the desk's search results."""
    requests = (
        ServiceRequest.objects.select_related("user", "assignee")
        .prefetch_related(companies_prefetch(path="user__companies"))
        .filter(pk__in=list(request_ids))
    )
    return {r.pk: r for r in requests}


# --------------------------------------------------------------------------- company reports


def company_requests_created(*, company_id: int, since: datetime) -> list[dict[str, Any]]:
    """Aggregation rows (no names, no texts) of the requests a company's employees made since
    `since`: id, employee id, issue time, the first concierge reply's time, category name.
    One query."""
    rows: Any = (
        ServiceRequest.objects.filter(user__companies__id=company_id, issued_at__gte=since)
        .annotate(
            first_response_at=Min(
                "messages__external_created_at",
                filter=~Q(messages__source=Message.Source.USER),
            )
        )
        .values("id", "user_id", "issued_at", "first_response_at", "survey_category__name")
    )
    return list(rows)


def company_requests_completed(*, company_id: int, since: datetime) -> list[dict[str, Any]]:
    """Issue and completion times of a company's requests completed since `since`."""
    rows: Any = ServiceRequest.objects.filter(
        user__companies__id=company_id, completed_at__gte=since
    ).values("issued_at", "completed_at")
    return list(rows)
