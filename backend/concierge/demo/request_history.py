"""The demo's requests (`data/requests.toml`): made through the apps' own services, as the API
makes them, then moved back to when they happened.

Each request is answered through its survey (or, for the history that fills the company
report, made as the survey would make it), then its events run in order through the services:
messages both ways with their attachments, internal notes, status changes, ratings. Everything
runs now, so afterwards every timestamp those writes set is moved back to the event's own time,
and the reply-time clock is run again through the clock's own moves at those times.

Idempotent: a request is keyed on its employee and name (its survey's name), so running the
seed again makes only the requests missing. Nothing is sent: what the history's writes hand to
the commit (the reply and rating emails, live events) is dropped, since it happened long ago.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from django.db import transaction
from django.utils import timezone

from concierge.accounts.models import User
from concierge.concierge_desk.models import InternalNote
from concierge.concierge_desk.services import note_create
from concierge.demo.files import simple_pdf, simple_png
from concierge.demo.loader import colleagues, demo_data
from concierge.satisfaction.models import Rating
from concierge.satisfaction.services import rating_create
from concierge.saved_replies.selectors import saved_reply_list
from concierge.saved_replies.services import saved_reply_fill
from concierge.service_levels import services as reply_clock
from concierge.service_levels.models import RequestClock
from concierge.servicerequests.models import Message, ServiceRequest
from concierge.servicerequests.services import (
    concierge_reply_create,
    message_create,
    request_create,
    request_mark_seen_by_employee,
    request_status_change,
)
from concierge.surveys.models import Question, RequestSurvey, UserRequestAnswer, UserRequestSurvey
from concierge.surveys.services import (
    DATUM,
    user_request_answer_save,
    user_request_survey_begin,
    user_request_survey_submit,
)
from concierge.uploads.models import Upload
from concierge.uploads.services import upload_create
from concierge.uploads.storage import object_save

Status = ServiceRequest.Status
DURATION = re.compile(r"\s*(\d+)\s*([dhm])")
UNITS = {"d": "days", "h": "hours", "m": "minutes"}
# Before the request is sent: the survey begun, then answered (files uploaded first).
SURVEY_BEGUN = timedelta(minutes=4)
SURVEY_ANSWERED = timedelta(minutes=2)
ATTACHMENT_UPLOADED = timedelta(minutes=1)


def duration(text: str) -> timedelta:
    """'1d 2h 30m' as a timedelta."""
    parts = DURATION.findall(text)
    if not parts or DURATION.sub("", text).strip():
        raise ValueError(f"'{text}' is not a duration like '1d 2h 30m'.")
    return timedelta(**{UNITS[unit]: int(amount) for amount, unit in parts})


@dataclass
class Step:
    """One event of a request's history, at its own time."""

    at: datetime
    event: dict[str, Any]


@dataclass
class Plan:
    """A request to make: whose, through which survey, when, and what happens to it."""

    employee: str
    survey: str
    opened: datetime
    answers: list[Any] | None
    steps: list[Step]

    @property
    def ends(self) -> datetime:
        return self.steps[-1].at if self.steps else self.opened


@dataclass
class Made:
    """What seeding a plan wrote, with the time each write happened."""

    request: ServiceRequest
    survey_uploads: list[int] = field(default_factory=list)
    messages: list[tuple[int, datetime]] = field(default_factory=list)
    attachments: list[tuple[int, datetime]] = field(default_factory=list)
    notes: list[tuple[int, datetime]] = field(default_factory=list)
    ratings: list[tuple[int, datetime]] = field(default_factory=list)
    seen: datetime | None = None
    completed: datetime | None = None
    # The clock's moves: "employee" or "concierge" (a message), "complete" or "reopen".
    clock: list[tuple[str, datetime]] = field(default_factory=list)


# --------------------------------------------------------------------------- plans


def _opened(spec: dict[str, Any], zone: ZoneInfo, now: datetime) -> datetime:
    if "minutes_ago" in spec:
        return now - timedelta(minutes=spec["minutes_ago"])
    day = (now.astimezone(zone) - timedelta(days=spec["days_ago"])).date()
    return datetime.combine(day, time.fromisoformat(spec["at"]), tzinfo=zone)


def _plan(spec: dict[str, Any], zone: ZoneInfo, now: datetime) -> Plan:
    opened = _opened(spec, zone, now)
    steps, at = [], opened
    for event in spec.get("events", []):
        at = at + duration(event["after"])
        steps.append(Step(at=at, event=event))
    plan = Plan(spec["employee"], spec["survey"], opened, spec.get("answers"), steps)
    if plan.ends > now:
        raise ValueError(
            f"The demo request '{plan.survey}' of {plan.employee} would end after now: "
            "open it earlier (days_ago) or shorten its events."
        )
    return plan


def _history_specs(data: dict[str, Any], concierge: User) -> Iterator[dict[str, Any]]:
    """The history's requests (requests.toml's [history]) as request specs."""
    history = data["history"]
    people = [c.email for c in colleagues() if c.company == history["company"]]
    surveys = {s.slug: s for s in RequestSurvey.objects.filter(slug__in=history["surveys"])}
    replies = {reply.title: reply.body for reply in saved_reply_list()}
    users = {u.email: u for u in User.objects.filter(email__in=people)}

    def pick(values: list[Any], index: int) -> Any:
        return values[index % len(values)]

    for index in range(history["count"]):
        employee = users[pick(people, index)]
        survey = surveys[pick(history["surveys"], index)]
        names = {
            "first_name": employee.first_name,
            "request_name": survey.name,
            "concierge_first_name": concierge.first_name,
        }
        events: list[dict[str, Any]] = [
            {
                "after": f"{pick(history['first_reply_minutes'], index)}m",
                "concierge": saved_reply_fill(replies[history["first_reply"]], **names),
            },
            {
                "after": f"{pick(history['done_after_hours'], index)}h",
                "concierge": saved_reply_fill(replies[history["done_reply"]], **names),
            },
            {"after": "1m", "action": "complete"},
        ]
        score = pick(history["scores"], index)
        if score:
            events.append(
                {"after": "3h", "rating": score, "comment": pick(history["comments"], index)}
            )
        yield {
            "employee": employee.email,
            "survey": survey.slug,
            "days_ago": history["from_days_ago"] + index * history["every_days"],
            "at": pick(history["times"], index),
            "events": events,
        }


def request_plans(now: datetime) -> list[Plan]:
    """Every demo request as a plan, oldest first."""
    data = demo_data("requests")
    zone = ZoneInfo(data["time_zone"])
    concierge = User.objects.get(email=data["concierge"])
    specs = [*data["requests"], *_history_specs(data, concierge)]
    return sorted((_plan(spec, zone, now) for spec in specs), key=lambda plan: plan.opened)


# --------------------------------------------------------------------------- making them


def _file(spec: dict[str, Any]) -> tuple[str, bytes]:
    if "png" in spec:
        return spec["png"], simple_png(spec["color"])
    return spec["pdf"], simple_pdf(spec["title"], spec["lines"])


def _upload(owner: User, spec: dict[str, Any], request_id: int | None) -> Upload:
    """A file uploaded as the browser does: the upload, then its bytes in upload storage."""
    filename, content = _file(spec)
    upload = upload_create(owner=owner, filename=filename, request_id=request_id)
    object_save(upload.key, io.BytesIO(content))
    return upload


def _answer(employee: User, question: Question, answer: Any, uploads: list[int]) -> Any:
    if isinstance(answer, dict):
        upload = _upload(employee, answer, None)
        uploads.append(upload.pk)
        return upload.key
    if question.input_type == Question.InputType.SINGLE_SELECT:
        return question.select_options.get(label=answer).value
    return answer


def _open(plan: Plan, employee: User, survey: RequestSurvey) -> Made:
    """The request, sent as its survey sends it (or, without answers, as the survey would)."""
    if plan.answers is None:
        request = request_create(
            user=employee, name=survey.name, survey_category_id=survey.category_id
        )
        return Made(request=request)
    questions = list(survey.questions.order_by("position"))
    if len(questions) != len(plan.answers):
        raise ValueError(
            f"The demo request '{survey.slug}' has {len(plan.answers)} answers for "
            f"{len(questions)} questions."
        )
    run = user_request_survey_begin(user=employee, survey_id=survey.pk)
    uploads: list[int] = []
    for question, answer in zip(questions, plan.answers, strict=True):
        if answer != "":
            user_request_answer_save(
                user=employee,
                user_request_survey_id=run.pk,
                question_id=question.pk,
                object_type=DATUM,
                value=_answer(employee, question, answer, uploads),
            )
    request_id = user_request_survey_submit(user=employee, user_request_survey_id=run.pk)
    request = ServiceRequest.objects.select_related("user").get(pk=request_id)
    return Made(request=request, survey_uploads=uploads)


def _message(made: Made, step: Step, author: User, *, from_employee: bool) -> None:
    request, event = made.request, step.event
    uploads = [_upload(author, spec, request.pk) for spec in event.get("attachments", [])]
    keys = [upload.key for upload in uploads]
    if from_employee:
        message = message_create(
            request=request,
            author=author,
            body=event["employee"],
            attachment_keys=keys,
            reopen=event.get("reopen", False),
        )
        made.seen = step.at
    else:
        message = concierge_reply_create(
            request=request, author=author, body=event["concierge"], attachment_keys=keys
        )
    made.messages.append((message.pk, step.at))
    made.attachments += [(upload.pk, step.at) for upload in uploads]
    made.clock.append(("employee" if from_employee else "concierge", step.at))


def _run(made: Made, step: Step, employee: User, concierge: User) -> None:
    request, event = made.request, step.event
    if "employee" in event:
        _message(made, step, employee, from_employee=True)
    elif "concierge" in event:
        _message(made, step, concierge, from_employee=False)
    elif "note" in event:
        note = note_create(request=request, author=concierge, body=event["note"])
        made.notes.append((note.pk, step.at))
    elif "action" in event:
        request_status_change(request=request, action=event["action"])
        if event["action"] in ("complete", "reopen"):
            made.clock.append((event["action"], step.at))
        made.completed = step.at if event["action"] == "complete" else None
    elif event.get("seen"):
        request_mark_seen_by_employee(request=request)
        made.seen = step.at
    elif "rating" in event:
        request_mark_seen_by_employee(request=request)
        rating = rating_create(
            request=request, score=event["rating"], comment=event.get("comment", "")
        )
        made.seen = step.at
        made.ratings.append((rating.pk, step.at))
    else:
        raise ValueError(f"Unknown demo request event: {event}")


def _move_back(made: Made, plan: Plan, employee: User) -> None:
    """Every timestamp the services set now, set to when it happened; the reply-time clock
    run again through its own moves at those times."""
    request, opened = made.request, plan.opened
    ServiceRequest.objects.filter(pk=request.pk).update(
        issued_at=opened,
        created_at=opened,
        updated_at=plan.ends,
        last_message_at=max((at for _, at in made.messages), default=None),
        seen_by_employee_at=made.seen,
        completed_at=made.completed if request.status == Status.CLOSED else None,
    )
    runs = UserRequestSurvey.objects.filter(service_request=request)
    runs.update(created_at=opened - SURVEY_BEGUN, submitted_at=opened)
    UserRequestAnswer.objects.filter(user_request_survey__in=runs).update(
        answered_at=opened - SURVEY_ANSWERED
    )
    Upload.objects.filter(pk__in=made.survey_uploads).update(
        created_at=opened - SURVEY_ANSWERED, uploaded_at=opened - SURVEY_ANSWERED
    )
    for pk, at in made.messages:
        Message.objects.filter(pk=pk).update(external_created_at=at)
    for pk, at in made.attachments:
        Upload.objects.filter(pk=pk).update(
            created_at=at - ATTACHMENT_UPLOADED, uploaded_at=at - ATTACHMENT_UPLOADED
        )
    for pk, at in made.notes:
        InternalNote.objects.filter(pk=pk).update(created_at=at)
    for pk, at in made.ratings:
        Rating.objects.filter(pk=pk).update(created_at=at)

    RequestClock.objects.filter(request_id=request.pk).delete()
    reply_clock.clock_start(request_id=request.pk, employee=employee, at=opened)
    for move, at in made.clock:
        if move in ("complete", "reopen"):
            reply_clock.clock_on_status(request_id=request.pk, completed=move == "complete", at=at)
        else:
            reply_clock.clock_on_message(
                request_id=request.pk, from_employee=move == "employee", at=at
            )


@contextmanager
def nothing_sent_after_commit() -> Iterator[None]:
    """Drops what the writes inside hand to the commit (emails and text messages to enqueue,
    live events to publish): the demo's history happened in the past, so seeding it sends
    nothing. Only inside a transaction, whose own earlier work is kept."""
    connection = transaction.get_connection()
    if not connection.in_atomic_block:
        raise RuntimeError("The demo's requests are seeded inside a transaction.")
    start = len(connection.run_on_commit)
    try:
        yield
    finally:
        del connection.run_on_commit[start:]


def seed_requests(now: datetime | None = None) -> list[ServiceRequest]:
    """Makes the demo requests that are missing (keyed on employee and name); the ones made."""
    now = now or timezone.now()
    data = demo_data("requests")
    concierge = User.objects.get(email=data["concierge"])
    plans = request_plans(now)
    emails = {plan.employee for plan in plans}
    employees = {u.email: u for u in User.objects.filter(email__in=emails)}
    surveys = {s.slug: s for s in RequestSurvey.objects.filter(slug__in={p.survey for p in plans})}
    existing = set(
        ServiceRequest.objects.filter(user__email__in=emails).values_list("user__email", "name")
    )
    made_now = []
    with nothing_sent_after_commit():
        for plan in plans:
            employee, survey = employees[plan.employee], surveys[plan.survey]
            if (employee.email, survey.name) in existing:
                continue
            made = _open(plan, employee, survey)
            for step in plan.steps:
                _run(made, step, employee, concierge)
            _move_back(made, plan, employee)
            made_now.append(made.request)
    return made_now


@dataclass(frozen=True)
class RequestCounts:
    total: int
    queued: int
    overdue: int  # queued or in progress, past the reply-time clock's deadline
    in_progress: int
    completed: int
    rated: int


def request_counts(now: datetime | None = None) -> RequestCounts:
    """How many requests there are in each state."""
    now = now or timezone.now()
    requests = ServiceRequest.objects.all()
    return RequestCounts(
        total=requests.count(),
        queued=requests.filter(status=Status.OPEN).count(),
        overdue=requests.exclude(status=Status.CLOSED).filter(due_at__lt=now).count(),
        in_progress=requests.filter(status=Status.IN_PROGRESS).count(),
        completed=requests.filter(status=Status.CLOSED).count(),
        rated=Rating.objects.count(),
    )
