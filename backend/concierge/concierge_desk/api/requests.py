"""One request on the desk: what the concierge sees of it, and what they do with it (claim,
assign, status, reply, notes, presence)."""

from __future__ import annotations

from dataclasses import asdict
from typing import TYPE_CHECKING

import orjson
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from ninja import Query, Status

from concierge.accounts.selectors.concierges import concierge_list
from concierge.common.errors import ValidationFailed
from concierge.common.ratelimit import rate_limit
from concierge.common.schemas import ErrorOut
from concierge.concierge_desk import selectors, services
from concierge.concierge_desk.api.access import ERRORS, concierge_of, desk_router, person_ref
from concierge.concierge_desk.models import InternalNote
from concierge.concierge_desk.schemas import (
    AssignIn,
    CompanyRef,
    DeskRatingOut,
    DeskRequestDetailOut,
    DeskRequestOut,
    EmployeeProfileOut,
    NoteCreatedOut,
    NoteIn,
    NoteOut,
    OnboardingAnswerOut,
    PersonRef,
    PresenceOut,
    ReplyCreatedOut,
    ReplyCreateIn,
    SlaOut,
    StatusIn,
    SurveyAnswerOut,
    SurveyOut,
)
from concierge.concierge_desk.selectors import DeskReplyView, DeskRequestView, SurveyAnswers
from concierge.servicerequests import selectors as request_selectors
from concierge.servicerequests import services as request_services
from concierge.servicerequests.choices import RequestStatus
from concierge.servicerequests.schemas import (
    ThreadPageOut,
    ThreadPageQuery,
    idempotency_key_header,
    json_datetime,
    message_data,
    message_out,
)

if TYPE_CHECKING:
    from concierge.accounts.models import Company
    from concierge.satisfaction.models import Rating
    from concierge.servicerequests.models import ServiceRequest

router = desk_router()


def _age_seconds(service_request: ServiceRequest) -> int:
    return max(0, int((timezone.now() - service_request.issued_at).total_seconds()))


def _note_out(note: InternalNote) -> NoteOut:
    return NoteOut(
        id=note.pk, body=note.body, author=person_ref(note.author), created_at=note.created_at
    )


def _company_ref(company: Company) -> CompanyRef:
    return CompanyRef(id=company.pk, name=company.name)


def _employee_out(view: DeskRequestView) -> EmployeeProfileOut:
    employee, profile = view.request.user, view.profile
    return EmployeeProfileOut(
        id=employee.pk,
        full_name=employee.full_name,
        first_name=employee.first_name,
        email=employee.email,
        companies=[_company_ref(c) for c in view.companies],
        phone=profile.phone,
        preferred_email=profile.preferred_email,
        address=profile.address,
        onboarding=[
            OnboardingAnswerOut(answer_id=i.answer_id, label=i.label, value=i.value)
            for i in profile.onboarding
        ],
        request_count=employee.request_count,
        date_joined=employee.date_joined,
    )


def _survey_out(survey: SurveyAnswers | None) -> SurveyOut | None:
    if survey is None:
        return None
    return SurveyOut(
        id=survey.survey_id,
        name=survey.survey_name,
        answers=[
            SurveyAnswerOut(
                question=answer.question.label,
                answer=answer.display_value,
                skipped=answer.skipped,
                upload_key=answer.answer.upload.key if answer.answer.upload else None,
            )
            for answer in survey.answers
        ],
    )


def _rating_out(rating: Rating | None) -> DeskRatingOut | None:
    if rating is None:
        return None
    return DeskRatingOut(
        score=rating.score,
        comment=rating.comment,
        via=rating.via,  # type: ignore[arg-type]
        created_at=rating.created_at,
    )


def _request_out(view: DeskRequestView) -> DeskRequestOut:
    service_request, messages = view.request, view.thread.messages
    category = service_request.survey_category
    return DeskRequestOut(
        id=service_request.pk,
        name=service_request.name,
        status=RequestStatus(service_request.status),
        details=service_request.details,
        company=_company_ref(view.companies[0]) if view.companies else None,
        employee=_employee_out(view),
        survey_category_name=category.name if category is not None else None,
        survey_category_icon=category.icon if category is not None else None,
        issued_at=service_request.issued_at,
        created_at=service_request.created_at,
        age_seconds=_age_seconds(service_request),
        last_message_at=service_request.last_message_at,
        waiting_on=request_selectors.waiting_on(messages[-1] if messages else None),
        seen_by_employee_at=service_request.seen_by_employee_at,
        assignee=person_ref(service_request.assignee),
        messages=[message_out(m) for m in messages],
        older_cursor=view.thread.older_cursor,
        notes=[_note_out(n) for n in view.notes],
        survey=_survey_out(view.survey),
        viewers=[PersonRef(id=v.id, full_name=v.full_name) for v in view.viewers],
        sla=SlaOut(**view.sla.__dict__) if view.sla is not None else None,
        rating=_rating_out(view.rating),
    )


def _detail_response(
    request: HttpRequest, request_id: int, *, opened: bool = False
) -> HttpResponse:
    """The request as the desk shows it (`selectors.desk_request_view`), as JSON written from
    its schema object at once: Ninja would validate it a second time, field by field, on its
    way out (a sixth of a reply's CPU). Times as the API writes them everywhere
    (`json_datetime`). `opened`: the asking concierge opens it now (their presence counts)."""
    me = concierge_of(request)
    view = selectors.desk_request_view(request_id=request_id, viewer_id=me.pk)
    if opened:
        services.presence_touch(request_id=view.request.pk, user=me)
        services.request_opening_record(
            http_request=request,
            user=me,
            request_id=view.request.pk,
            employee_id=view.request.user_id,
            kind="request",
        )
    body = orjson.dumps(
        DeskRequestDetailOut(request=_request_out(view)).model_dump(),
        default=json_datetime,
        option=orjson.OPT_PASSTHROUGH_DATETIME,
    )
    return HttpResponse(body, content_type="application/json")


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
    services.request_opening_record(
        http_request=request,
        user=concierge_of(request),
        request_id=service_request.pk,
        employee_id=service_request.user_id,
        kind="thread",
    )
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
    request_services.request_claim(request=service_request, concierge=concierge_of(request))
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
    reopen: Completed → In Queue; undo_complete: Completed → the status it was completed from
    (In Progress, or In Queue), accepted for COMPLETION_UNDO_SECONDS after the completion.
    Any other move is a 422 that says why. Completing emails the employee the one-tap rating
    links COMPLETION_EMAIL_DELAY_SECONDS later, if the completion still stands then and the
    request is not rated, and stops the reply-time clock; reopening restarts it, and undoing
    puts it back as it was."""
    service_request = request_selectors.request_get_for_desk(request_id=request_id)
    request_services.request_status_change(request=service_request, action=payload.action)
    return _detail_response(request, request_id)


def _reply_response(view: DeskReplyView) -> HttpResponse:
    """`ReplyCreatedOut` written as JSON at once, as `_detail_response` writes the request."""
    service_request, assignee = view.request, view.request.assignee
    change = {
        "id": service_request.pk,
        "status": service_request.status,
        "assignee": {"id": assignee.pk, "full_name": assignee.full_name} if assignee else None,
        "last_message_at": service_request.last_message_at,
        "waiting_on": view.waiting_on,
        "sla": asdict(view.sla) if view.sla is not None else None,
    }
    body = orjson.dumps(
        {"message": message_data(view.message), "change": change},
        default=json_datetime,
        option=orjson.OPT_PASSTHROUGH_DATETIME,
    )
    return HttpResponse(body, status=201, content_type="application/json")


@router.post(
    "/concierge/requests/{int:request_id}/messages",
    response={201: ReplyCreatedOut, 429: ErrorOut, **ERRORS},
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
    unless they have opened the request by then. Answers the reply as the thread shows it and
    what it changed of the request (status, assignee, last message time, who it waits on, the
    reply-time clock); GET the request for the rest. At most RATE_LIMITS' `message` replies
    per concierge per window (429).
    """
    me = concierge_of(request)
    service_request = request_selectors.request_get_for_desk(request_id=request_id)
    rate_limit(request, "message", client=f"user:{me.pk}")
    message = request_services.concierge_reply_create(
        request=service_request,
        author=me,
        body=payload.message.body,
        attachment_keys=payload.message.attachment_keys,
        idempotency_key=idempotency_key,
    )
    return _reply_response(
        selectors.desk_reply_view(service_request=service_request, message_id=message.pk)
    )


@router.post("/concierge/requests/{int:request_id}/notes", response={201: NoteCreatedOut, **ERRORS})
def note_create(request: HttpRequest, request_id: int, payload: NoteIn):
    """An internal note: visible to concierges only, never to the employee."""
    service_request = request_selectors.request_get_for_desk(request_id=request_id)
    note = services.note_create(
        request=service_request, author=concierge_of(request), body=payload.body
    )
    return Status(201, NoteCreatedOut(note=_note_out(note)))


@router.post("/concierge/requests/{int:request_id}/presence", response={200: PresenceOut, **ERRORS})
def presence_heartbeat(request: HttpRequest, request_id: int):
    """'I have this request open': send every ~10 s while the view is open; a concierge is
    listed for 30 s after their last heartbeat. Answers the OTHER concierges there now."""
    me = concierge_of(request)
    service_request = request_selectors.request_get_for_desk(request_id=request_id)
    services.presence_touch(request_id=service_request.pk, user=me)
    viewers = selectors.presence_viewers(request_id=service_request.pk, exclude_user_id=me.pk)
    return PresenceOut(viewers=[PersonRef(id=v.id, full_name=v.full_name) for v in viewers])


@router.delete(
    "/concierge/requests/{int:request_id}/presence", response={200: PresenceOut, **ERRORS}
)
def presence_leave(request: HttpRequest, request_id: int):
    """'I closed this request': drop me from its viewers at once."""
    me = concierge_of(request)
    service_request = request_selectors.request_get_for_desk(request_id=request_id)
    services.presence_leave(request_id=service_request.pk, user=me)
    viewers = selectors.presence_viewers(request_id=service_request.pk, exclude_user_id=me.pk)
    return PresenceOut(viewers=[PersonRef(id=v.id, full_name=v.full_name) for v in viewers])
