"""Issue 25 'Readiness that tells the truth': the mail transport is an optional dependency.
With EMAIL_URL (Django's SMTP backend) the mail server is asked for a greeting and a NOOP on a
real SMTP server on 127.0.0.1 (aiosmtpd), first down (nothing listens on its port), then up."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator

import pytest
from aiosmtpd.controller import Controller
from django.test import Client

from config.env import parse_email_url

pytestmark = pytest.mark.django_db


class Sink:
    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd's name)
        return "250 Message accepted"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def smtp_port(settings) -> Iterator[int]:
    """The settings EMAIL_URL=smtp://127.0.0.1:<port> gives, on a port nothing listens on."""
    port = _free_port()
    for name, value in parse_email_url(f"smtp://127.0.0.1:{port}?timeout=5").items():
        setattr(settings, name, value)
    yield port


def ready():
    response = Client().get("/api/v1/health/ready")
    return response.status_code, response.json()


def test_issue_25_readiness_mail_is_not_configured_without_email_url():
    """Issue 25 readiness: without EMAIL_URL emails go to the outbox folder: mail is `not
    configured`, which leaves the node ok"""
    status, body = ready()

    assert (status, body["status"], body["checks"]["mail"]) == (200, "ok", "not configured")


def test_issue_25_readiness_mail_server_down_then_up(smtp_port):
    """Issue 25 readiness: with the SMTP server down, mail is unavailable and the node degraded
    (200: emails wait in their tasks); once it answers, mail is ok and the node ok"""
    status, body = ready()
    assert (status, body["status"], body["checks"]["mail"]) == (200, "degraded", "unavailable")

    controller = Controller(Sink(), hostname="127.0.0.1", port=smtp_port)
    controller.start()
    try:
        status, body = ready()
    finally:
        controller.stop()

    assert (status, body["status"], body["checks"]["mail"]) == (200, "ok", "ok")


def test_issue_25_readiness_a_mail_server_that_never_greets_is_given_up_on(settings, smtp_port):
    """Issue 25 readiness: a mail server that accepts the connection and never greets makes
    mail unavailable after READINESS_TIMEOUT_SECONDS (not EMAIL_URL's 30 s send timeout)"""
    settings.READINESS_TIMEOUT_SECONDS = 0.5
    silent = socket.socket()
    silent.bind(("127.0.0.1", smtp_port))
    silent.listen(8)  # connections wait in the backlog, never greeted
    try:
        started = time.monotonic()
        status, body = ready()
        elapsed = time.monotonic() - started
    finally:
        silent.close()

    assert (status, body["status"], body["checks"]["mail"]) == (200, "degraded", "unavailable")
    assert elapsed < 3
