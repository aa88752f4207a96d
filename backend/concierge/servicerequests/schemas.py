from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any
from uuid import UUID

from django.core.serializers.json import DjangoJSONEncoder
from ninja import Header, Schema
from pydantic import ConfigDict, Field

from concierge.common.openapi import document_required
from concierge.servicerequests.choices import MessageSource, RequestStatus
from concierge.servicerequests.selectors import THREAD_PAGE_MAX, THREAD_PAGE_SIZE
from concierge.servicerequests.services import BODY_MAX

if TYPE_CHECKING:
    from concierge.servicerequests.selectors import MessageRow, ThreadPage

_JSON_ENCODER = DjangoJSONEncoder()  # what Ninja's renderer uses for datetimes


class AttachmentOut(Schema):
    key: str
    filename: str
    content_type: str
    size: int | None


class MessageOut(Schema):
    id: int
    body_html: str = Field(description="Sanitised HTML: only <a href> and <br>.")
    source: MessageSource = Field(description="'user' (the employee) or 'life_concierge'.")
    source_name: str
    external_created_at: datetime
    attachment_keys: list[str]
    attachments: list[AttachmentOut]
    reopened_request: bool = Field(
        False, description="The employee sent this to a Completed request, which reopened it."
    )
    by_email: bool = Field(
        False, description="The employee wrote it by replying to a notification email."
    )


class RequestListItemOut(Schema):
    """A request as the lists show it: no details, no thread (GET /requests/{id} has them)."""

    id: int
    external_id: UUID
    name: str
    status: RequestStatus = Field(
        description="open ('In Queue'), in_progress, or closed ('Completed')."
    )
    issued_at: datetime
    created_at: datetime
    survey_category_id: int | None
    survey_category_name: str | None
    survey_category_image_url: str | None
    survey_category_icon: str | None
    last_message_at: datetime | None
    unread: bool = Field(
        description="A concierge's reply came after the employee last opened the thread "
        "(GET /requests/{id} marks it seen). Always false in a request's own answer."
    )


class RequestOut(RequestListItemOut):
    """A request with its details and the newest page of its thread."""

    details: str
    expect_reply_by: datetime | None = Field(
        None,
        description="When to expect the concierge's first reply, on the company's business "
        "calendar; null once it came, or when the company has no reply-time promise.",
    )
    messages: list[MessageOut] = Field(
        description="The thread's newest page (up to 50), oldest first."
    )
    older_cursor: str | None = Field(
        None,
        description="Set when older messages exist; pass it as `before` to "
        "GET /requests/{id}/messages for the page before. Null when the thread starts here.",
    )


class RequestListOut(Schema):
    requests: list[RequestListItemOut]


class UnreadCountOut(Schema):
    count: int = Field(
        description="The signed-in user's requests (any status) with a concierge's reply they "
        "have not opened yet."
    )


class RequestDetailOut(Schema):
    request: RequestOut


class ThreadPageOut(Schema):
    messages: list[MessageOut] = Field(description="Oldest first.")
    older_cursor: str | None = Field(
        description="Set when still older messages exist: the `before` of the next page."
    )


class ThreadPageQuery(Schema):
    before: str | None = Field(
        None,
        pattern=r"^[1-9][0-9]{0,17}$",
        description="An `older_cursor`: only messages before it. The newest page when absent.",
    )
    limit: int = Field(THREAD_PAGE_SIZE, ge=1, le=THREAD_PAGE_MAX, description="Messages per page.")


class MessageIn(Schema):
    model_config = ConfigDict(json_schema_extra=document_required("body"))

    body: str = Field("", max_length=BODY_MAX)
    source: str = Field("user", max_length=30, description="Always stored as 'user'.")
    source_name: str = Field("", max_length=200, description="Ignored: the sender's full name.")
    attachment_keys: list[str] = Field(default_factory=list, max_length=10)


class MessageCreateIn(Schema):
    message: MessageIn
    reopen: bool = Field(
        False,
        description="Required (true) to write to a Completed request: the message reopens it "
        "(back to In Queue). Without it such a message is refused with 409.",
    )


def idempotency_key_header(created: str) -> Any:
    """The optional Idempotency-Key header of a message-creating endpoint (both sides)."""
    return Header(
        None,
        alias="Idempotency-Key",
        description=f"Send the same value when retrying: the {created} is created once.",
    )


def json_datetime(value: datetime | None) -> str | None:
    """A datetime written as the API's JSON encoder writes it (milliseconds, 'Z' for UTC)."""
    return None if value is None else _JSON_ENCODER.default(value)


def message_data(message: MessageRow) -> dict[str, Any]:
    """A message as both sides' threads show it (MessageOut's fields, ready for JSON): plain
    values, no schema validation on the hot path."""
    attachments = [attachment._asdict() for attachment in message.attachments]
    return {
        "id": message.id,
        "body_html": message.body_html,
        "source": message.source,
        "source_name": message.source_name,
        "external_created_at": message.external_created_at,
        "attachment_keys": [attachment.key for attachment in message.attachments],
        "attachments": attachments,
        "reopened_request": message.reopened_request,
        "by_email": message.by_email,
    }


def thread_page_data(page: ThreadPage) -> dict[str, Any]:
    """ThreadPageOut's fields as plain JSON values."""
    return {
        "messages": [message_data(m) for m in page.messages],
        "older_cursor": page.older_cursor,
    }


def message_out(message: MessageRow) -> MessageOut:
    """A message as both sides' threads show it."""
    return MessageOut.model_validate(message_data(message))


class SeenByOut(Schema):
    name: str = Field(description="The first name of who opened it.")
    role: str = Field(description="concierge, staff or superuser.")
    at: datetime = Field(description="When they last opened it.")


class SeenByListOut(Schema):
    seen_by: list[SeenByOut] = Field(
        description="Who on the concierge side opened the request, its thread or its "
        "attachments, newest first (each person once)."
    )
