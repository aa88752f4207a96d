"""Background tasks that deliver an email or a text message (see `services`)."""

from __future__ import annotations

from django_tasks import task

from concierge.notifications.background import forget_body_when_sent
from concierge.notifications.delivery import outgoing_email_send, sms_send
from concierge.notifications.outgoing import OutgoingEmail


@forget_body_when_sent  # may carry an unlock link
@task()
def email_deliver(
    *,
    to: str,
    subject: str,
    body: str,
    html: str = "",
    headers: dict[str, str] | None = None,
    reply_to: str = "",
) -> str:
    """Send the email. It takes the `OutgoingEmail` fields as keywords: a queued task's
    arguments are stored as JSON, and tasks queued by earlier releases hold these keywords."""
    outgoing_email_send(
        OutgoingEmail(
            to=to, subject=subject, body=body, html=html, headers=headers, reply_to=reply_to
        )
    )
    return "sent"


@forget_body_when_sent  # carries a sign-in code
@task()
def sms_deliver(*, to: str, body: str) -> str:
    sms_send(to=to, body=body)
    return "sent"
