"""Desk writes: internal notes and presence. Request writes (replies, status, assignment)
live in `concierge.servicerequests.services`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.core.cache import cache
from django.db import transaction

from concierge.accounts.selectors.concierges import audit_role
from concierge.audit import actions as audit_actions
from concierge.audit.services import audit_record_opening
from concierge.common.cache import CACHE_ERRORS, cache_unavailable
from concierge.common.errors import ValidationFailed
from concierge.common.validation import too_long
from concierge.concierge_desk.models import InternalNote
from concierge.concierge_desk.selectors import PRESENCE_TTL_SECONDS, presence_key
from concierge.live import events
from concierge.live.publish import event_publish
from concierge.servicerequests.services import request_work_record

if TYPE_CHECKING:
    from django.http import HttpRequest

    from concierge.accounts.models import User
    from concierge.servicerequests.models import ServiceRequest

NOTE_MAX = 10_000
NOTE_REQUIRED = "Please write the note."
NOTE_TOO_LONG = too_long(NOTE_MAX)


def note_create(*, request: ServiceRequest, author: User, body: str) -> InternalNote:
    """An internal note: concierges only, never shown to the employee. Publishes a
    staff-only `note.created` event after the commit."""
    text = (body or "").strip()
    if not text:
        raise ValidationFailed.for_field("body", NOTE_REQUIRED)
    if len(text) > NOTE_MAX:
        raise ValidationFailed.for_field("body", NOTE_TOO_LONG)
    with transaction.atomic():
        note = InternalNote.objects.create(request=request, author=author, body=text)
        event_publish(
            type=events.NOTE_CREATED,
            request_id=request.pk,
            owner_id=request.user_id,
            staff_only=True,
            note_id=note.pk,
        )
        request_work_record(audit_actions.NOTE_ADDED, request, author, {"note_id": note.pk})
    return note


# --------------------------------------------------------------------------- presence


def presence_touch(*, request_id: int, user: User) -> None:
    """`user` has request `request_id` open: keep them listed for PRESENCE_TTL_SECONDS (the
    SPA sends a heartbeat every ~10 s). One cache key per concierge, so two heartbeats never
    overwrite each other. A concierge who just arrived is announced to the other concierges
    with a staff-only `presence.updated` event."""
    key = presence_key(request_id, user.pk)
    try:
        arrived = cache.add(key, user.full_name, PRESENCE_TTL_SECONDS)
        if not arrived:
            cache.set(key, user.full_name, PRESENCE_TTL_SECONDS)
    except CACHE_ERRORS as exc:  # presence is best-effort
        cache_unavailable("presence", exc)
        return
    if arrived:
        _announce(request_id)


def presence_leave(*, request_id: int, user: User) -> None:
    try:
        left = cache.delete(presence_key(request_id, user.pk))
    except CACHE_ERRORS as exc:
        cache_unavailable("presence", exc)
        return
    if left:
        _announce(request_id)


def _announce(request_id: int) -> None:
    event_publish(
        type=events.PRESENCE_UPDATED, request_id=request_id, owner_id=None, staff_only=True
    )


# --------------------------------------------------------------------------- openings


def request_opening_record(
    *, http_request: HttpRequest, user: User, request_id: int, employee_id: int | None, kind: str
) -> None:
    """Someone on the concierge side opened a request ("request": its page, with the
    employee's profile; "thread": its messages), in the audit trail: once per person, object
    and kind per window, not per poll. The employee sees these openings ("Seen by")."""
    role = audit_role(user)
    action = audit_actions.REQUEST_OPENED if kind == "request" else audit_actions.THREAD_OPENED
    audit_record_opening(
        http_request, action=action, actor_role=role, target_type="request", target_id=request_id
    )
    if kind == "request" and employee_id is not None:
        audit_record_opening(
            http_request,
            action=audit_actions.PROFILE_OPENED,
            actor_role=role,
            target_type="user",
            target_id=employee_id,
            details={"request_id": request_id},
        )
