"""Issue 28 reply by email, the provider's webhook end to end: Mailgun's inbound route posts the
raw email to /inbound/mailgun/, signed with the webhook signing key (django-anymail checks it)."""

from __future__ import annotations

import hashlib
import hmac
import os
import time

import pytest
from django.test import Client

from concierge.inbound_email.models import InboundEmail
from concierge.inbound_email.tests.conftest import fixture_email, reply_email
from concierge.servicerequests.models import Message

pytestmark = pytest.mark.django_db

SIGNING_KEY = "key-0123456789abcdef"
URL = "/inbound/mailgun/mime"


@pytest.fixture(autouse=True)
def _signing_key(settings):
    settings.ANYMAIL = {"MAILGUN_WEBHOOK_SIGNING_KEY": SIGNING_KEY, "WEBHOOK_SECRET": ""}


def mailgun_post(raw: bytes, *, recipient: str, sender: str, key: str = SIGNING_KEY, **extra):
    timestamp, token = str(int(time.time())), "a" * 50
    signature = hmac.new(key.encode(), f"{timestamp}{token}".encode(), hashlib.sha256).hexdigest()
    data = {
        "body-mime": raw.decode(),
        "recipient": recipient,
        "sender": sender,
        "timestamp": timestamp,
        "token": token,
        "signature": signature,
        **extra,
    }
    return Client().post(URL, data)


def test_a_correctly_signed_webhook_takes_the_reply_into_the_thread(user, reply_to):
    """Issue 28 reply by email: an Outlook reply posted by Mailgun, correctly signed, is the
    employee's message, by email, without the quote."""
    service_request, address = reply_to
    raw = fixture_email("outlook", to=address, sender=user.email)
    response = mailgun_post(raw, recipient=address, sender=user.email)
    assert response.status_code == 200, response.content
    [message] = Message.objects.filter(request=service_request, by_email=True)
    assert message.body_html == "Tuesday works for me. Could the walker come at 8 am?"
    assert InboundEmail.objects.get().path == "webhook"


def test_a_wrongly_signed_webhook_is_refused_and_nothing_recorded(user, reply_to):
    """Issue 28 reply by email: a signature made with another key is a 400; nothing is
    recorded or written."""
    service_request, address = reply_to
    raw = reply_email(to=address, sender=user.email)
    response = mailgun_post(raw, recipient=address, sender=user.email, key="key-not-ours")
    assert response.status_code == 400
    assert InboundEmail.objects.count() == 0
    assert Message.objects.filter(request=service_request).count() == 0


def test_mailgun_saying_spf_and_dkim_failed_is_a_dmarc_refusal(user, reply_to, outbox):
    """Issue 28 reply by email: Mailgun's SPF and DKIM both failing means the domain cannot
    pass DMARC: refused even from the employee's address."""
    service_request, address = reply_to
    raw = reply_email(to=address, sender=user.email)
    response = mailgun_post(
        raw,
        recipient=address,
        sender=user.email,
        **{"X-Mailgun-Spf": "Fail", "X-Mailgun-Dkim-Check-Result": "Fail"},
    )
    assert response.status_code == 200
    assert InboundEmail.objects.get().reason == "dmarc_failed"
    assert Message.objects.filter(request=service_request).count() == 0


def test_the_webhook_is_not_found_while_unconfigured(user, reply_to, settings):
    """Issue 28 reply by email: without a signing key (or REPLY_DOMAIN) the URL is a 404."""
    settings.ANYMAIL = {"MAILGUN_WEBHOOK_SIGNING_KEY": ""}
    _, address = reply_to
    response = mailgun_post(
        reply_email(to=address, sender=user.email), recipient=address, sender=user.email
    )
    assert response.status_code == 404
    assert InboundEmail.objects.count() == 0


def test_a_reply_with_a_photo_larger_than_a_form_field_may_be_is_taken(user, reply_to):
    """Reply by email QA: Mailgun posts the raw email as one form field, and a reply with a
    3 MB photo is over the 2.5 MB Django allows a field (DATA_UPLOAD_MAX_MEMORY_SIZE): it was
    answered 400 and never received. It is taken, its text and its photo."""
    service_request, address = reply_to
    photo = b"\x89PNG\r\n\x1a\n" + os.urandom(3 * 1024 * 1024)
    raw = reply_email(
        to=address,
        sender=user.email,
        body="Here\u2019s the route for the walker.\n",
        files=[("route.png", photo, "image/png")],
    )
    response = mailgun_post(raw, recipient=address, sender=user.email)
    assert response.status_code == 200, response.content
    [message] = Message.objects.filter(request=service_request, by_email=True)
    assert message.body_html == "Here\u2019s the route for the walker."
    assert [link.upload.filename for link in message.attachment_links.all()] == ["route.png"]
