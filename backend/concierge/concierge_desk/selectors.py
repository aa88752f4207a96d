"""Desk reads: the queue, one request with everything a concierge needs, presence.

Decision (issue #5): ONE SHARED DESK. Every concierge sees and works every company's
requests; there is no assignment of concierges to companies. A small concierge team covers
all employers, and filters (company, assignee) narrow the queue instead of permissions.

The desk is the staff face of the requests domain: it reads the servicerequests tables
directly (read-only, here), while every write goes through `servicerequests.services`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape, unescape
from typing import Literal

from django.core.cache import cache
from django.db.models import Count, Exists, OuterRef, Prefetch, Q, QuerySet, Subquery
from django.utils.html import strip_tags

from concierge.accounts.models import Company, User
from concierge.accounts.selectors import concierge_list, onboarding_answers_for_user
from concierge.common.cache import CACHE_ERRORS, cache_unavailable
from concierge.common.errors import NotFound, ValidationFailed
from concierge.concierge_desk.models import InternalNote
from concierge.servicerequests.models import Message, MessageAttachment, ServiceRequest
from concierge.surveys.selectors import (
    AnswerView,
    answer_views,
    phone_display,
    survey_flow_for_user,
    user_request_survey_for_request,
)

MAX_ID = 2**63 - 1
QUEUE_LIMIT_DEFAULT = 200
QUEUE_LIMIT_MAX = 500
EXCERPT_CHARS = 160
SEARCH_TERMS_MAX = 6
STATUSES = tuple(ServiceRequest.Status.values)
ASSIGNEE_INVALID = "Choose 'mine', 'unassigned' or a concierge's id."
REQUEST_NOT_FOUND = "We couldn't find that request."
PRESENCE_TTL_SECONDS = 30

# Onboarding answers (spec §3 ids) as a concierge reads them, in this order.
BOOLEAN_LABELS = {
    132: "Owns a home",
    134: "Has a car",
    121: "Is a parent",
    122: "Has a pet",
    120: "Has a partner",
}
TEXT_LABELS = {
    104: "Phone",
    165: "Preferred email",
    611: "Address",
    148: "Address line 1",
    149: "Address line 2",
    150: "City",
    151: "State",
    311: "Postal code",
    313: "Country",
}
ADDRESS_PART_IDS = (148, 149, 150, 151, 311, 313)


# --------------------------------------------------------------------------- helpers


def html_to_text(html: str) -> str:
    """A message body as plain text (its `<br>` become line breaks)."""
    return unescape(strip_tags(html.replace("<br>", "\n"))).strip()


def excerpt(text: str, limit: int = EXCERPT_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def waiting_on(last_message: Message | None) -> Literal["concierge", "employee"]:
    """Who has to act next: the concierge when the employee wrote last (or nobody has yet)."""
    if last_message is None or last_message.source == Message.Source.USER:
        return "concierge"
    return "employee"


def _ascii_digits(value: str) -> bool:
    """0-9 only: str.isdigit() also accepts '²' and '①', which int() refuses."""
    return value.isascii() and value.isdigit()


def _valid_id(value: int) -> bool:
    return 0 < value <= MAX_ID


# --------------------------------------------------------------------------- the queue


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
    order: str = "oldest",
    limit: int = QUEUE_LIMIT_DEFAULT,
) -> Queue:
    """The desk's queue: requests of every company (one shared desk), filtered and searched,
    oldest first by default, with per-status counts under the same filters.

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
    ordering = ("issued_at", "id") if order != "newest" else ("-issued_at", "-id")
    page = list(
        requests.select_related("user", "survey_category", "assignee")
        .prefetch_related(Prefetch("user__companies", queryset=Company.objects.order_by("name")))
        .annotate(last_message_id=last_message_id)
        .order_by(*ordering)[: max(1, min(limit, QUEUE_LIMIT_MAX))]
    )
    message_ids = [r.last_message_id for r in page if r.last_message_id]  # type: ignore[attr-defined]
    last_messages = Message.objects.in_bulk(message_ids) if message_ids else {}
    return Queue(requests=page, counts=counts, last_messages=last_messages, company_id=company_id)


# --------------------------------------------------------------------------- one request


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


def request_thread_for_desk(*, request_id: int) -> ServiceRequest:
    """A request with the employee's companies, the thread (with attachments) and the
    internal notes: five queries."""
    if not _valid_id(request_id):
        raise NotFound(REQUEST_NOT_FOUND)
    service_request = (
        ServiceRequest.objects.select_related("user", "survey_category", "assignee")
        .prefetch_related(
            Prefetch("user__companies", queryset=Company.objects.order_by("name")),
            Prefetch(
                "messages",
                queryset=Message.objects.order_by("external_created_at", "id").prefetch_related(
                    Prefetch(
                        "attachment_links",
                        queryset=MessageAttachment.objects.select_related("upload").order_by(
                            "position", "id"
                        ),
                    )
                ),
            ),
            Prefetch(
                "internal_notes",
                queryset=InternalNote.objects.select_related("author").order_by("created_at", "id"),
            ),
        )
        .filter(pk=request_id)
        .first()
    )
    if service_request is None:
        raise NotFound(REQUEST_NOT_FOUND)
    return service_request


@dataclass(frozen=True)
class SurveyAnswers:
    survey_id: int
    survey_name: str
    answers: list[AnswerView]


def survey_answers_for_request(*, service_request: ServiceRequest) -> SurveyAnswers | None:
    """The question/answer pairs of the survey the request came from (None: no survey)."""
    run = user_request_survey_for_request(service_request_id=service_request.pk)
    if run is None:
        return None
    flow = survey_flow_for_user(user=service_request.user, user_request_survey_id=run.pk)
    return SurveyAnswers(
        survey_id=run.survey_id, survey_name=run.survey.name, answers=answer_views(flow=flow)
    )


@dataclass(frozen=True)
class OnboardingItem:
    answer_id: int
    label: str
    value: str


@dataclass(frozen=True)
class EmployeeProfile:
    phone: str | None
    preferred_email: str | None
    address: str | None
    onboarding: list[OnboardingItem]


def _text(value: object) -> str:
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    return ""


def employee_profile(*, user: User) -> EmployeeProfile:
    """The employee's onboarding answers with readable labels, and their contact details."""
    answers = onboarding_answers_for_user(user=user)
    items: list[OnboardingItem] = []
    for answer_id, label in BOOLEAN_LABELS.items():
        value = answers.get(answer_id)
        if isinstance(value, bool):
            items.append(OnboardingItem(answer_id, label, "Yes" if value else "No"))
    phone = None
    for answer_id, label in TEXT_LABELS.items():
        text = _text(answers.get(answer_id))
        if not text:
            continue
        if answer_id == 104:
            digits = re.sub(r"\D", "", text)
            text = phone = phone_display(digits) if len(digits) == 10 else text
        items.append(OnboardingItem(answer_id, label, text))
    address = _text(answers.get(611)) or ", ".join(
        part for part in (_text(answers.get(i)) for i in ADDRESS_PART_IDS) if part
    )
    return EmployeeProfile(
        phone=phone,
        preferred_email=_text(answers.get(165)) or None,
        address=address or None,
        onboarding=items,
    )


# --------------------------------------------------------------------------- presence


@dataclass(frozen=True)
class Viewer:
    id: int
    full_name: str


def presence_key(request_id: int, user_id: int) -> str:
    return f"desk:presence:{request_id}:{user_id}"


def presence_viewers(*, request_id: int, exclude_user_id: int | None = None) -> list[Viewer]:
    """The concierges who have this request open now (heartbeat within PRESENCE_TTL_SECONDS),
    by name, without `exclude_user_id` (the one asking): one query and one cache read."""
    concierges = [c for c in concierge_list() if c.pk != exclude_user_id]
    keys = {presence_key(request_id, c.pk): c for c in concierges}
    try:
        present = cache.get_many(list(keys))
    except CACHE_ERRORS as exc:  # presence is best-effort
        cache_unavailable("presence", exc)
        present = {}
    return [Viewer(id=keys[k].pk, full_name=keys[k].full_name) for k in keys if k in present]
