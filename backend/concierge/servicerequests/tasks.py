"""Background tasks of the requests domain (see notifications.background)."""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django_tasks import task

from concierge.notification_settings.selectors import (
    email_allowed,
    email_unsubscribe,
    unsubscribe_footer,
)
from concierge.notifications.services import email_enqueue_with_transaction
from concierge.servicerequests.html import html_to_text
from concierge.servicerequests.models import Message, ServiceRequest
from concierge.servicerequests.reply_address import request_email_headers

logger = logging.getLogger(__name__)

EXCERPT_CHARS = 500


def reply_notification_reason_to_skip(message: Message) -> str | None:
    """Why no email is due for this reply (None: send it)."""
    service_request = message.request
    if message.source == Message.Source.USER:
        return "not a concierge reply"
    if message.employee_notified_at is not None:
        return "already notified"
    seen = service_request.seen_by_employee_at
    if seen is not None and seen >= message.external_created_at:
        return "seen by the employee"
    later_reply = (
        Message.objects.filter(request_id=service_request.pk)
        .exclude(source=Message.Source.USER)
        .filter(external_created_at__gt=message.external_created_at)
        .exists()
    )
    if later_reply:
        return "a later reply's notification covers it"
    if not service_request.user.is_active:
        return "the employee's account is inactive"
    if not email_allowed(user=service_request.user, kind="reply"):
        return "the employee turned reply emails off"
    return None


def _attachments_line(message: Message) -> str:
    """'1 file attached: “walker.png”' (a paragraph of the email's text), in the thread's
    order; empty for a reply without files. The names are as uploads keep them (no control
    characters)."""
    names = [link.upload.filename for link in message.attachment_links.select_related("upload")]
    if not names:
        return ""
    count = f"{len(names)} file{'' if len(names) == 1 else 's'} attached"
    quoted = ", ".join(f"\u201c{name}\u201d" for name in names)
    return f"{count}: {quoted}\n\n"


@task()
def reply_notification_send(*, message_id: int) -> str:
    """Email the employee about a concierge's reply they have not seen.

    Runs REPLY_NOTIFICATION_DELAY_SECONDS after the reply. Skips (returning why) when the
    employee opened the thread since, when a later reply will send its own email (one email
    per burst of replies), or when this reply was already notified (a task may run twice).
    The checks, the reply's record of its email (`employee_notified_at`) and the email's own
    task are written in one transaction, under the reply's row lock: a task run twice, or
    stopped mid-way, queues the email once.
    """
    with transaction.atomic():
        message = (
            Message.objects.select_for_update(of=("self",))
            .select_related("request__user")
            .filter(pk=message_id)
            .first()
        )
        if message is None:
            return "message deleted"
        reason = reply_notification_reason_to_skip(message)
        if reason is not None:
            logger.info("No reply email for message %s: %s", message_id, reason)
            return reason
        email_enqueue_with_transaction(**_reply_email(message))
        Message.objects.filter(pk=message.pk).update(employee_notified_at=timezone.now())
    return "sent"


def _reply_email(message: Message) -> dict[str, Any]:
    """The reply email's recipient, subject, text, threading headers and Reply-To."""
    service_request: ServiceRequest = message.request
    employee = service_request.user
    text = html_to_text(message.body_html)
    if len(text) > EXCERPT_CHARS:
        text = text[:EXCERPT_CHARS].rstrip() + "…"
    link = f"{settings.PUBLIC_URL}/requests/{service_request.pk}"
    headers, reply_to = request_email_headers(request=service_request)
    unsubscribe_headers, unsubscribe_link = email_unsubscribe(user=employee, kind="reply")
    headers.update(unsubscribe_headers)
    how_to_reply = (
        f"Reply to this email, or read and reply in the app: {link}\n"
        if reply_to
        else f"Read and reply: {link}\n"
    )
    return {
        "to": employee.email,
        "subject": f"New reply to your request: {service_request.name}",
        "body": (
            f"Hello {employee.first_name},\n\n"
            f"{message.source_name or 'Your concierge'} replied to your request "
            f"\u201c{service_request.name}\u201d:\n\n"
            f"{text}\n\n"
            f"{_attachments_line(message)}"
            f"{how_to_reply}\n"
            f"{unsubscribe_footer(kind='reply', url=unsubscribe_link)}\n"
        ),
        "headers": headers,
        "reply_to": reply_to,
    }
