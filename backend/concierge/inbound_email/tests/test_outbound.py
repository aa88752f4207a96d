"""Issue 28 reply by email, outbound: the reply notification and the completion email carry a
Reply-To naming the request (a signed token), their own Message-ID and In-Reply-To/References
naming the request's one root id, so mail clients keep one conversation per request."""

from __future__ import annotations

from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

import pytest

from concierge.notification_settings.models import NotificationPreference
from concierge.servicerequests import services
from concierge.servicerequests.reply_address import (
    reply_token_from_address,
    reply_token_read,
    thread_root_id,
)
from concierge.servicerequests.tasks import reply_notification_send

pytestmark = pytest.mark.django_db


def sent(outbox, subject_part: str) -> list[EmailMessage]:
    outbox.all()
    found = []
    for path in sorted(Path(outbox.path).glob("*.eml")):
        message = message_from_bytes(path.read_bytes(), policy=policy.default)
        if subject_part in str(message["Subject"]):
            assert isinstance(message, EmailMessage)
            found.append(message)
    return found


def concierge_reply(service_request, concierge, body="Would Tuesday suit you?"):
    message = services.message_create(request=service_request, author=concierge, body=body)
    return reply_notification_send.func(message_id=message.pk)


def assert_threaded(message: EmailMessage, service_request, user) -> str:
    reply_to = str(message["Reply-To"])
    token = reply_token_from_address(reply_to)
    assert token is not None and reply_to.endswith("@reply.example.com")
    named = reply_token_read(token)
    assert (named.request_id, named.user_id) == (service_request.pk, user.pk)
    root = thread_root_id(request_id=service_request.pk)
    assert str(message["In-Reply-To"]) == root
    assert str(message["References"]) == root
    message_id = str(message["Message-ID"])
    assert message_id.startswith("<") and message_id != root
    return message_id


def test_reply_email_carries_reply_to_and_threading_headers(user, concierge, make_request, outbox):
    """Issue 28 reply by email: two reply notifications of one request: each its own
    Message-ID, both answering the request's root; the text says a reply by email works;
    List-Unsubscribe from the notification preferences."""
    service_request = make_request(user)
    assert concierge_reply(service_request, concierge) == "sent"
    assert concierge_reply(service_request, concierge, body="Or Wednesday?") == "sent"
    first, second = sent(outbox, "New reply to your request")
    ids = {
        assert_threaded(first, service_request, user),
        assert_threaded(second, service_request, user),
    }
    assert len(ids) == 2
    assert "Reply to this email" in first.get_body(preferencelist=("plain",)).get_content()
    assert str(first["List-Unsubscribe"]).strip().startswith("<http")
    assert str(first["List-Unsubscribe-Post"]) == "List-Unsubscribe=One-Click"


def test_completion_email_carries_reply_to_and_the_same_thread(
    user, concierge, concierge_api, make_request, outbox
):
    """Issue 28 reply by email: the completion email answers the same root as the replies."""
    service_request = make_request(user)
    concierge_reply(service_request, concierge)
    response = concierge_api.post(
        f"concierge/requests/{service_request.pk}/status", {"action": "complete"}
    )
    assert response.status_code == 200, response.content
    [completion] = sent(outbox, "is complete")
    [reply] = sent(outbox, "New reply to your request")
    assert_threaded(completion, service_request, user)
    assert completion["References"] == reply["References"]
    assert str(completion["List-Unsubscribe-Post"]) == "List-Unsubscribe=One-Click"


def test_without_reply_domain_no_reply_to_but_still_threaded(
    user, concierge, make_request, outbox, settings
):
    """Issue 28 reply by email: REPLY_DOMAIN empty turns it off: no Reply-To, the text sends
    to the app; the threading headers stay."""
    settings.REPLY_DOMAIN = ""
    service_request = make_request(user)
    concierge_reply(service_request, concierge)
    [email] = sent(outbox, "New reply to your request")
    assert email["Reply-To"] is None
    assert str(email["References"]) == thread_root_id(request_id=service_request.pk)
    assert "Reply to this email" not in email.get_body(preferencelist=("plain",)).get_content()


def test_emails_the_employee_turned_off_are_not_sent(
    user, concierge, concierge_api, make_request, outbox
):
    """Issue 28: with reply and completion emails turned off in the preferences, neither is
    sent."""
    NotificationPreference.objects.update_or_create(
        user=user, defaults={"reply_email": False, "completion_email": False}
    )
    service_request = make_request(user)
    assert concierge_reply(service_request, concierge) == "the employee turned reply emails off"
    concierge_api.post(f"concierge/requests/{service_request.pk}/status", {"action": "complete"})
    assert outbox.emails(to=user.email) == []
