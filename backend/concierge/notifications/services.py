"""Sending email and SMS. Email goes through Django's mail backend (outbox or SMTP).

Requests never send: they call `email_enqueue()` / `sms_enqueue()`, which queue a background
task once their transaction commits. `email_send()` / `sms_send()` are what tasks call.
"""

from __future__ import annotations

import json

from django.conf import settings
from django.core.mail import send_mail

from concierge.notifications.background import enqueue_on_commit
from concierge.notifications.outbox import outbox_write


def email_send(*, to: str, subject: str, body: str) -> None:
    send_mail(
        subject=f"{settings.PRODUCT_NAME}: {subject}",
        message=body,
        from_email=settings.DEFAULT_FROM_EMAIL,
        recipient_list=[to],
    )


def sms_send(*, to: str, body: str) -> None:
    if settings.SMS_BACKEND == "outbox":
        content = json.dumps({"to": to, "body": body}).encode()
        outbox_write(kind="sms", extension="json", content=content)


def email_enqueue(*, to: str, subject: str, body: str) -> None:
    """Send the email from a background task, once the current transaction commits."""
    from concierge.notifications.tasks import email_deliver

    enqueue_on_commit(email_deliver, to=to, subject=subject, body=body)


def sms_enqueue(*, to: str, body: str) -> None:
    """Send the text message from a background task, once the current transaction commits."""
    from concierge.notifications.tasks import sms_deliver

    enqueue_on_commit(sms_deliver, to=to, body=body)
