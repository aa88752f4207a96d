"""Reply by email under test: reply by email on for reply.example.com, the raw emails (the
fixtures built the way mail clients quote, or made here), and what the live streams got."""

from __future__ import annotations

import uuid
from email.message import EmailMessage
from pathlib import Path

import pytest

from concierge.live import broker as broker_module
from concierge.live.tests.conftest import CapturingBroker
from concierge.servicerequests.reply_address import reply_address

FIXTURES = Path(__file__).parent / "fixtures"
REPLY_DOMAIN = "reply.example.com"


@pytest.fixture(autouse=True)
def _reply_by_email_on(settings):
    settings.REPLY_DOMAIN = REPLY_DOMAIN


@pytest.fixture
def published(monkeypatch) -> CapturingBroker:
    """Every live event published (after commit) during the test."""
    capturing = CapturingBroker()
    monkeypatch.setattr(broker_module, "broker_get", lambda: capturing)
    return capturing


def fixture_email(name: str, *, to: str, sender: str, message_id: str | None = None) -> bytes:
    """A fixture .eml with its To, From and Message-ID filled in."""
    text = (FIXTURES / f"{name}.eml").read_text()
    text = text.replace("{{TO}}", to).replace("{{FROM}}", sender)
    text = text.replace("{{MESSAGE_ID}}", message_id or f"{uuid.uuid4().hex}@mail.example.com")
    return text.replace("\r\n", "\n").replace("\n", "\r\n").encode()


def reply_email(
    *,
    to: str,
    sender: str,
    body: str = "Tuesday works for me.\n\nOn Fri, Nov 27, 2026 at 9:14 AM Concierge "
    "<no-reply@example.com> wrote:\n> Would Tuesday suit you?\n",
    subject: str = "Re: Concierge: New reply to your request",
    message_id: str | None = None,
    headers: dict[str, str] | None = None,
    files: list[tuple[str, bytes, str]] = (),  # type: ignore[assignment]
) -> bytes:
    """A plain reply made here (name, bytes, MIME type for each attached file)."""
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    message["Subject"] = subject
    message["Message-ID"] = message_id or f"<{uuid.uuid4().hex}@mail.example.com>"
    for name, value in (headers or {}).items():
        message[name] = value
    message.set_content(body)
    for filename, content, mime in files:
        maintype, subtype = mime.split("/", 1)
        message.add_attachment(content, maintype=maintype, subtype=subtype, filename=filename)
    return message.as_bytes()


@pytest.fixture
def reply_to(user, make_request):
    """A request of `user` (Ada) and the reply address its notification emails carry."""
    service_request = make_request(user, name="Find a dog walker")
    return service_request, reply_address(request=service_request)
