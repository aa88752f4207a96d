"""Request and message writes."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from datetime import timedelta
from functools import cache
from typing import TYPE_CHECKING, Protocol

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from concierge.accounts.selectors.concierges import audit_role, user_is_concierge
from concierge.accounts.selectors.users import user_full_name
from concierge.accounts.services.identity import user_request_count_add
from concierge.audit import actions as audit_actions
from concierge.audit.middleware import request_actor
from concierge.audit.services import audit_record
from concierge.common.errors import ApiError, ValidationFailed
from concierge.common.sql_rows import ModelInsert
from concierge.common.validation import too_long
from concierge.live import events
from concierge.live.publish import event_publish
from concierge.notification_settings.notify import push_notify
from concierge.notification_settings.services import PushSubject
from concierge.notifications.background import enqueue_on_commit
from concierge.service_levels import services as reply_clock
from concierge.servicerequests.html import html_to_text, text_to_html
from concierge.servicerequests.models import Message, MessageAttachment, ServiceRequest
from concierge.servicerequests.selectors import waiting_on_source
from concierge.servicerequests.tasks import reply_notification_send
from concierge.uploads.services import ATTACHMENT_NOT_FOUND, uploads_for_message

if TYPE_CHECKING:
    from concierge.accounts.models import User

BODY_MAX = 10_000
NAME_MAX = 200
IDEMPOTENCY_KEY_MAX = 200
# Message.source_name's column: a first and a last name (150 each) can be longer.
SOURCE_NAME_MAX = 200
USER_MAX_ATTACHMENTS = 1  # spec §5 and §9: one file per message
CONCIERGE_MAX_ATTACHMENTS = 10
BODY_REQUIRED = "Please enter a message."
# Characters that show nothing (zero-width spaces and joiners, the word joiner, the byte-order
# mark): a message of only these and whitespace is as empty as a blank one (spec §5).
_INVISIBLE = re.compile("[\u200b-\u200d\u2060\ufeff]")
BODY_TOO_LONG = too_long(BODY_MAX)
IDEMPOTENCY_KEY_INVALID = (
    f"The Idempotency-Key header must be 1 to {IDEMPOTENCY_KEY_MAX} characters."
)
IDEMPOTENCY_KEY_REUSED = "This Idempotency-Key was already used for a message on another request."
ALREADY_ATTACHED = "That file is already attached to another message. Please upload it again."
NOT_A_CONCIERGE = "Requests can only be assigned to a concierge."
ALREADY_CLAIMED = "{name} is already working on this request. Use Assign to take it over."
REQUEST_COMPLETED = (
    "This request is completed. Reopen it to send your message, or start a new request."
)

Status = ServiceRequest.Status
# Every message is written through this INSERT (see `sql_rows.ModelInsert`).
_MESSAGE_INSERT = ModelInsert(Message)
UNDO_COMPLETE = "undo_complete"
# Concierge status actions: action → (statuses it applies to, resulting status). Undoing a
# completion goes back to the status the request was completed from (In Progress when unknown).
STATUS_ACTIONS: dict[str, tuple[frozenset[str], str]] = {
    "start": (frozenset({Status.OPEN}), Status.IN_PROGRESS),
    "complete": (frozenset({Status.OPEN, Status.IN_PROGRESS}), Status.CLOSED),
    "reopen": (frozenset({Status.CLOSED}), Status.OPEN),
    UNDO_COMPLETE: (frozenset({Status.CLOSED}), Status.IN_PROGRESS),
}
STATUS_ACTION_REFUSED: dict[tuple[str, str], str] = {
    ("start", Status.IN_PROGRESS): "This request is already In Progress.",
    ("start", Status.CLOSED): "This request is Completed. Reopen it before starting it again.",
    ("complete", Status.CLOSED): "This request is already Completed.",
    ("reopen", Status.OPEN): "Only a Completed request can be reopened; this one is In Queue.",
    ("reopen", Status.IN_PROGRESS): (
        "Only a Completed request can be reopened; this one is In Progress."
    ),
    (UNDO_COMPLETE, Status.OPEN): "This request is no longer Completed: nothing to undo.",
    (UNDO_COMPLETE, Status.IN_PROGRESS): "This request is no longer Completed: nothing to undo.",
}
UNDO_TOO_LATE = (
    "It's too late to undo this completion. Use Reopen to put the request back in the queue."
)
UNKNOWN_STATUS_ACTION = "Choose start, complete, reopen or undo_complete."


class CompletionFollowUp(Protocol):
    def __call__(self, *, request: ServiceRequest) -> None: ...


# What the apps built on this one do when a request is completed (satisfaction: the rating
# email). Each registers its service when Django starts (its AppConfig.ready), as
# `uploads.selectors.request_attachable_register` is used, so this app never imports them and
# every completion runs them, whoever completes: the desk, Django admin or any other caller.
_completion_follow_ups: list[CompletionFollowUp] = []


def request_completion_follow_up_register(follow_up: CompletionFollowUp) -> None:
    if follow_up not in _completion_follow_ups:
        _completion_follow_ups.append(follow_up)


def _publish_request(service_request: ServiceRequest, event_type: str) -> None:
    event_publish(
        type=event_type,
        request_id=service_request.pk,
        owner_id=service_request.user_id,
        status=service_request.status,
    )


def request_create(
    *,
    user: User,
    name: str,
    details: str = "",
    survey_category_id: int | None = None,
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
            survey_category_id=survey_category_id,
            status=ServiceRequest.Status.OPEN,
            issued_at=now,
            created_at=now,
        )
        user_request_count_add(user=user)
        reply_clock.clock_start(request_id=service_request.pk, employee=user, at=now)
        _publish_request(service_request, events.REQUEST_CREATED)
        push_notify(kind="new_request", request_id=service_request.pk, all_concierges=True)
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
    reopen: bool = False,
    by_email: bool = False,
) -> Message:
    """Add a message to a request's thread (see `_message_create`)."""
    message, _ = _message_create(
        request=request,
        author=author,
        body=body,
        source=source,
        source_name=source_name,
        attachment_keys=attachment_keys,
        idempotency_key=idempotency_key,
        reopen=reopen,
        by_email=by_email,
    )
    return message


def _message_create(
    *,
    request: ServiceRequest,
    author: User | None,
    body: str,
    source: str = Message.Source.USER,
    source_name: str = "",
    attachment_keys: Sequence[str] = (),
    idempotency_key: str | None = None,
    reopen: bool = False,
    by_email: bool = False,
    request_changes: Mapping[str, object] | None = None,
    then: Callable[[Message], None] | None = None,
) -> tuple[Message, bool]:
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
    - A message from the employee to a Completed (closed) request needs `reopen`: without it
      the message is refused (409, REQUEST_COMPLETED) and nothing changes, so a request is
      never reopened silently. With it the request goes back to the queue (open) and the
      message is marked `reopened_request`, which the desk shows as 'Reopened by <employee>
      with a new message'. The status is read under a row lock, so a concierge completing the
      request at the same moment cannot slip past the rule. A concierge's message leaves the
      status as it is here (see `concierge_reply_create` for the desk's reply rules).
    - `by_email`: the employee wrote it by replying to a notification email (reply by email);
      the threads show it.
    - The employee writing counts as having seen the thread (`seen_by_employee_at`).
    - `request_changes`: the caller's own changes to the request's fields, written by the
      message's UPDATE of the request (not for an idempotent retry).
    - After the commit, `message.created` (and `request.updated` when it reopened the
      request or `request_changes` changed it) is published to the live event streams, with
      the status the message left.
    - `then(message)` runs in the message's transaction once it is written (not for an
      idempotent retry): the caller's own writes commit or roll back with the message.

    Returns the message and whether it was created now (False: an idempotent retry). A
    created message leaves `request` as it now stands: its status, times and reply-time clock.
    """
    if author is None:
        idempotency_key = None
    if idempotency_key is not None:
        idempotency_key = idempotency_key.strip()
        if not idempotency_key or len(idempotency_key) > IDEMPOTENCY_KEY_MAX:
            raise ValidationFailed.for_field("idempotency_key", IDEMPOTENCY_KEY_INVALID)
        existing = _message_for_idempotency_key(author=author, key=idempotency_key, request=request)
        if existing is not None:
            return existing, False

    text = (body or "").strip()
    if not _INVISIBLE.sub("", text).strip():
        raise ValidationFailed.for_field("body", BODY_REQUIRED)
    if len(text) > BODY_MAX:
        raise ValidationFailed.for_field("body", BODY_TOO_LONG)

    from_owner = author is not None and author.pk == request.user_id
    if from_owner:
        assert author is not None
        source, source_name = Message.Source.USER, author.full_name[:SOURCE_NAME_MAX]
    else:
        if source not in Message.Source.values or source == Message.Source.USER:
            source = Message.Source.LIFE_CONCIERGE
        source_name = (source_name or (author.full_name if author else "")).strip()[
            :SOURCE_NAME_MAX
        ]

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
            reopens = False
            if from_owner:
                status = _status_locked(request.pk)
                request.status = status
                if status == ServiceRequest.Status.CLOSED:
                    if not reopen:
                        raise ApiError(REQUEST_COMPLETED, status_code=409)
                    reopens = True
            message = _MESSAGE_INSERT.save(
                Message(
                    request=request,
                    author=author,
                    source=source,
                    source_name=source_name,
                    body_html=text_to_html(text),
                    external_created_at=now,
                    idempotency_key=idempotency_key or "",
                    reopened_request=reopens,
                    by_email=by_email and from_owner,
                )
            )
            MessageAttachment.objects.bulk_create(
                MessageAttachment(message=message, upload=upload, position=index)
                for index, upload in enumerate(uploads)
            )
            changes: dict = {"last_message_at": now, "updated_at": now}
            if from_owner:
                changes["seen_by_employee_at"] = now
                if reopens:
                    changes["status"] = ServiceRequest.Status.OPEN
                    changes["completed_at"] = None
                    changes["completed_from"] = None
            changes.update(request_changes or {})
            ServiceRequest.objects.filter(pk=request.pk).update(**changes)
            clock = reply_clock.clock_on_message(
                request_id=request.pk, from_employee=source == Message.Source.USER, at=now
            )
            event_publish(
                type=events.MESSAGE_CREATED,
                request_id=request.pk,
                owner_id=request.user_id,
                message_id=message.pk,
                status=changes.get("status", request.status),
            )
            if "status" in changes or request_changes:
                event_publish(
                    type=events.REQUEST_UPDATED,
                    request_id=request.pk,
                    owner_id=request.user_id,
                    status=changes.get("status", request.status),
                )
            if from_owner:  # to the assignee, or every concierge while nobody is assigned
                push_notify(
                    kind="employee_reply",
                    request_id=request.pk,
                    message_id=message.pk,
                    user_ids=[request.assignee_id] if request.assignee_id else None,
                    all_concierges=request.assignee_id is None,
                )
            for field, value in changes.items():
                setattr(request, field, value)
            ServiceRequest._meta.get_field("reply_clock").set_cached_value(request, clock)  # type: ignore[union-attr]
            if then is not None:
                then(message)
    except IntegrityError:
        # A concurrent send with the same idempotency key, or the same upload, won the race.
        if idempotency_key is not None:
            existing = _message_for_idempotency_key(
                author=author, key=idempotency_key, request=request
            )
            if existing is not None:
                return existing, False
        raise ValidationFailed.for_field("attachment_keys", ALREADY_ATTACHED) from None
    return message, True


@cache
def _status_locked_sql(vendor: str) -> str:
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    table = connection.ops.quote_name(ServiceRequest._meta.db_table)
    return f"SELECT status FROM {table} WHERE id = %s{lock}"  # noqa: S608 (model table)


def _status_locked(request_id: int) -> str:
    """The request's status, its row locked until the transaction ends (written once: every
    employee message runs it, and the ORM took longer to compile it than to run it)."""
    with connection.cursor() as cursor:
        cursor.execute(_status_locked_sql(connection.vendor), [request_id])
        (status,) = cursor.fetchone()
    return status


def _message_for_idempotency_key(
    *, author: User | None, key: str, request: ServiceRequest
) -> Message | None:
    if author is None:
        return None
    message = Message.objects.filter(author=author, idempotency_key=key).first()
    if message is not None and message.request_id != request.pk:
        raise ValidationFailed.for_field("idempotency_key", IDEMPOTENCY_KEY_REUSED)
    return message


# =========================================================================== the concierge desk


def concierge_source_name(*, concierge: User) -> str:
    """How a concierge signs replies to the employee: 'Casey from Concierge'."""
    return f"{concierge.first_name or 'Your concierge'} from {settings.PRODUCT_NAME}"[:200]


def concierge_reply_create(
    *,
    request: ServiceRequest,
    author: User,
    body: str,
    attachment_keys: Sequence[str] = (),
    idempotency_key: str | None = None,
) -> Message:
    """A concierge's reply (source 'life_concierge', signed 'Casey from Concierge').

    In one transaction with the message:
    - a request In Queue moves to In Progress (someone is working on it now), and an
      unassigned request is assigned to the concierge who replied (in the message's own
      UPDATE of the request);
    - the employee's email notification is enqueued, to run after
      REPLY_NOTIFICATION_DELAY_SECONDS; it sends only if the employee has not opened the
      thread by then. It is enqueued when the reply commits (never for a rolled-back one).
    An idempotent retry (same Idempotency-Key) returns the first reply and changes nothing.
    """
    changes: dict[str, object] = {}
    if request.status == Status.OPEN:
        changes["status"] = Status.IN_PROGRESS
    if request.assignee_id is None:
        changes["assignee"] = author

    def reply_effects(message: Message) -> None:
        request_work_record(
            audit_actions.REPLY_SENT,
            request,
            author,
            {"message_id": message.pk, "attachments": len(attachment_keys)},
        )
        delay = max(0, int(settings.REPLY_NOTIFICATION_DELAY_SECONDS))
        notification = reply_notification_send
        if delay:
            notification = notification.using(run_after=timezone.now() + timedelta(seconds=delay))
        enqueue_on_commit(notification, message_id=message.pk)
        push_notify(
            kind="reply", request_id=request.pk, message_id=message.pk, user_ids=[request.user_id]
        )

    message, _ = _message_create(
        request=request,
        author=author,
        body=body,
        source=Message.Source.LIFE_CONCIERGE,
        source_name=concierge_source_name(concierge=author),
        attachment_keys=attachment_keys,
        idempotency_key=idempotency_key,
        request_changes=changes,
        then=reply_effects,
    )
    return message


def request_status_change(*, request: ServiceRequest, action: str) -> ServiceRequest:
    """Start (In Queue → In Progress), complete (In Queue or In Progress → Completed), reopen
    (Completed → In Queue) or undo a completion (Completed → the status it was completed
    from) a request: the one way the desk, Django admin and any other caller change a status.
    Any other move is a 422 saying why.

    In one transaction, with the row locked so two people clicking at once cannot both apply:
    `completed_at` (and `completed_from`) are set on completion and cleared otherwise;
    completing stops the reply-time clock and runs the completion follow-ups (the rating
    email, queued after the commit to be sent COMPLETION_EMAIL_DELAY_SECONDS later if this
    completion still stands then); reopening restarts the clock; `request.updated` is
    published to the live streams after the commit.

    Undo (`undo_complete`) is accepted for COMPLETION_UNDO_SECONDS after the completion
    (afterwards: 422, Reopen instead): the request goes back to what it was, its clock
    included (running again when the employee was waiting on the concierge, else paused),
    and the completion's email, still waiting, is never sent.
    """
    if action not in STATUS_ACTIONS:
        raise ValidationFailed.for_field("action", UNKNOWN_STATUS_ACTION)
    allowed, target = STATUS_ACTIONS[action]
    completes = target == Status.CLOSED
    with transaction.atomic():
        locked = ServiceRequest.objects.select_for_update().get(pk=request.pk)
        if locked.status not in allowed:
            message = STATUS_ACTION_REFUSED.get(
                (action, locked.status), f"This request can't be {action}ed now."
            )
            raise ValidationFailed.for_field("action", message)
        now = timezone.now()
        undoes = action == UNDO_COMPLETE
        if undoes:
            window = timedelta(seconds=settings.COMPLETION_UNDO_SECONDS)
            if locked.completed_at is None or now > locked.completed_at + window:
                raise ValidationFailed.for_field("action", UNDO_TOO_LATE)
            if locked.completed_from in (Status.OPEN, Status.IN_PROGRESS):
                target = locked.completed_from
        completed_from = locked.status if completes else None
        locked.status = target
        locked.completed_at = now if completes else None
        locked.completed_from = completed_from
        locked.save(update_fields=["status", "completed_at", "completed_from", "updated_at"])
        if completes or action == "reopen":
            reply_clock.clock_on_status(request_id=locked.pk, completed=completes, at=now)
        elif undoes:
            last_source = (
                Message.objects.filter(request_id=locked.pk)
                .order_by("-external_created_at", "-id")
                .values_list("source", flat=True)
                .first()
            )
            reply_clock.clock_on_completion_undone(
                request_id=locked.pk,
                at=now,
                waiting_on_concierge=waiting_on_source(last_source) == "concierge",
            )
        if completes:
            for follow_up in _completion_follow_ups:
                follow_up(request=locked)
            push_notify(
                kind="completion",
                request_id=locked.pk,
                user_ids=[locked.user_id] if locked.user_id else [],
                delay_seconds=settings.COMPLETION_EMAIL_DELAY_SECONDS,
            )
        _publish_request(locked, events.REQUEST_UPDATED)
        request_work_record(
            audit_actions.STATUS_CHANGED,
            locked,
            request_actor(),
            {"action": action, "from": request.status, "to": locked.status},
        )
    request.status = locked.status
    request.completed_at = locked.completed_at
    request.completed_from = locked.completed_from
    request.updated_at = locked.updated_at
    return request


def request_assignee_check(*, assignee: User | None) -> None:
    """A request is assigned to an active concierge or to nobody (None); anyone else: 422."""
    if assignee is not None and not (assignee.is_active and user_is_concierge(user=assignee)):
        raise ValidationFailed.for_field("assignee_id", NOT_A_CONCIERGE)


def request_assign(*, request: ServiceRequest, assignee: User | None) -> ServiceRequest:
    """Assign a request to a concierge, or unassign it (None). Only concierges (422)."""
    request_assignee_check(assignee=assignee)
    with transaction.atomic():
        ServiceRequest.objects.filter(pk=request.pk).update(
            assignee=assignee, updated_at=timezone.now()
        )
        previous = request.assignee_id
        request.assignee = assignee
        _publish_request(request, events.REQUEST_UPDATED)
        request_work_record(
            audit_actions.ASSIGNMENT_CHANGED,
            request,
            request_actor(),
            {"from": previous, "to": assignee.pk if assignee else None},
        )
    return request


def request_work_record(
    action: str, request: ServiceRequest, actor: User | None, details: dict[str, object]
) -> None:
    """Work on a request (a reply, a note, a status change, an assignment) in the audit trail:
    who and what, never the message text."""
    audit_record(
        action=action,
        actor=actor,
        actor_role=audit_role(actor),
        target_type="request",
        target_id=request.pk,
        details=details,
    )


def request_claim(*, request: ServiceRequest, concierge: User) -> ServiceRequest:
    """Take an unassigned request (assign it to me). Already mine: nothing changes. Someone
    else's: 409, so two concierges claiming at once never both think it is theirs."""
    with transaction.atomic():
        # No join here: after waiting on the lock, PostgreSQL re-reads the locked row but not
        # the joined one, so only the row's own assignee_id is current.
        locked = ServiceRequest.objects.select_for_update().only("assignee_id").get(pk=request.pk)
        if locked.assignee_id == concierge.pk:
            request.assignee = concierge
            return request
        if locked.assignee_id is not None:
            holder = user_full_name(user_id=locked.assignee_id)
            raise ApiError(ALREADY_CLAIMED.format(name=holder), status_code=409)
        return request_assign(request=request, assignee=concierge)


def request_mark_seen_by_employee(*, request: ServiceRequest) -> None:
    """The employee opened the thread: replies so far count as seen (no email for them, no
    unread mark: `selectors.request_unread_count_for_user`), and `request.seen` goes to the
    live streams, so the employee's other screens and tabs drop the mark too.

    Writes only when a message arrived since the last time, so reading a thread stays a read.
    """
    seen = request.seen_by_employee_at
    if seen is not None and (request.last_message_at is None or request.last_message_at <= seen):
        return
    now = timezone.now()
    ServiceRequest.objects.filter(pk=request.pk).update(seen_by_employee_at=now)
    request.seen_by_employee_at = now
    if request.last_message_at is not None:  # else there was nothing to see
        _publish_request(request, events.REQUEST_SEEN)


def push_subject_read(*, kind: str, request_id: int, message_id: int | None) -> PushSubject | None:
    """What a web push about a request says (`notification_settings` reads it when it sends):
    None when the request or the message is gone; not current when a completion was undone."""
    service_request = (
        ServiceRequest.objects.filter(pk=request_id).only("user_id", "name", "status").first()
    )
    if service_request is None or service_request.user_id is None:
        return None
    text = ""
    if message_id is not None:
        body_html = (
            Message.objects.filter(pk=message_id, request_id=request_id)
            .values_list("body_html", flat=True)
            .first()
        )
        if body_html is None:
            return None
        text = html_to_text(body_html)
    return PushSubject(
        owner_id=service_request.user_id,
        request_name=service_request.name,
        message_text=text,
        current=kind != "completion" or service_request.status == Status.CLOSED,
    )
