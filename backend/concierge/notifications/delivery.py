"""Sending one email or text message now. Only tasks call this (requests go through `services`)."""

from __future__ import annotations

import json

from django.conf import settings
from django.core.mail import EmailMultiAlternatives, send_mail

from concierge.notifications.outbox import outbox_write


def email_send(
    *,
    to: str,
    subject: str,
    body: str,
    html: str = "",
    headers: dict[str, str] | None = None,
    reply_to: str = "",
) -> None:
    """A plain-text email, or with `html` a multipart one (the plain text, then the HTML).
    `headers` are added as they are (e.g. Message-ID, In-Reply-To, References,
    List-Unsubscribe); `reply_to` sets Reply-To."""
    if html or headers or reply_to:
        message = EmailMultiAlternatives(
            subject=f"{settings.PRODUCT_NAME}: {subject}",
            body=body,
            from_email=settings.DEFAULT_FROM_EMAIL,
            to=[to],
            headers=dict(headers or {}),
            reply_to=[reply_to] if reply_to else None,
        )
        if html:
            message.attach_alternative(html, "text/html")
        message.send()
        return
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
