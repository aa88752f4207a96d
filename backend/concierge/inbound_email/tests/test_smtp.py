"""Issue 28 reply by email, the SMTP receiver (`manage.py inbound_smtp`) end to end: its
controller on a local port, emails sent with smtplib."""

from __future__ import annotations

import smtplib
import socket

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from concierge.inbound_email.models import InboundEmail
from concierge.inbound_email.smtp import controller_build
from concierge.inbound_email.tests.conftest import fixture_email, reply_email
from concierge.servicerequests.models import Message

pytestmark = pytest.mark.django_db(transaction=True)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def receiver():
    """The command's controller, listening on a free local port."""
    port = free_port()
    controller = controller_build(host="127.0.0.1", port=port)
    controller.start()
    yield port
    controller.stop()


@pytest.fixture
def small_receiver(settings):
    """The receiver, taking emails of at most 2 KB."""
    settings.INBOUND_EMAIL_MAX_BYTES = 2048
    port = free_port()
    controller = controller_build(host="127.0.0.1", port=port)
    controller.start()
    yield port
    controller.stop()


def test_smtp_receiver_takes_a_reply_into_the_thread(user, reply_to, receiver):
    """Issue 28 reply by email: a Gmail reply sent over SMTP is answered 250 once recorded and
    is the employee's message, by email, without the quote."""
    service_request, address = reply_to
    raw = fixture_email("gmail", to=address, sender=user.email)
    with smtplib.SMTP("127.0.0.1", receiver, timeout=10) as smtp:
        refused = smtp.sendmail(user.email, [address], raw)
    assert refused == {}
    [message] = Message.objects.filter(request=service_request, by_email=True)
    assert message.body_html == "Tuesday works for me. Could the walker come at 8 am?"
    record = InboundEmail.objects.get()
    assert (record.path, record.outcome) == ("smtp", "accepted")


def test_smtp_receiver_refuses_unknown_recipients_with_550(user, receiver):
    """Issue 28 reply by email: any address that is not reply+…@REPLY_DOMAIN is a 550, and
    nothing is recorded."""
    raw = reply_email(to="ceo@reply.example.com", sender=user.email)
    with (
        smtplib.SMTP("127.0.0.1", receiver, timeout=10) as smtp,
        pytest.raises(smtplib.SMTPRecipientsRefused) as refused,
    ):
        smtp.sendmail(user.email, ["ceo@reply.example.com"], raw)
    [(code, _)] = refused.value.recipients.values()
    assert code == 550
    assert InboundEmail.objects.count() == 0


def test_smtp_receiver_refuses_an_email_over_the_size_limit_with_552(
    user, reply_to, small_receiver
):
    """Issue 28 reply by email: over INBOUND_EMAIL_MAX_BYTES is a 552 while it is sent;
    nothing is written. A sender that declares the size (smtplib, as mail servers, says SIZE)
    is refused at MAIL FROM, before it names a recipient: nothing is recorded."""
    service_request, address = reply_to
    raw = reply_email(to=address, sender=user.email, body="x" * 5000)
    with (
        smtplib.SMTP("127.0.0.1", small_receiver, timeout=10) as smtp,
        pytest.raises(smtplib.SMTPException) as refused,
    ):
        smtp.sendmail(user.email, [address], raw)
    assert "552" in str(refused.value)
    assert Message.objects.filter(request=service_request).count() == 0
    assert InboundEmail.objects.count() == 0


def test_an_email_found_too_large_while_sent_is_refused_and_recorded_from_its_envelope(
    user, reply_to, small_receiver, outbox
):
    """Issue 28 reply by email: a sender that does not declare the size (HELO, no SIZE) is
    refused with 552 once the data passes INBOUND_EMAIL_MAX_BYTES; nothing is written to the
    thread and no note is sent (the sending server tells the sender), but the refusal is
    recorded for Django admin from the envelope: the sender, and the request and employee its
    reply address names."""
    service_request, address = reply_to
    raw = reply_email(to=address, sender=user.email, body=("x" * 70 + "\n") * 80)
    with smtplib.SMTP("127.0.0.1", small_receiver, timeout=10) as smtp:
        smtp.helo()
        assert smtp.mail(user.email)[0] == 250
        assert smtp.rcpt(address)[0] == 250
        code, _ = smtp.data(raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))
    assert code == 552
    assert Message.objects.filter(request=service_request).count() == 0
    record = InboundEmail.objects.get()
    assert (record.outcome, record.reason, record.path) == ("rejected", "too_large", "smtp")
    assert (record.sender, record.user, record.request) == (user.email, user, service_request)
    assert outbox.emails() == []
    # From someone else: recorded against the request, never the employee (as a refusal is).
    with smtplib.SMTP("127.0.0.1", small_receiver, timeout=10) as smtp:
        smtp.helo()
        smtp.mail("stranger@example.org")
        smtp.rcpt(address)
        assert smtp.data(raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))[0] == 552
    stranger = InboundEmail.objects.exclude(pk=record.pk).get()
    assert (stranger.sender, stranger.user, stranger.request) == (
        "stranger@example.org",
        None,
        service_request,
    )


def test_smtp_receiver_answers_250_for_a_refused_email_and_sends_the_note(
    user, bob, reply_to, receiver, outbox
):
    """Issue 28 reply by email: an email refused by the rules (here from Bob) is still 250
    (the product answers with its own note), recorded, and nothing is written."""
    service_request, address = reply_to
    raw = reply_email(to=address, sender=bob.email)
    with smtplib.SMTP("127.0.0.1", receiver, timeout=10) as smtp:
        assert smtp.sendmail(bob.email, [address], raw) == {}
    assert InboundEmail.objects.get().reason == "sender_mismatch"
    assert Message.objects.filter(request=service_request).count() == 0
    [note] = outbox.emails()
    assert note.to == bob.email


def test_the_command_needs_reply_domain(settings):
    """Issue 28 reply by email: `inbound_smtp` refuses to start while reply by email is off."""
    settings.REPLY_DOMAIN = ""
    with pytest.raises(CommandError, match="REPLY_DOMAIN"):
        call_command("inbound_smtp", "--port", "0")
