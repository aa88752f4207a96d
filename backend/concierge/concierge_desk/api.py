"""The concierge desk API (/api/v1/concierge/...): the staff workspace.

Every endpoint needs a signed-in concierge (the 'Concierges' group, or a superuser):
anonymous → 401, an employee → 403. One shared desk: every concierge works every company's
requests (see `concierge.concierge_desk.selectors`).
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

import orjson
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from ninja import Query, Router, Schema, Status
from pydantic import Field

from concierge.accounts.auth import TokenAuth, request_auth_token
from concierge.accounts.selectors import concierge_list, employee_profile, user_is_concierge
from concierge.common.errors import PermissionDenied, ValidationFailed
from concierge.common.ratelimit import rate_limit
from concierge.common.schemas import ErrorOut
from concierge.concierge_desk import selectors, services
from concierge.concierge_desk.models import InternalNote
from concierge.concierge_desk.schemas import (
    AssignIn,
    CompanyRef,
    ConciergeListOut,
    ConciergeOut,
    DeskRatingOut,
    DeskRequestDetailOut,
    DeskRequestOut,
    EmployeeProfileOut,
    EmployeeRef,
    FilledReplyListOut,
    FilledReplyOut,
    NoteCreatedOut,
    NoteIn,
    NoteOut,
    OnboardingAnswerOut,
    PersonRef,
    PresenceOut,
    QueueOut,
    ReplyCreateIn,
    SavedReplyDetailOut,
    SavedReplyIn,
    SavedReplyListOut,
    SavedReplyOut,
    SearchOut,
    SearchResultOut,
    SlaOut,
    StatusIn,
    SurveyAnswerOut,
    SurveyOut,
)
from concierge.concierge_desk.search import RESULTS_DEFAULT, RESULTS_MAX, request_search
from concierge.satisfaction.schemas import RatingSummaryOut
from concierge.satisfaction.selectors import rating_for_request, rating_summary
from concierge.saved_replies import selectors as saved_reply_selectors
from concierge.saved_replies import services as saved_reply_services
from concierge.service_levels.selectors import request_clock, sla_state, sla_view
from concierge.servicerequests import selectors as request_selectors
from concierge.servicerequests import services as request_services
from concierge.servicerequests.choices import RequestStatus
from concierge.servicerequests.schemas import (
    ThreadPageOut,
    ThreadPageQuery,
    idempotency_key_header,
    json_datetime,
    message_out,
)

if TYPE_CHECKING:
    from concierge.accounts.models import AuthToken, User
    from concierge.servicerequests.models import ServiceRequest
    from concierge.servicerequests.selectors import QueueRow

CONCIERGES_ONLY = "This area is for concierges only."


class ConciergeAuth(TokenAuth):
    """The API's bearer auth (with its MFA gate), then: concierges only (403 otherwise)."""

    def authenticate(self, request: HttpRequest, token: str) -> AuthToken | None:
        auth_token = super().authenticate(request, token)
        if auth_token is not None and not user_is_concierge(user=auth_token.user):
            raise PermissionDenied(CONCIERGES_ONLY)
        return auth_token


router = Router(tags=["concierge desk"], auth=ConciergeAuth())
ERRORS = {401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 422: ErrorOut}


def _me(request: HttpRequest) -> User:
    return request_auth_token(request).user


def _person(user: User | None) -> PersonRef | None:
    return PersonRef(id=user.pk, full_name=user.full_name) if user is not None else None


def _age_seconds(service_request: ServiceRequest) -> int:
    return max(0, int((timezone.now() - service_request.issued_at).total_seconds()))


def _note_out(note: InternalNote) -> NoteOut:
    return NoteOut(
        id=note.pk, body=note.body, author=_person(note.author), created_at=note.created_at
    )


def _category(service_request: ServiceRequest) -> tuple[str | None, str | None]:
    category = service_request.survey_category
    return (category.name, category.icon) if category is not None else (None, None)


def _sla(service_request: ServiceRequest) -> SlaOut | None:
    view = sla_view(request_clock(service_request))
    return SlaOut(**view.__dict__) if view is not None else None


def _rating(request_id: int) -> DeskRatingOut | None:
    rating = rating_for_request(request_id=request_id)
    if rating is None:
        return None
    return DeskRatingOut(
        score=rating.score,
        comment=rating.comment,
        via=rating.via,  # type: ignore[arg-type]
        created_at=rating.created_at,
    )


# --------------------------------------------------------------------------- the queue


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
        concierge=_me(request),
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


# --------------------------------------------------------------------------- one request


def _detail_response(
    request: HttpRequest, request_id: int, *, opened: bool = False, status: int = 200
) -> HttpResponse:
    """`_detail`'s answer as JSON, written from the validated schema object at once: Ninja
    would validate it a second time, field by field, on its way out (a sixth of a reply's
    CPU). Times as the API writes them everywhere (`json_datetime`)."""
    body = orjson.dumps(
        _detail(request, request_id, opened=opened).model_dump(),
        default=json_datetime,
        option=orjson.OPT_PASSTHROUGH_DATETIME,
    )
    return HttpResponse(body, status=status, content_type="application/json")


def _detail(request: HttpRequest, request_id: int, *, opened: bool = False) -> DeskRequestDetailOut:
    """The request as the desk shows it; `opened`: the asking concierge opens it now (their
    presence is recorded before the others are read)."""
    me = _me(request)
    service_request = request_selectors.request_with_employee_for_desk(request_id=request_id)
    if opened:
        services.presence_touch(request_id=service_request.pk, user=me)
    employee = service_request.user
    companies = list(employee.companies.all())
    page = request_selectors.thread_page(request_id=service_request.pk)
    messages = page.messages
    profile = employee_profile(user=employee)
    survey = selectors.survey_answers_for_request(service_request=service_request)
    category_name, category_icon = _category(service_request)
    viewers = selectors.presence_viewers(request_id=service_request.pk, exclude_user_id=me.pk)
    out = DeskRequestOut(
        id=service_request.pk,
        name=service_request.name,
        status=RequestStatus(service_request.status),
        details=service_request.details,
        company=CompanyRef(id=companies[0].pk, name=companies[0].name) if companies else None,
        employee=EmployeeProfileOut(
            id=employee.pk,
            full_name=employee.full_name,
            first_name=employee.first_name,
            email=employee.email,
            companies=[CompanyRef(id=c.pk, name=c.name) for c in companies],
            phone=profile.phone,
            preferred_email=profile.preferred_email,
            address=profile.address,
            onboarding=[
                OnboardingAnswerOut(answer_id=i.answer_id, label=i.label, value=i.value)
                for i in profile.onboarding
            ],
            request_count=employee.request_count,
            date_joined=employee.date_joined,
        ),
        survey_category_name=category_name,
        survey_category_icon=category_icon,
        issued_at=service_request.issued_at,
        created_at=service_request.created_at,
        age_seconds=_age_seconds(service_request),
        last_message_at=service_request.last_message_at,
        waiting_on=request_selectors.waiting_on(messages[-1] if messages else None),
        seen_by_employee_at=service_request.seen_by_employee_at,
        assignee=_person(service_request.assignee),
        messages=[message_out(m) for m in messages],
        older_cursor=page.older_cursor,
        notes=[_note_out(n) for n in selectors.note_list_for_request(request_id=request_id)],
        survey=SurveyOut(
            id=survey.survey_id,
            name=survey.survey_name,
            answers=[
                SurveyAnswerOut(
                    question=view.question.label,
                    answer=view.display_value,
                    skipped=view.skipped,
                    upload_key=view.answer.upload.key if view.answer.upload else None,
                )
                for view in survey.answers
            ],
        )
        if survey is not None
        else None,
        viewers=[PersonRef(id=v.id, full_name=v.full_name) for v in viewers],
        sla=_sla(service_request),
        rating=_rating(service_request.pk),
    )
    return DeskRequestDetailOut(request=out)


@router.get("/concierge/requests/{int:request_id}", response={200: DeskRequestDetailOut, **ERRORS})
def request_detail(request: HttpRequest, request_id: int):
    """Everything about one request (any company's): the thread with attachments, internal
    notes, the survey's question/answer pairs, the employee's profile and onboarding answers,
    the assignee, and the other concierges who have it open. Opening it counts as presence."""
    return _detail_response(request, request_id, opened=True)


@router.get(
    "/concierge/requests/{int:request_id}/messages", response={200: ThreadPageOut, **ERRORS}
)
def message_list(request: HttpRequest, request_id: int, query: Query[ThreadPageQuery]):
    """Older messages of any request's thread: the page before `before` (the request's or a
    page's `older_cursor`), oldest first."""
    service_request = request_selectors.request_get_for_desk(request_id=request_id)
    page = request_selectors.thread_page(
        request_id=service_request.pk, before=query.before, limit=query.limit
    )
    return ThreadPageOut(
        messages=[message_out(m) for m in page.messages], older_cursor=page.older_cursor
    )


@router.post(
    "/concierge/requests/{int:request_id}/claim",
    response={200: DeskRequestDetailOut, 409: ErrorOut, **ERRORS},
)
def request_claim(request: HttpRequest, request_id: int):
    """Assign the request to me. 409 when another concierge already has it (use assign)."""
    service_request = request_selectors.request_get_for_desk(request_id=request_id)
    request_services.request_claim(request=service_request, concierge=_me(request))
    return _detail_response(request, request_id)


@router.post(
    "/concierge/requests/{int:request_id}/assign", response={200: DeskRequestDetailOut, **ERRORS}
)
def request_assign(request: HttpRequest, request_id: int, payload: AssignIn):
    """Assign to a concierge (by user id), or unassign with null. Not a concierge: 422."""
    service_request = request_selectors.request_get_for_desk(request_id=request_id)
    assignee = None
    if payload.assignee_id is not None:
        assignee = next((c for c in concierge_list() if c.pk == payload.assignee_id), None)
        if assignee is None:
            raise ValidationFailed.for_field("assignee_id", request_services.NOT_A_CONCIERGE)
    request_services.request_assign(request=service_request, assignee=assignee)
    return _detail_response(request, request_id)


@router.post(
    "/concierge/requests/{int:request_id}/status", response={200: DeskRequestDetailOut, **ERRORS}
)
def request_status(request: HttpRequest, request_id: int, payload: StatusIn):
    """start: In Queue → In Progress; complete: In Queue or In Progress → Completed;
    reopen: Completed → In Queue. Any other move is a 422 that says why. Completing emails
    the employee the one-tap rating links (unless the request is already rated) and stops
    the reply-time clock; reopening restarts it."""
    service_request = request_selectors.request_get_for_desk(request_id=request_id)
    request_services.request_status_change(request=service_request, action=payload.action)
    return _detail_response(request, request_id)


@router.post(
    "/concierge/requests/{int:request_id}/messages",
    response={201: DeskRequestDetailOut, 429: ErrorOut, **ERRORS},
)
def reply_create(
    request: HttpRequest,
    request_id: int,
    payload: ReplyCreateIn,
    idempotency_key: str | None = idempotency_key_header("reply"),  # noqa: B008
):
    """A reply to the employee, signed '<first name> from <product>' (source life_concierge).

    Attachments: upload with POST /uploads/presigned_url and this request's id first (up to
    10 files). A request In Queue moves to In Progress, an unassigned one is assigned to the
    replying concierge, and the employee is emailed after REPLY_NOTIFICATION_DELAY_SECONDS
    unless they have opened the request by then. Answers the request with the newest page of
    its thread. At most RATE_LIMITS' `message` replies per concierge per window (429).
    """
    me = _me(request)
    service_request = request_selectors.request_get_for_desk(request_id=request_id)
    rate_limit(request, "message", client=f"user:{me.pk}")
    request_services.concierge_reply_create(
        request=service_request,
        author=me,
        body=payload.message.body,
        attachment_keys=payload.message.attachment_keys,
        idempotency_key=idempotency_key,
    )
    return _detail_response(request, request_id, status=201)


@router.post("/concierge/requests/{int:request_id}/notes", response={201: NoteCreatedOut, **ERRORS})
def note_create(request: HttpRequest, request_id: int, payload: NoteIn):
    """An internal note: visible to concierges only, never to the employee."""
    service_request = request_selectors.request_get_for_desk(request_id=request_id)
    note = services.note_create(request=service_request, author=_me(request), body=payload.body)
    return Status(201, NoteCreatedOut(note=_note_out(note)))


@router.post("/concierge/requests/{int:request_id}/presence", response={200: PresenceOut, **ERRORS})
def presence_heartbeat(request: HttpRequest, request_id: int):
    """'I have this request open': send every ~10 s while the view is open; a concierge is
    listed for 30 s after their last heartbeat. Answers the OTHER concierges there now."""
    me = _me(request)
    service_request = request_selectors.request_get_for_desk(request_id=request_id)
    services.presence_touch(request_id=service_request.pk, user=me)
    viewers = selectors.presence_viewers(request_id=service_request.pk, exclude_user_id=me.pk)
    return PresenceOut(viewers=[PersonRef(id=v.id, full_name=v.full_name) for v in viewers])


@router.delete(
    "/concierge/requests/{int:request_id}/presence", response={200: PresenceOut, **ERRORS}
)
def presence_leave(request: HttpRequest, request_id: int):
    """'I closed this request': drop me from its viewers at once."""
    me = _me(request)
    service_request = request_selectors.request_get_for_desk(request_id=request_id)
    services.presence_leave(request_id=service_request.pk, user=me)
    viewers = selectors.presence_viewers(request_id=service_request.pk, exclude_user_id=me.pk)
    return PresenceOut(viewers=[PersonRef(id=v.id, full_name=v.full_name) for v in viewers])


@router.get("/concierge/concierges", response={200: ConciergeListOut, **ERRORS})
def concierges(request: HttpRequest):
    """Every concierge, by name (for the assign menu)."""
    return ConciergeListOut(
        concierges=[
            ConciergeOut(id=c.pk, full_name=c.full_name, email=c.email) for c in concierge_list()
        ]
    )


@router.get("/concierge/ratings", response={200: RatingSummaryOut, **ERRORS})
def ratings(request: HttpRequest):
    """Satisfaction: the average rating and count overall, per concierge who worked the
    requests, and per employee company."""
    summary = rating_summary()
    return RatingSummaryOut.model_validate(summary, from_attributes=True)


# --------------------------------------------------------------------------- saved replies


def _saved_reply_out(reply) -> SavedReplyOut:  # type: ignore[no-untyped-def]
    return SavedReplyOut(
        id=reply.pk,
        title=reply.title,
        body=reply.body,
        updated_by=_person(reply.updated_by),
        updated_at=reply.updated_at,
    )


@router.get("/concierge/saved-replies", response={200: SavedReplyListOut, **ERRORS})
def saved_reply_list(request: HttpRequest):
    """The team's shared saved replies, by title."""
    return SavedReplyListOut(
        saved_replies=[_saved_reply_out(r) for r in saved_reply_selectors.saved_reply_list()]
    )


@router.post("/concierge/saved-replies", response={201: SavedReplyDetailOut, **ERRORS})
def saved_reply_create(request: HttpRequest, payload: SavedReplyIn):
    """A new saved reply. Placeholders: {first_name} (the employee's), {request_name},
    {concierge_first_name}; any other is a 422. Titles are unique (ignoring case)."""
    reply = saved_reply_services.saved_reply_create(
        title=payload.title, body=payload.body, author=_me(request)
    )
    return Status(201, SavedReplyDetailOut(saved_reply=_saved_reply_out(reply)))


@router.put(
    "/concierge/saved-replies/{int:reply_id}", response={200: SavedReplyDetailOut, **ERRORS}
)
def saved_reply_update(request: HttpRequest, reply_id: int, payload: SavedReplyIn):
    """Change a saved reply's title and text (the same rules as creating one)."""
    reply = saved_reply_selectors.saved_reply_get(reply_id=reply_id)
    reply = saved_reply_services.saved_reply_update(
        reply=reply, title=payload.title, body=payload.body, author=_me(request)
    )
    return SavedReplyDetailOut(saved_reply=_saved_reply_out(reply))


@router.delete("/concierge/saved-replies/{int:reply_id}", response={204: None, **ERRORS})
def saved_reply_delete(request: HttpRequest, reply_id: int):
    """Delete a saved reply (for the whole team)."""
    reply = saved_reply_selectors.saved_reply_get(reply_id=reply_id)
    saved_reply_services.saved_reply_delete(reply=reply)
    return Status(204, None)


@router.get(
    "/concierge/requests/{int:request_id}/saved-replies",
    response={200: FilledReplyListOut, **ERRORS},
)
def saved_reply_list_for_request(request: HttpRequest, request_id: int):
    """The saved replies filled in for this request: the employee's first name, the
    request's name and my first name in place of their placeholders."""
    service_request = request_selectors.request_get_for_desk(request_id=request_id)
    me = _me(request)
    values = {
        "first_name": service_request.user.first_name,
        "request_name": service_request.name,
        "concierge_first_name": me.first_name,
    }
    return FilledReplyListOut(
        saved_replies=[
            FilledReplyOut(
                id=reply.pk,
                title=reply.title,
                text=saved_reply_services.saved_reply_fill(reply.body, **values),
            )
            for reply in saved_reply_selectors.saved_reply_list()
        ]
    )


# --------------------------------------------------------------------------- search


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
                assignee=_person(service_request.assignee),
                match=hit.kind,  # type: ignore[arg-type]
                snippet_html=hit.snippet_html,
                rank=round(hit.rank, 6),
            )
        )
    return SearchOut(query=query.q, results=results)
