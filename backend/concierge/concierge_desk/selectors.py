"""Desk reads: internal notes, the survey answers and employee profile of a request, presence.

Decision (issue #5): ONE SHARED DESK. Every concierge sees and works every company's
requests; there is no assignment of concierges to companies. A small concierge team covers
all employers, and filters (company, assignee) narrow the queue instead of permissions.

The desk is the staff face of the requests domain: it reads requests through
`servicerequests.selectors` (the queue, one request's thread) and writes through
`servicerequests.services`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from html import unescape
from typing import TYPE_CHECKING, Literal

from django.core.cache import cache
from django.db.models import QuerySet

from concierge.accounts.selectors.concierges import concierge_names
from concierge.accounts.selectors.onboarding import EmployeeProfile, employee_profile
from concierge.common.cache import CACHE_ERRORS, cache_unavailable
from concierge.concierge_desk.models import InternalNote
from concierge.satisfaction.selectors import rating_for_request
from concierge.service_levels.selectors import SlaView, request_clock, sla_view
from concierge.servicerequests import selectors as request_selectors
from concierge.servicerequests.selectors import MessageRow, ThreadPage
from concierge.surveys.selectors import (
    AnswerView,
    answer_views,
    survey_flow_for_user,
    user_request_survey_for_request,
)

if TYPE_CHECKING:
    from concierge.accounts.models import Company
    from concierge.satisfaction.models import Rating
    from concierge.servicerequests.models import ServiceRequest

EXCERPT_CHARS = 160
PRESENCE_TTL_SECONDS = 30
# Message bodies are sanitised HTML holding only <a> and <br> (servicerequests.html), so
# dropping tags is all it takes to read them as text; a tag cut off at the end goes too.
_LINE_BREAK = re.compile(r"<br\s*/?>", re.IGNORECASE)
_TAG = re.compile(r"<[^>]*>?")


def excerpt(text: str, limit: int = EXCERPT_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


@lru_cache(maxsize=2048)
def excerpt_from_html(body_html: str, limit: int = EXCERPT_CHARS) -> str:
    """A message body's first words as plain text (the whole body or its beginning).
    Remembered by text (a pure function of it): a queue shows mostly the same last messages
    load after load, and this is half of what a row costs."""
    text = body_html.replace("<br>", " ")
    if "<" in text:
        text = _TAG.sub("", _LINE_BREAK.sub(" ", text) if "<br" in text else text)
    return excerpt(unescape(text) if "&" in text else text, limit)


def note_list_for_request(*, request_id: int) -> QuerySet[InternalNote]:
    """A request's internal notes with their authors, oldest first: one query."""
    return (
        InternalNote.objects.filter(request_id=request_id)
        .select_related("author")
        .order_by("created_at", "id")
    )


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
    keys = {
        presence_key(request_id, pk): Viewer(id=pk, full_name=name)
        for pk, name in concierge_names()
        if pk != exclude_user_id
    }
    try:
        present = cache.get_many(list(keys))
    except CACHE_ERRORS as exc:  # presence is best-effort
        cache_unavailable("presence", exc)
        present = {}
    return [viewer for key, viewer in keys.items() if key in present]


# --------------------------------------------------------------------------- one request


@dataclass(frozen=True)
class DeskRequestView:
    """Everything the desk shows of one request (`desk_request_view`).

    `request` comes with its employee, assignee, category and reply-time clock; `companies`
    are the employee's, by name; `thread` is the newest page of messages; `viewers` are the
    other concierges who have it open."""

    request: ServiceRequest
    companies: list[Company]
    thread: ThreadPage
    profile: EmployeeProfile
    survey: SurveyAnswers | None
    notes: list[InternalNote]
    viewers: list[Viewer]
    sla: SlaView | None
    rating: Rating | None


def desk_request_view(*, request_id: int, viewer_id: int) -> DeskRequestView:
    """One request as the desk shows it to the concierge `viewer_id` (NotFound when there is
    no such request), in the same number of queries whatever its thread's and notes' length."""
    service_request = request_selectors.request_with_employee_for_desk(request_id=request_id)
    return DeskRequestView(
        request=service_request,
        companies=list(service_request.user.companies.all()),
        thread=request_selectors.thread_page(request_id=service_request.pk),
        profile=employee_profile(user=service_request.user),
        survey=survey_answers_for_request(service_request=service_request),
        notes=list(note_list_for_request(request_id=service_request.pk)),
        viewers=presence_viewers(request_id=service_request.pk, exclude_user_id=viewer_id),
        sla=sla_view(request_clock(service_request)),
        rating=rating_for_request(request_id=service_request.pk),
    )


@dataclass(frozen=True)
class DeskReplyView:
    """A reply just written, as the desk's thread shows it, and what it changed of its request
    (`desk_reply_view`): who the thread waits on now and the reply-time clock."""

    request: ServiceRequest
    message: MessageRow
    waiting_on: Literal["concierge", "employee"]
    sla: SlaView | None


def desk_reply_view(*, service_request: ServiceRequest, message_id: int) -> DeskReplyView:
    """The reply `message_id` to `service_request`, which the reply's service left as it now
    stands (status, assignee, times and clock): one query, for the message."""
    posted = request_selectors.posted_message(request_id=service_request.pk, message_id=message_id)
    return DeskReplyView(
        request=service_request,
        message=posted.message,
        waiting_on=posted.waiting_on,
        sla=sla_view(request_clock(service_request)),
    )
