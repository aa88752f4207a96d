"""Sending email and SMS. Email goes through Django's mail backend (outbox or SMTP).

Requests never send: they call `email_enqueue()` / `sms_enqueue()`, which queue a background
task once their transaction commits. The tasks send through `delivery`.
"""

from __future__ import annotations

from typing import Any

from concierge.notifications.background import enqueue_on_commit
from concierge.notifications.outgoing import OutgoingEmail
from concierge.notifications.tasks import email_deliver, sms_deliver


def _email_deliver_kwargs(email: OutgoingEmail) -> dict[str, Any]:
    """The email task's arguments (JSON): the optional parts only when given, so tasks queued
    before they existed and after look alike."""
    kwargs: dict[str, Any] = {"to": email.to, "subject": email.subject, "body": email.body}
    if email.html:
        kwargs["html"] = email.html
    if email.headers:
        kwargs["headers"] = {str(name): str(value) for name, value in email.headers.items()}
    if email.reply_to:
        kwargs["reply_to"] = email.reply_to
    return kwargs


def email_enqueue(
    *,
    to: str,
    subject: str,
    body: str,
    html: str = "",
    headers: dict[str, str] | None = None,
    reply_to: str = "",
) -> None:
    """Send the email from a background task, once the current transaction commits (the
    parts as `OutgoingEmail` describes them)."""
    email = OutgoingEmail(
        to=to, subject=subject, body=body, html=html, headers=headers, reply_to=reply_to
    )
    enqueue_on_commit(email_deliver, **_email_deliver_kwargs(email))


def email_enqueue_with_transaction(
    *,
    to: str,
    subject: str,
    body: str,
    html: str = "",
    headers: dict[str, str] | None = None,
    reply_to: str = "",
) -> None:
    """For a background task that decides to send an email and records that it did: the
    email's task is stored in the current transaction, with that record, so both are kept or
    neither is (a worker stopping in between can neither lose the email nor send it twice).
    Requests use `email_enqueue`."""
    email = OutgoingEmail(
        to=to, subject=subject, body=body, html=html, headers=headers, reply_to=reply_to
    )
    email_deliver.enqueue(**_email_deliver_kwargs(email))


def sms_enqueue(*, to: str, body: str) -> None:
    """Send the text message from a background task, once the current transaction commits."""
    enqueue_on_commit(sms_deliver, to=to, body=body)
