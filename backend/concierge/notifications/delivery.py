"""Sending one email or text message now. Only tasks call this (requests go through `services`)."""

from __future__ import annotations

import json

from django.conf import settings
from django.core.mail import send_mail

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
