"""Issue 28 reply by email, outbound: the reply notification and the completion email carry a
Reply-To naming the request (a signed token), their own Message-ID and In-Reply-To/References
naming the request's one root id, so mail clients keep one conversation per request."""

from __future__ import annotations

from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

import pytest
from django.conf import settings

from concierge.inbound_email.models import InboundEmail
from concierge.inbound_email.services import inbound_email_receive
from concierge.inbound_email.tests.conftest import reply_email
from concierge.notification_settings.models import NotificationPreference
from concierge.servicerequests import services
from concierge.servicerequests.reply_address import (
    reply_address,
    reply_token_from_address,
    reply_token_read,
    thread_root_id,
)
from concierge.servicerequests.tasks import reply_notification_send
from concierge.uploads.services import upload_from_bytes

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


PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64
PDF = b"%PDF-1.4\n" + b"0" * 64


def text_of(message: EmailMessage) -> str:
    body = message.get_body(preferencelist=("plain",))
    assert body is not None
    return str(body.get_content())


@pytest.mark.parametrize(
    ("files", "line"),
    [
        ([("walkers.pdf", PDF)], "1 file attached: \u201cwalkers.pdf\u201d"),
        (
            [("walkers.pdf", PDF), ("map.png", PNG)],
            "2 files attached: \u201cwalkers.pdf\u201d, \u201cmap.png\u201d",
        ),
    ],
)
def test_reply_email_says_how_many_files_are_attached_and_names_them(
    user, concierge, make_request, outbox, files, line
):
    """Email QA: a concierge's reply with files attached: the reply email says how many, with
    their names in the thread's order, so the employee knows to open the app for them."""
    service_request = make_request(user)
    keys = [
        upload_from_bytes(
            owner=concierge, filename=name, request_id=service_request.pk, content=content
        ).key
        for name, content in files
    ]
    message = services.message_create(
        request=service_request,
        author=concierge,
        body="Here are the walkers.",
        attachment_keys=keys,
    )
    assert reply_notification_send.func(message_id=message.pk) == "sent"
    [email] = sent(outbox, "New reply to your request")
    assert f"Here are the walkers.\n\n{line}\n\n" in text_of(email)


def test_reply_email_shows_the_unsubscribe_link_of_its_list_unsubscribe_header(
    user, concierge, make_request, outbox, client
):
    """Email QA: the reply email's text ends with a visible unsubscribe line whose link is the
    List-Unsubscribe header's own, which turns reply emails off."""
    service_request = make_request(user)
    concierge_reply(service_request, concierge)
    [email] = sent(outbox, "New reply to your request")
    url = str(email["List-Unsubscribe"]).strip().strip("<>")
    footer = f"To stop getting emails about your concierge\u2019s replies, unsubscribe: {url}"
    assert text_of(email).rstrip().endswith(footer)
    response = client.post(url.removeprefix(settings.PUBLIC_URL))
    assert response.json() == {"kind": "reply", "unsubscribed": True}
    assert NotificationPreference.objects.get(user=user).reply_email is False


def test_files_not_added_email_is_threaded_with_the_requests_other_emails(
    user, concierge, make_request, outbox, django_capture_on_commit_callbacks
):
    """Email QA: the "Some files were not added" email after a reply by email carries its own
    Message-ID and the In-Reply-To/References of the request's notification emails, so mail
    clients show it in the request's conversation."""
    service_request = make_request(user)
    concierge_reply(service_request, concierge)
    raw = reply_email(
        to=reply_address(request=service_request),
        sender=user.email,
        files=[("notes.txt", b"plain text", "text/plain")],
    )
    with django_capture_on_commit_callbacks(execute=True):
        result = inbound_email_receive(raw, path=InboundEmail.Path.WEBHOOK)
    assert result.attachments_skipped == ["notes.txt"]
    [note] = sent(outbox, "Some files were not added")
    [reply] = sent(outbox, "New reply to your request")
    root = thread_root_id(request_id=service_request.pk)
    assert (str(note["In-Reply-To"]), str(note["References"])) == (root, root)
    assert note["References"] == reply["References"]
    assert str(note["Message-ID"]).startswith("<")
    assert note["Message-ID"] not in (reply["Message-ID"], root)
    assert str(note["Auto-Submitted"]) == "auto-replied"
