"""The embedded default's mail backend: every email becomes one .eml file in OUTBOX_DIR."""

from __future__ import annotations

from django.core.mail.backends.base import BaseEmailBackend
from django.core.mail.message import EmailMessage

from concierge.notifications.outbox import outbox_write


class OutboxEmailBackend(BaseEmailBackend):
    def send_messages(self, email_messages: list[EmailMessage]) -> int:  # type: ignore[override]
        for message in email_messages:
            outbox_write(kind="email", extension="eml", content=message.message().as_bytes())
        return len(email_messages)
