"""Sending email and SMS. Email goes through Django's mail backend (outbox or SMTP).

Requests never send: they call `email_enqueue()` / `sms_enqueue()`, which queue a background
task once their transaction commits. The tasks send through `delivery`.
"""

from __future__ import annotations

from concierge.notifications.background import enqueue_on_commit
from concierge.notifications.tasks import email_deliver, sms_deliver


def email_enqueue(*, to: str, subject: str, body: str, html: str = "") -> None:
    """Send the email from a background task, once the current transaction commits; with
    `html`, a multipart email (the plain text `body` and its HTML version)."""
    if html:
        enqueue_on_commit(email_deliver, to=to, subject=subject, body=body, html=html)
    else:
        enqueue_on_commit(email_deliver, to=to, subject=subject, body=body)


def sms_enqueue(*, to: str, body: str) -> None:
    """Send the text message from a background task, once the current transaction commits."""
    enqueue_on_commit(sms_deliver, to=to, body=body)
