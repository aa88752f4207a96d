from __future__ import annotations

from datetime import datetime
from typing import Literal

from ninja import Schema
from pydantic import ConfigDict, Field

from concierge.common.openapi import document_required
from concierge.concierge_desk.services import NOTE_MAX
from concierge.servicerequests.choices import MessageSource, RequestStatus
from concierge.servicerequests.schemas import MessageOut
from concierge.servicerequests.services import BODY_MAX


class CompanyRef(Schema):
    id: int
    name: str


class PersonRef(Schema):
    id: int
    full_name: str


class EmployeeRef(Schema):
    id: int
    full_name: str
    email: str


class LastMessageOut(Schema):
    body_text: str = Field(description="Plain-text excerpt of the message (at most 160 chars).")
    source: MessageSource = Field(description="'user' (the employee) or 'life_concierge'.")
    source_name: str
    created_at: datetime


class QueueCountsOut(Schema):
    open: int
    in_progress: int
    closed: int


class SlaBadgeOut(Schema):
    state: Literal["overdue", "due_soon", "on_track", "paused", "completed"] = Field(
        description="Against the company's reply-time promise: overdue, due within the hour, "
        "on track, paused (waiting on the employee) or completed."
    )
    due_at: datetime | None = Field(description="The next deadline while the clock runs.")
    target: Literal["first_response", "resolution"] | None = Field(
        description="Which deadline `due_at` is: the first reply's or the resolution's."
    )


class SlaOut(SlaBadgeOut):
    first_response_due_at: datetime
    first_responded_at: datetime | None
    resolution_due_at: datetime | None


class DeskRatingOut(Schema):
    score: int = Field(description="1 (very poor) to 5 (excellent).")
    comment: str
    via: Literal["page", "email"]
    created_at: datetime


class QueueEmployeeOut(Schema):
    full_name: str
    email: str


class QueueItemOut(Schema):
    """A queue row: what the desk's list shows of a request, nothing more."""

    id: int
    name: str
    status: RequestStatus = Field(
        description="open ('In Queue'), in_progress, or closed ('Completed')."
    )
    company: CompanyRef | None = Field(
        description="The employee's company: the filtered one, else their first by name."
    )
    employee: QueueEmployeeOut
    survey_category_name: str | None
    survey_category_icon: str | None
    issued_at: datetime
    last_message: LastMessageOut | None
    waiting_on: Literal["concierge", "employee"] = Field(
        description="'concierge' when the employee wrote last or nobody has written yet."
    )
    assignee: PersonRef | None
    sla: SlaBadgeOut | None = Field(description="Null when the company has no reply-time promise.")


class QueueOut(Schema):
    requests: list[QueueItemOut]
    counts: QueueCountsOut = Field(
        description="Per status, under the same filters and search, counted up to "
        "`count_limit`: a status in `counts_capped` has more (show '1,000+')."
    )
    count_limit: int = Field(description="Where the counts stop counting.")
    counts_capped: list[RequestStatus] = Field(
        description="The statuses with more than `count_limit` requests."
    )
    next_cursor: str | None = Field(
        description="Set when more requests follow: pass it as `cursor` (with the same "
        "filters and order) for the next page."
    )


class NoteOut(Schema):
    id: int
    body: str = Field(description="Plain text (render as text, not HTML).")
    author: PersonRef | None
    created_at: datetime


class SurveyAnswerOut(Schema):
    question: str
    answer: str = Field(description="As a person reads it; 'Question Skipped' when skipped.")
    skipped: bool
    upload_key: str | None = Field(
        description="For a file answer: the key for GET /uploads/expiring_url."
    )


class SurveyOut(Schema):
    id: int
    name: str
    answers: list[SurveyAnswerOut]


class OnboardingAnswerOut(Schema):
    answer_id: int = Field(description="The spec §3 onboarding answer id.")
    label: str
    value: str


class EmployeeProfileOut(Schema):
    id: int
    full_name: str
    first_name: str
    email: str
    companies: list[CompanyRef]
    phone: str | None
    preferred_email: str | None
    address: str | None
    onboarding: list[OnboardingAnswerOut]
    request_count: int
    date_joined: datetime


class DeskRequestOut(Schema):
    id: int
    name: str
    status: RequestStatus = Field(
        description="open ('In Queue'), in_progress, or closed ('Completed')."
    )
    details: str
    company: CompanyRef | None
    employee: EmployeeProfileOut
    survey_category_name: str | None
    survey_category_icon: str | None
    issued_at: datetime
    created_at: datetime
    age_seconds: int
    last_message_at: datetime | None
    waiting_on: Literal["concierge", "employee"]
    seen_by_employee_at: datetime | None = Field(
        description="When the employee last opened the thread."
    )
    assignee: PersonRef | None
    messages: list[MessageOut] = Field(
        description="The thread's newest page (up to 50), oldest first."
    )
    older_cursor: str | None = Field(
        description="Set when older messages exist: pass it as `before` to "
        "GET /concierge/requests/{id}/messages for the page before."
    )
    notes: list[NoteOut] = Field(description="Internal notes (never shown to the employee).")
    survey: SurveyOut | None = Field(description="The answers the request was made with.")
    viewers: list[PersonRef] = Field(description="Other concierges who have it open now.")
    sla: SlaOut | None = Field(None, description="Null when the company has no promise.")
    rating: DeskRatingOut | None = Field(None, description="The employee's rating, once given.")


class DeskRequestDetailOut(Schema):
    request: DeskRequestOut


class AssignIn(Schema):
    assignee_id: int | None = Field(description="A concierge's user id, or null to unassign.")


class StatusIn(Schema):
    action: Literal["start", "complete", "reopen", "undo_complete"] = Field(
        description="start: In Queue → In Progress; complete: → Completed; "
        "reopen: Completed → In Queue; undo_complete: Completed → the status it was completed "
        "from, within COMPLETION_UNDO_SECONDS of the completion (its email is never sent)."
    )


class ReplyIn(Schema):
    model_config = ConfigDict(json_schema_extra=document_required("body"))

    body: str = Field("", max_length=BODY_MAX)
    attachment_keys: list[str] = Field(default_factory=list, max_length=10)


class ReplyCreateIn(Schema):
    message: ReplyIn


class DeskRequestChangeOut(Schema):
    """What a reply can change of the request as the desk shows it (`DeskRequestOut`'s
    fields of the same names)."""

    id: int
    status: RequestStatus = Field(
        description="open ('In Queue'), in_progress, or closed ('Completed')."
    )
    assignee: PersonRef | None
    last_message_at: datetime | None
    waiting_on: Literal["concierge", "employee"]
    sla: SlaOut | None = Field(description="Null when the company has no promise.")


class ReplyCreatedOut(Schema):
    message: MessageOut = Field(description="The reply, as the thread shows it.")
    # Not `request`: a desk page loaded before this answer existed reads `request` as the
    # whole request; without one it keeps what it shows and takes the reply from its live update.
    change: DeskRequestChangeOut = Field(description="What the reply changed of the request.")


class NoteIn(Schema):
    model_config = ConfigDict(json_schema_extra=document_required("body"))

    body: str = Field("", max_length=NOTE_MAX)


class NoteCreatedOut(Schema):
    note: NoteOut


class PresenceOut(Schema):
    viewers: list[PersonRef] = Field(description="Other concierges who have it open now.")


class ConciergeOut(Schema):
    id: int
    full_name: str
    email: str


class ConciergeListOut(Schema):
    concierges: list[ConciergeOut]


class SavedReplyOut(Schema):
    id: int
    title: str
    body: str = Field(description="The text with its placeholders, as saved.")
    updated_by: PersonRef | None
    updated_at: datetime


class SavedReplyListOut(Schema):
    saved_replies: list[SavedReplyOut]


class SavedReplyIn(Schema):
    title: str = Field(max_length=1000)
    body: str = Field(max_length=20_000)


class SavedReplyDetailOut(Schema):
    saved_reply: SavedReplyOut


class FilledReplyOut(Schema):
    id: int
    title: str
    text: str = Field(
        description="The body with {first_name}, {request_name} and "
        "{concierge_first_name} filled in for this request and concierge."
    )


class FilledReplyListOut(Schema):
    saved_replies: list[FilledReplyOut]


class SearchResultOut(Schema):
    id: int
    name: str
    status: RequestStatus
    company: CompanyRef | None
    employee: EmployeeRef
    issued_at: datetime
    assignee: PersonRef | None
    match: Literal["request", "message", "note"] = Field(
        description="Where the best match is: the request (name or survey answers), a "
        "message, or an internal note."
    )
    snippet_html: str = Field(
        description="The best match's text, escaped, with the matching words in <mark>."
    )
    rank: float = Field(description="Higher is better.")


class SearchOut(Schema):
    query: str
    results: list[SearchResultOut]
