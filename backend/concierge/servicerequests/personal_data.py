"""The requests' part of a person's data (issue 27): their requests and threads for 'Download
my data', and what an erasure or a retention window removes from them. Called by
`concierge.privacy` only.

Requests stay as rows (the company's figures count them, by employee and date); their
content goes: the employee's messages keep their place in the thread with an erased body,
the concierge's replies keep their text with the person's name and addresses taken out."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from django.db import transaction

from concierge.common.redaction import redact
from concierge.servicerequests.models import Message, ServiceRequest
from concierge.servicerequests.selectors import request_get_for_user

ERASED_HTML = "<p>(erased)</p>"
ERASED_NAME = "Erased request"


def requests_export(*, user: Any) -> list[dict[str, Any]]:
    """The person's requests, each with its thread as the request page shows it (the
    messages' HTML and attachments' keys and names); oldest first."""
    requests = (
        ServiceRequest.objects.filter(user=user)
        .select_related("survey_category")
        .prefetch_related("messages__attachments")
        .order_by("issued_at", "id")
    )
    return [
        {
            "id": request.pk,
            "external_id": str(request.external_id),
            "name": request.name,
            "status": request.status,
            "category": request.survey_category.name if request.survey_category else None,
            "details": request.details,
            "issued_at": request.issued_at.isoformat(),
            "completed_at": request.completed_at.isoformat() if request.completed_at else None,
            "messages": [
                {
                    "source": message.source,
                    "source_name": message.source_name,
                    "body_html": message.body_html,
                    "created_at": message.external_created_at.isoformat(),
                    "attachments": [
                        {"key": upload.key, "filename": upload.filename}
                        for upload in message.attachments.all()
                    ],
                }
                for message in request.messages.all()
            ],
        }
        for request in requests
    ]


def request_ids_for_user(*, user: Any) -> list[int]:
    return list(ServiceRequest.objects.filter(user=user).values_list("id", flat=True))


@transaction.atomic
def requests_erase_for_user(*, user: Any, terms: Sequence[str]) -> dict[str, int]:
    """The person's messages lose their text and sender name; the concierge's replies lose
    the person's name and addresses; the requests lose their details (and a name that
    carries the person's)."""
    own = Message.objects.filter(request__user=user, source=Message.Source.USER)
    erased = own.update(body_html=ERASED_HTML, source_name="", author=None, idempotency_key="")
    redacted = 0
    for message in Message.objects.filter(request__user=user).exclude(source=Message.Source.USER):
        body, name = redact(message.body_html, terms), redact(message.source_name, terms)
        if (body, name) != (message.body_html, message.source_name):
            Message.objects.filter(pk=message.pk).update(body_html=body, source_name=name)
            redacted += 1
    for request in ServiceRequest.objects.filter(user=user):
        name = redact(request.name, terms)
        request.name = ERASED_NAME if name != request.name else name
        request.details = ""
        request.save(update_fields=["name", "details", "updated_at"])
    return {"messages_erased": erased, "replies_redacted": redacted}


def requests_completed_before(*, company_ids: Iterable[int], before: datetime) -> list[int]:
    """Ids of the companies' employees' requests completed (and still so) before `before`."""
    rows = ServiceRequest.objects.filter(
        user__companies__id__in=list(company_ids),
        status=ServiceRequest.Status.CLOSED,
        completed_at__lt=before,
    )
    return sorted(set(rows.values_list("id", flat=True)))


@transaction.atomic
def requests_erase_content(*, request_ids: Sequence[int]) -> int:
    """A retention window's erasure: every message of the requests (both sides) loses its
    text; the requests lose their details. Their rows, dates and statuses stay for the
    company's figures. The number of messages erased."""
    erased = Message.objects.filter(request_id__in=request_ids).update(
        body_html=ERASED_HTML, idempotency_key=""
    )
    ServiceRequest.objects.filter(pk__in=request_ids).update(details="")
    return erased


def request_retention_facts(*, user: Any, request_id: int) -> tuple[str, datetime | None]:
    """The status and completion time of `user`'s own request (NotFound for another's)."""
    request = request_get_for_user(user=user, request_id=request_id)
    return request.status, request.completed_at
