"""Sending one email or text message now. Only tasks call this (requests go through `services`)."""

from __future__ import annotations

import json

from django.conf import settings
from django.core.mail import EmailMultiAlternatives, send_mail

from concierge.notifications.outbox import outbox_write
from concierge.notifications.outgoing import OutgoingEmail


def email_send(
    *,
    to: str,
    subject: str,
    body: str,
    html: str = "",
    headers: dict[str, str] | None = None,
    reply_to: str = "",
) -> None:
    """Send the email now (the parts as `OutgoingEmail` describes them)."""
    outgoing_email_send(
        OutgoingEmail(
            to=to, subject=subject, body=body, html=html, headers=headers, reply_to=reply_to
        )
    )


def outgoing_email_send(email: OutgoingEmail) -> None:
    """Send the email now."""
    if email.html or email.headers or email.reply_to:
        message = EmailMultiAlternatives(
            subject=f"{settings.PRODUCT_NAME}: {email.subject}",
            body=email.body,
            from_email=settings.DEFAULT_FROM_EMAIL,
            to=[email.to],
            headers=dict(email.headers or {}),
            reply_to=[email.reply_to] if email.reply_to else None,
        )
        if email.html:
            message.attach_alternative(email.html, "text/html")
        message.send()
        return
    send_mail(
        subject=f"{settings.PRODUCT_NAME}: {email.subject}",
        message=email.body,
        from_email=settings.DEFAULT_FROM_EMAIL,
        recipient_list=[email.to],
    )


def sms_send(*, to: str, body: str) -> None:
    if settings.SMS_BACKEND == "outbox":
        content = json.dumps({"to": to, "body": body}).encode()
        outbox_write(kind="sms", extension="json", content=content)
