"""Request and message writes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from concierge.accounts.models import User
from concierge.common.errors import ValidationFailed
from concierge.servicerequests.html import text_to_html
from concierge.servicerequests.models import Message, MessageAttachment, ServiceRequest
from concierge.uploads.services import ATTACHMENT_NOT_FOUND, uploads_for_message

if TYPE_CHECKING:
    from concierge.surveys.models import SurveyCategory

BODY_MAX = 10_000
NAME_MAX = 200
IDEMPOTENCY_KEY_MAX = 200
USER_MAX_ATTACHMENTS = 1  # spec §5 and §9: one file per message
CONCIERGE_MAX_ATTACHMENTS = 10
BODY_REQUIRED = "Please enter a message."
BODY_TOO_LONG = f"Please use at most {BODY_MAX} characters."
IDEMPOTENCY_KEY_INVALID = (
    f"The Idempotency-Key header must be 1 to {IDEMPOTENCY_KEY_MAX} characters."
)
IDEMPOTENCY_KEY_REUSED = "This Idempotency-Key was already used for a message on another request."
ALREADY_ATTACHED = "That file is already attached to another message. Please upload it again."


def request_create(
    *,
    user: User,
    name: str,
    details: str = "",
    survey_category: SurveyCategory | None = None,
) -> ServiceRequest:
    """A new request in the queue (status open, issued now); the user's request_count goes up
    by one in the same transaction, with an F() update so concurrent creates never lose one."""
    name = " ".join(name.split())[:NAME_MAX] or "Request"
    now = timezone.now()
    with transaction.atomic():
        service_request = ServiceRequest.objects.create(
            user=user,
            name=name,
            details=details.strip(),
            survey_category=survey_category,
            status=ServiceRequest.Status.OPEN,
            issued_at=now,
            created_at=now,
        )
        User.objects.filter(pk=user.pk).update(request_count=F("request_count") + 1)
    user.refresh_from_db(fields=["request_count"])
    return service_request


def message_create(
    *,
    request: ServiceRequest,
    author: User | None,
    body: str,
    source: str = Message.Source.USER,
    source_name: str = "",
    attachment_keys: Sequence[str] = (),
    idempotency_key: str | None = None,
) -> Message:
    """Add a message to a request's thread.

    - The body is plain text, required and not whitespace-only (422); it is stored as
      sanitised HTML with clickable links and `<br>` line breaks.
    - A message by the request's owner (the employee) is always source 'user' with the
      owner's full name, whatever was asked; anyone else (a concierge) writes with the given
      concierge source, 'life_concierge' by default.
    - `attachment_keys` must name uploads by `author`, made for this request, really in
      storage and within the rules (else 422); at most one for the employee.
    - Idempotent: with an `idempotency_key`, the same author and key return the message
      created the first time instead of creating another (so a retried send is harmless).
      Keys are per author; a message without an author (a system message) ignores its key.
    - Decision (issue #3, 'a message to a closed request'): a message from the employee to a
      CLOSED request REOPENS it (status back to open, so it returns to the concierge queue)
      rather than refusing it: the employee has something more to say, and losing it behind
      an error would be worse. A concierge's message leaves the status as it is.
    """
    if author is None:
        idempotency_key = None
    if idempotency_key is not None:
        idempotency_key = idempotency_key.strip()
        if not idempotency_key or len(idempotency_key) > IDEMPOTENCY_KEY_MAX:
            raise ValidationFailed.for_field("idempotency_key", IDEMPOTENCY_KEY_INVALID)
        existing = _message_for_idempotency_key(author=author, key=idempotency_key, request=request)
        if existing is not None:
            return existing

    text = (body or "").strip()
    if not text:
        raise ValidationFailed.for_field("body", BODY_REQUIRED)
    if len(text) > BODY_MAX:
        raise ValidationFailed.for_field("body", BODY_TOO_LONG)

    from_owner = author is not None and author.pk == request.user_id
    if from_owner:
        assert author is not None
        source, source_name = Message.Source.USER, author.full_name
    else:
        if source not in Message.Source.values or source == Message.Source.USER:
            source = Message.Source.LIFE_CONCIERGE
        source_name = (source_name or (author.full_name if author else "")).strip()[:200]

    uploads = []
    if attachment_keys:
        if author is None:
            raise ValidationFailed.for_field("attachment_keys", ATTACHMENT_NOT_FOUND)
        uploads = uploads_for_message(
            keys=attachment_keys,
            owner=author,
            request_id=request.pk,
            max_count=USER_MAX_ATTACHMENTS if from_owner else CONCIERGE_MAX_ATTACHMENTS,
        )
        if MessageAttachment.objects.filter(upload__in=uploads).exists():
            raise ValidationFailed.for_field("attachment_keys", ALREADY_ATTACHED)

    now = timezone.now()
    try:
        with transaction.atomic():
            message = Message.objects.create(
                request=request,
                author=author,
                source=source,
                source_name=source_name,
                body_html=text_to_html(text),
                external_created_at=now,
                idempotency_key=idempotency_key or "",
            )
            MessageAttachment.objects.bulk_create(
                MessageAttachment(message=message, upload=upload, position=index)
                for index, upload in enumerate(uploads)
            )
            changes: dict = {"last_message_at": now, "updated_at": now}
            if from_owner and request.status == ServiceRequest.Status.CLOSED:
                changes["status"] = ServiceRequest.Status.OPEN
            ServiceRequest.objects.filter(pk=request.pk).update(**changes)
    except IntegrityError:
        # A concurrent send with the same idempotency key, or the same upload, won the race.
        if idempotency_key is not None:
            existing = _message_for_idempotency_key(
                author=author, key=idempotency_key, request=request
            )
            if existing is not None:
                return existing
        raise ValidationFailed.for_field("attachment_keys", ALREADY_ATTACHED) from None
    for field, value in changes.items():
        setattr(request, field, value)
    return message


def _message_for_idempotency_key(
    *, author: User | None, key: str, request: ServiceRequest
) -> Message | None:
    if author is None:
        return None
    message = Message.objects.filter(author=author, idempotency_key=key).first()
    if message is not None and message.request_id != request.pk:
        raise ValidationFailed.for_field("idempotency_key", IDEMPOTENCY_KEY_REUSED)
    return message
