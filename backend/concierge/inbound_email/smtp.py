"""The self-hosting way in: an SMTP receiver (aiosmtpd) behind the operator's MX, which hands
each email to the same service as the provider's webhook.

It accepts recipients that are reply addresses at REPLY_DOMAIN (550 for any other), refuses a
message over INBOUND_EMAIL_MAX_BYTES while it is sent (552, recorded from its envelope: none of
it is kept), and answers 250 once the email is recorded, whatever became of it (a refusal is
answered by the product's own note)."""

from __future__ import annotations

import logging
from typing import Any, AnyStr

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session
from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections

from concierge.inbound_email.models import InboundEmail
from concierge.inbound_email.services import inbound_email_receive, inbound_email_rejected_record
from concierge.servicerequests.reply_address import reply_token_from_address

logger = logging.getLogger(__name__)

MAX_RECIPIENTS = 10


def _receive(raw: bytes, sender: str, recipients: list[str]) -> None:
    close_old_connections()
    try:
        inbound_email_receive(
            raw,
            path=InboundEmail.Path.SMTP,
            envelope_sender=sender,
            envelope_recipients=recipients,
        )
    finally:
        close_old_connections()


def _record_too_large(sender: str, recipients: list[str]) -> None:
    close_old_connections()
    try:
        inbound_email_rejected_record(
            path=InboundEmail.Path.SMTP,
            reason="too_large",
            envelope_sender=sender,
            envelope_recipients=recipients,
        )
    finally:
        close_old_connections()


class _ReceiverSMTP(SMTP):
    """aiosmtpd's session, which also records an email refused for its size while it was sent
    (aiosmtpd answers that 552 itself, after the last line, and never calls the handler)."""

    async def push(self, status: AnyStr) -> None:
        envelope = self.envelope
        refused = isinstance(status, str) and status.startswith("552")
        if refused and envelope is not None and envelope.rcpt_tos:
            try:
                await sync_to_async(_record_too_large, thread_sensitive=False)(
                    envelope.mail_from or "", list(envelope.rcpt_tos)
                )
            except Exception:
                logger.exception("A refused inbound email could not be recorded")
        await super().push(status)


class _ReceiverController(Controller):
    def factory(self) -> SMTP:
        return _ReceiverSMTP(self.handler, **self.SMTP_kwargs)


class ReplyHandler:
    """aiosmtpd's handler: RCPT and DATA."""

    async def handle_RCPT(
        self,
        server: SMTP,
        session: Session,
        envelope: Envelope,
        address: str,
        rcpt_options: list[str],
    ) -> str:
        if reply_token_from_address(address) is None:
            return "550 5.1.1 No such mailbox here"
        if len(envelope.rcpt_tos) >= MAX_RECIPIENTS:
            return "452 4.5.3 Too many recipients"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        raw = envelope.original_content or b""
        if isinstance(raw, str):
            raw = raw.encode("utf-8", "surrogateescape")
        try:
            await sync_to_async(_receive, thread_sensitive=False)(
                raw, envelope.mail_from or "", list(envelope.rcpt_tos)
            )
        except Exception:
            logger.exception("An inbound email could not be recorded")
            return "451 4.3.0 Please try again later"
        return "250 OK: received"


def controller_build(*, host: str, port: int, **kwargs: Any) -> Controller:
    """The receiver (started with .start(), stopped with .stop()); size limit from
    INBOUND_EMAIL_MAX_BYTES."""
    return _ReceiverController(
        ReplyHandler(),
        hostname=host,
        port=port,
        data_size_limit=int(settings.INBOUND_EMAIL_MAX_BYTES),
        decode_data=False,
        ident="Reply by email",
        **kwargs,
    )
