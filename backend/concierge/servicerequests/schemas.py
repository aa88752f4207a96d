from __future__ import annotations

from datetime import datetime
from uuid import UUID

from ninja import Schema
from pydantic import ConfigDict, Field

from concierge.common.openapi import document_required
from concierge.servicerequests.models import Message


class AttachmentOut(Schema):
    key: str
    filename: str
    content_type: str
    size: int | None


class MessageOut(Schema):
    id: int
    body_html: str = Field(description="Sanitised HTML: only <a href> and <br>.")
    source: str = Field(description="'user' (the employee) or 'life_concierge' (MessageSource).")
    source_name: str
    external_created_at: datetime
    attachment_keys: list[str]
    attachments: list[AttachmentOut]


class RequestOut(Schema):
    id: int
    external_id: UUID
    name: str
    status: str = Field(
        description="open ('In Queue'), in_progress, or closed ('Completed') (RequestStatus)."
    )
    issued_at: datetime
    details: str
    created_at: datetime
    survey_category_id: int | None
    survey_category_name: str | None
    survey_category_image_url: str | None
    survey_category_icon: str | None
    last_message_at: datetime | None
    messages: list[MessageOut] = Field(description="Empty in lists; the thread in detail.")


class RequestListOut(Schema):
    requests: list[RequestOut]


class RequestDetailOut(Schema):
    request: RequestOut


class MessageIn(Schema):
    model_config = ConfigDict(json_schema_extra=document_required("body"))

    body: str = Field("", max_length=20_000)
    source: str = Field("user", max_length=30, description="Always stored as 'user'.")
    source_name: str = Field("", max_length=200, description="Ignored: the sender's full name.")
    attachment_keys: list[str] = Field(default_factory=list, max_length=10)


class MessageCreateIn(Schema):
    message: MessageIn


def message_out(message: Message) -> MessageOut:
    """A message as both sides' threads show it (attachment links must be prefetched)."""
    links = list(message.attachment_links.all())
    return MessageOut(
        id=message.pk,
        body_html=message.body_html,
        source=message.source,
        source_name=message.source_name,
        external_created_at=message.external_created_at,
        attachment_keys=[link.upload.key for link in links],
        attachments=[
            AttachmentOut(
                key=link.upload.key,
                filename=link.upload.filename,
                content_type=link.upload.content_type,
                size=link.upload.size,
            )
            for link in links
        ],
    )
