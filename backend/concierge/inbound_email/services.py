"""Reply by email: an email sent to a request's reply address becomes the employee's message in
that request's thread, or is refused with a short note to the sender (nothing written), or is
dropped (auto-replies, bounces). Both ways in (the provider's webhook, the SMTP receiver) hand
the raw message to `inbound_email_receive`. Every email received is recorded (`InboundEmail`,
never the body)."""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from email.message import EmailMessage
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from concierge.accounts.selectors.memberships import user_access_ended_company
from concierge.common.cache import CACHE_ERRORS
from concierge.common.errors import ApiError
from concierge.inbound_email import parsing
from concierge.inbound_email.models import InboundEmail
from concierge.notifications.services import email_enqueue
from concierge.servicerequests.choices import MessageSource
from concierge.servicerequests.reply_address import (
    ReplyTokenInvalid,
    reply_token_from_address,
    reply_token_read,
    request_email_headers,
)
from concierge.servicerequests.selectors import request_with_employee
from concierge.servicerequests.services import BODY_MAX, message_create
from concierge.uploads.files import file_size_label
from concierge.uploads.services import TOO_MANY_ATTACHMENTS, upload_from_bytes

if TYPE_CHECKING:
    from concierge.accounts.models import User
    from concierge.servicerequests.models import Message, ServiceRequest

logger = logging.getLogger(__name__)

ERASED_SUFFIX = "@erased.invalid"
RATE_SCOPE = "inbound_email"
# Any number: with the employee's id, the key of the advisory lock their accepted emails take
# turns on (`_employee_turn`).
ACCEPT_LOCK_KEY = 728_001
BOUNCE_WINDOW_SECONDS = 3600
RECIPIENT_HEADERS = ("Delivered-To", "X-Original-To", "To", "Cc")

Outcome = InboundEmail.Outcome

# Why an email was refused or dropped (InboundEmail.reason) → the note sent back (None: none).
NOTES: dict[str, str | None] = {
    "too_large": (
        "Your email is larger than we accept ({limit}), so it was not added to your request. "
        "Please send a shorter email, or add the file in the app."
    ),
    "no_reply_address": (
        "This address does not take emails. To write to your concierge, reply to a "
        "notification email about your request, or use the app."
    ),
    "token_invalid": (
        "We could not tell which request your email answers, so it was not added. Please "
        "reply to the latest notification email about your request, or use the app."
    ),
    "token_expired": (
        "The email you answered is too old to reply to, so your email was not added to your "
        "request. Please reply to a newer notification email, or use the app."
    ),
    "request_missing": (
        "The request your email answers no longer exists, so your email was not added. "
        "Please start a new request in the app."
    ),
    "erased": None,
    "deactivated": (
        "Your account can no longer send messages, so your email was not added to a request."
    ),
    "company_disabled": (
        "Replying by email is turned off for your company, so your email was not added to "
        "your request. Please write to your concierge in the app."
    ),
    "sender_mismatch": (
        "Your email was not added to a request: it did not come from the address the "
        "request's notifications are sent to. Please reply from that address, or use the app."
    ),
    "dmarc_failed": (
        "Your email was not added to a request: your mail provider could not confirm that it "
        "really came from your address. Please use the app."
    ),
    "replay": (
        "We had already received this email, so it was not added to your request a second time."
    ),
    "rate_limited": (
        "You have sent many emails to your requests in a short time, so this one was not "
        "added. Please wait a while, or use the app."
    ),
    "empty": (
        "We could not find any text in your email, so it was not added to your request. "
        "Please write your message above the quoted email, or use the app."
    ),
    "too_long": (
        f"Your email is longer than a message may be ({BODY_MAX} characters), so it was not "
        "added to your request. Please send a shorter one, or use the app."
    ),
    "refused": "Your email could not be added to your request. Please use the app.",
    "auto_reply": None,
    "bounce": None,
}


@dataclass
class InboundResult:
    """What became of an email (its record's outcome and reason)."""

    outcome: str
    reason: str = ""
    record: InboundEmail | None = None
    attachments_skipped: list[str] = field(default_factory=list)


@dataclass
class _Mail:
    raw_size: int
    message: EmailMessage
    path: str
    sender: str
    email_message_id: str
    subject: str
    envelope_sender: str | None


def inbound_email_receive(
    raw: bytes,
    *,
    path: str,
    provider_verdicts: Mapping[str, str] | None = None,
    envelope_sender: str | None = None,
    envelope_recipients: Sequence[str] = (),
) -> InboundResult:
    """Take one raw email (RFC 5322 bytes) sent to a reply address.

    `path` is InboundEmail.Path (webhook or smtp); `provider_verdicts` what the provider found
    (`{"dmarc": "fail"}`); the envelope's sender (None: unknown; '' or '<>': a bounce) and
    recipients when the way in knows them. Never raises for what the email holds: a refusal is
    recorded and answered with a short note to the sender (never to a bounce address), and
    nothing is written to the thread.
    """
    verdicts = provider_verdicts or {}
    too_large = len(raw) > int(settings.INBOUND_EMAIL_MAX_BYTES)
    try:
        message = parsing.headers_parse(raw) if too_large else parsing.message_parse(raw)
    except Exception:  # the email package is lenient; this is the very broken
        logger.warning("An inbound email could not be parsed", exc_info=True)
        message = parsing.headers_parse(b"")
    mail = _Mail(
        raw_size=len(raw),
        message=message,
        path=path,
        sender=parsing.from_address(message)[:320],
        email_message_id=parsing.header_text(message, "Message-ID")[:998],
        subject=parsing.header_text(message, "Subject"),
        envelope_sender=envelope_sender,
    )
    if parsing.is_bounce(message, sender=mail.sender, envelope_sender=envelope_sender):
        return _record(mail, Outcome.DROPPED, "bounce")
    if parsing.is_auto_reply(message):
        return _record(mail, Outcome.DROPPED, "auto_reply")
    if too_large:
        return _refuse(mail, "too_large")

    token = _find_token(message, envelope_recipients)
    if token is None:
        return _refuse(mail, "no_reply_address")
    try:
        named = reply_token_read(token)
    except ReplyTokenInvalid as invalid:
        return _refuse(mail, "token_expired" if invalid.reason == "expired" else "token_invalid")
    service_request = request_with_employee(request_id=named.request_id)
    if service_request is None:
        return _refuse(mail, "request_missing")
    employee = service_request.user
    if employee.pk != named.user_id:
        return _refuse(mail, "token_invalid", request=service_request)
    if employee.email.lower().endswith(ERASED_SUFFIX):
        return _refuse(mail, "erased", request=service_request)
    # The sender is checked before anything about the account is said back to them.
    if mail.sender.lower() != employee.email.lower():
        # Not the employee's email: recorded without them (the sender is someone else).
        return _refuse(mail, "sender_mismatch", request=service_request)
    if parsing.dmarc_failed(message, verdicts):
        return _refuse(mail, "dmarc_failed", request=service_request, user=employee)
    if _deactivated(employee):
        return _refuse(mail, "deactivated", request=service_request, user=employee)
    if employee.companies.filter(reply_by_email_enabled=False).exists():
        return _refuse(mail, "company_disabled", request=service_request, user=employee)
    if _replayed(mail):
        return _refuse(mail, "replay", request=service_request, user=employee)

    text = parsing.reply_text(message)
    if not text:
        return _refuse(mail, "empty", request=service_request, user=employee)
    if len(text) > BODY_MAX:
        return _refuse(mail, "too_long", request=service_request, user=employee)
    # Before any file is stored; `_accept` asks again, in its turn, where it decides.
    if _limit_reached(employee):
        return _refuse_rate_limited(mail, request=service_request, employee=employee)
    return _accept(mail, service_request=service_request, employee=employee, text=text)


def _deactivated(employee: User) -> bool:
    """An account closed, or an employee with no active company membership left."""
    if not employee.is_active:
        return True
    if user_access_ended_company(user=employee) is not None:
        return True
    return not employee.companies.exists()


def _find_token(message: EmailMessage, envelope_recipients: Sequence[str]) -> str | None:
    """The token of the first reply address among the envelope's recipients, else among the
    recipients the headers name."""
    return _first_token(
        [*envelope_recipients, *parsing.header_addresses(message, *RECIPIENT_HEADERS)]
    )


def _first_token(addresses: Sequence[str]) -> str | None:
    for address in addresses:
        token = reply_token_from_address(address)
        if token is not None:
            return token
    return None


def _replayed(mail: _Mail) -> bool:
    return (
        bool(mail.email_message_id)
        and InboundEmail.objects.filter(
            email_message_id=mail.email_message_id, outcome=Outcome.ACCEPTED
        ).exists()
    )


class _LimitReached(Exception):
    """Raised inside `_accept`'s transaction: the employee's limit was reached meanwhile."""


def _limit_reached(employee: User) -> bool:
    """Whether the employee already had their limit of emails taken into threads (RATE_LIMITS'
    `inbound_email`: that many in the last window, counted from the records of accepted
    emails; a refused or dropped email never counts). No limit while RATE_LIMITS is off."""
    limits = settings.RATE_LIMITS
    if limits is None or RATE_SCOPE not in limits:
        return False
    count, window = limits[RATE_SCOPE]
    since = timezone.now() - timedelta(seconds=window)
    taken = InboundEmail.objects.filter(
        user=employee, outcome=Outcome.ACCEPTED, received_at__gte=since
    )
    return taken.values("pk")[:count].count() >= count


def _employee_turn(employee: User) -> None:
    """Inside a transaction: wait for the employee's other emails being accepted to commit
    (PostgreSQL: an advisory lock held to the end of the transaction; SQLite runs one writing
    transaction at a time anyway), so counting their accepted emails and recording this one
    are one step: two emails at once cannot both take the last place, nor both be refused
    for it."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        # The two-key form (a key space of its own), the employee's id within int4.
        cursor.execute(
            "SELECT pg_advisory_xact_lock(%s, %s)", [ACCEPT_LOCK_KEY, employee.pk % 2**31]
        )


def _refuse_rate_limited(mail: _Mail, *, request: ServiceRequest, employee: User) -> InboundResult:
    """Refused for the limit; the note is sent once per window, not for every email."""
    return _refuse(
        mail,
        "rate_limited",
        request=request,
        user=employee,
        note=_first_in_window(f"inbound-email-limited:{employee.pk}"),
    )


def _first_in_window(key: str) -> bool:
    """True once per BOUNCE_WINDOW_SECONDS for `key` (True without a cache: better a note too
    many than none)."""
    window = int(time.time() // BOUNCE_WINDOW_SECONDS)
    try:
        return bool(cache.add(f"{key}:{window}", 1, timeout=BOUNCE_WINDOW_SECONDS))
    except CACHE_ERRORS:
        return True


def inbound_email_rejected_record(
    *, path: str, reason: str, envelope_sender: str, envelope_recipients: Sequence[str]
) -> InboundEmail:
    """An email the way in refused while it was being sent (the SMTP receiver's 552 for one
    over INBOUND_EMAIL_MAX_BYTES): none of it was kept, so the record holds what the envelope
    said: the sender, the request its reply address names, and its employee when they are the
    sender (as `inbound_email_receive` records). The sending server tells the sender; no note
    is sent."""
    sender = envelope_sender.strip().strip("<>")[:320]
    request = _named_request(_first_token(envelope_recipients))
    employee = request.user if request is not None else None
    record = InboundEmail.objects.create(
        path=path,
        outcome=Outcome.REJECTED,
        reason=reason,
        sender=sender,
        user=employee if employee and employee.email.lower() == sender.lower() else None,
        request=request,
    )
    logger.info("Inbound email %s: %s %s", record.pk, Outcome.REJECTED, reason)
    return record


def _named_request(token: str | None) -> ServiceRequest | None:
    """The request (with its employee) a valid reply token names, if it still exists."""
    if token is None:
        return None
    try:
        named = reply_token_read(token)
    except ReplyTokenInvalid:
        return None
    request = request_with_employee(request_id=named.request_id)
    return request if request is not None and request.user_id == named.user_id else None


def _record(
    mail: _Mail,
    outcome: str,
    reason: str,
    *,
    request: ServiceRequest | None = None,
    user: User | None = None,
    message: Message | None = None,
) -> InboundResult:
    record = InboundEmail.objects.create(
        email_message_id=mail.email_message_id,
        path=mail.path,
        outcome=outcome,
        reason=reason,
        sender=mail.sender,
        user=user,
        request=request,
        thread_message=message,
        size=min(mail.raw_size, 2**31 - 1),
    )
    logger.info("Inbound email %s: %s %s", record.pk, outcome, reason)
    return InboundResult(outcome=outcome, reason=reason, record=record)


def _refuse(
    mail: _Mail,
    reason: str,
    *,
    request: ServiceRequest | None = None,
    user: User | None = None,
    note: bool = True,
) -> InboundResult:
    """Record the refusal and send the sender its short note (after the commit; never to a
    bounce address, at most one per sender and reason per hour)."""
    with transaction.atomic():
        result = _record(mail, Outcome.REFUSED, reason, request=request, user=user)
        text = NOTES.get(reason, NOTES["refused"])
        if (
            note
            and text
            and mail.sender
            and _first_in_window(f"inbound-note:{mail.sender.lower()}:{reason}")
        ):
            _note_send(
                mail, text.format(limit=file_size_label(int(settings.INBOUND_EMAIL_MAX_BYTES)))
            )
    return result


def _note_send(mail: _Mail, text: str) -> None:
    headers = {"Auto-Submitted": "auto-replied", "X-Auto-Response-Suppress": "All"}
    if mail.email_message_id:
        headers["In-Reply-To"] = mail.email_message_id
        headers["References"] = mail.email_message_id
    subject = mail.subject.strip() or "your email"
    email_enqueue(
        to=mail.sender,
        subject=f"Not delivered: {subject}"[:200],
        body=f"Hello,\n\n{text}\n\n{settings.PUBLIC_URL}\n",
        headers=headers,
    )


def _attachment_store(
    *, employee: User, service_request: ServiceRequest, message: EmailMessage
) -> tuple[list[str], list[tuple[str, str]]]:
    """The upload keys of the attachment taken (the first that passes the uploads' checks; one
    per message, as in the app) and the files left out, each with why."""
    keys: list[str] = []
    skipped: list[tuple[str, str]] = []
    for attachment in parsing.attachments(message):
        name = attachment.filename
        if keys:
            skipped.append((name, TOO_MANY_ATTACHMENTS))
            continue
        try:
            upload = upload_from_bytes(
                owner=employee,
                filename=name,
                request_id=service_request.pk,
                content=attachment.content,
            )
        except ApiError as refused:
            skipped.append((name, refused.message))
            continue
        except Exception:
            logger.exception("An inbound email's attachment could not be stored")
            skipped.append((name, "It could not be stored. Please add it in the app."))
            continue
        keys.append(upload.key)
    return keys, skipped


def _accept(
    mail: _Mail, *, service_request: ServiceRequest, employee: User, text: str
) -> InboundResult:
    """Write the employee's message (the app's own service: live events, unread marks, reply
    clocks as for a message sent in the app) and the record, in one transaction; a reply to a
    Completed request reopens it, as the app's 'Reopen and send' does. The employee's limit is
    checked in that transaction, in turn with their other emails (`_employee_turn`): only an
    email taken into the thread counts, exactly once."""
    keys, skipped = _attachment_store(
        employee=employee, service_request=service_request, message=mail.message
    )
    try:
        with transaction.atomic():
            _employee_turn(employee)
            if _limit_reached(employee):
                raise _LimitReached
            record = _record(
                mail, Outcome.ACCEPTED, "", request=service_request, user=employee
            ).record
            assert record is not None
            written = message_create(
                request=service_request,
                author=employee,
                body=text,
                source=MessageSource.USER,
                source_name=employee.full_name,
                attachment_keys=keys,
                reopen=True,
                by_email=True,
            )
            record.thread_message = written
            record.save(update_fields=["thread_message"])
            if skipped:
                _skipped_note_send(employee=employee, request=service_request, skipped=skipped)
    except _LimitReached:
        # Other emails of the employee's were taken while this one's files were stored.
        return _refuse_rate_limited(mail, request=service_request, employee=employee)
    except IntegrityError:
        # The same email delivered twice at once: the other delivery took it.
        return _refuse(mail, "replay", request=service_request, user=employee)
    except ApiError:
        logger.warning("An inbound email was refused by the thread", exc_info=True)
        return _refuse(mail, "refused", request=service_request, user=employee)
    return InboundResult(
        outcome=Outcome.ACCEPTED,
        record=record,
        attachments_skipped=[name for name, _ in skipped],
    )


def _skipped_note_send(
    *, employee: User, request: ServiceRequest, skipped: list[tuple[str, str]]
) -> None:
    """The email naming the files left out, in the request's conversation in mail clients: the
    threading headers of the request's notification emails (its own Message-ID, In-Reply-To
    and References naming the request's root), without their Reply-To."""
    lines = "\n".join(f"- {name}: {why}" for name, why in skipped)
    headers, _ = request_email_headers(request=request)
    headers["Auto-Submitted"] = "auto-replied"
    email_enqueue(
        to=employee.email,
        subject=f"Some files were not added: {request.name}",
        body=(
            f"Hello {employee.first_name},\n\n"
            f"Your email was added to your request \u201c{request.name}\u201d, but these files "
            f"were not:\n\n{lines}\n\n"
            f"You can add them in the app: {settings.PUBLIC_URL}/requests/{request.pk}\n"
        ),
        headers=headers,
    )
