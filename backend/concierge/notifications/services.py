"""Sending email and SMS. Email goes through Django's mail backend (outbox or SMTP).

Requests never send: they call `email_enqueue()` / `sms_enqueue()`, which queue a background
task once their transaction commits. The tasks send through `delivery`.
"""

from __future__ import annotations

from typing import Any

from concierge.notifications.background import enqueue_on_commit
from concierge.notifications.tasks import email_deliver, sms_deliver


def _email_kwargs(
    *,
    to: str,
    subject: str,
    body: str,
    html: str,
    headers: dict[str, str] | None,
    reply_to: str,
) -> dict[str, Any]:
    """The email task's arguments (JSON): the optional parts only when given, so tasks queued
    before they existed and after look alike."""
    kwargs: dict[str, Any] = {"to": to, "subject": subject, "body": body}
    if html:
        kwargs["html"] = html
    if headers:
        kwargs["headers"] = {str(name): str(value) for name, value in headers.items()}
    if reply_to:
        kwargs["reply_to"] = reply_to
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
    """Send the email from a background task, once the current transaction commits; with
    `html`, a multipart email (the plain text `body` and its HTML version); `headers` and
    `reply_to` as `delivery.email_send` takes them."""
    enqueue_on_commit(
        email_deliver,
        **_email_kwargs(
            to=to, subject=subject, body=body, html=html, headers=headers, reply_to=reply_to
        ),
    )


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
    email_deliver.enqueue(
        **_email_kwargs(
            to=to, subject=subject, body=body, html=html, headers=headers, reply_to=reply_to
        )
    )


def sms_enqueue(*, to: str, body: str) -> None:
    """Send the text message from a background task, once the current transaction commits."""
    enqueue_on_commit(sms_deliver, to=to, body=body)
