"""Spec §5 message composer and attachment rules, §4 Request thread, issue #3 'Bad input'."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from concierge.servicerequests import services
from concierge.servicerequests.models import Message, ServiceRequest
from concierge.uploads.models import Upload
from concierge.uploads.tests.samples import FAKE_PNG, pdf_bytes, png_bytes, presign, upload_via_api

pytestmark = pytest.mark.django_db


def send(api, request_id, body="Hello", *, headers=None, **message):
    return api.post(
        f"requests/{request_id}/messages", {"message": {"body": body, **message}}, headers=headers
    )


def test_message_is_created_and_the_request_returned(signed_in_api, user, make_request):
    """§7: POST /requests/{id}/messages answers 201 with the request and its thread."""
    service_request = make_request(user)
    response = send(signed_in_api, service_request.pk, "Can you also book a groomer?")
    assert response.status_code == 201, response.content
    body = response.json()["request"]
    assert body["id"] == service_request.pk
    assert [m["body_html"] for m in body["messages"]] == ["Can you also book a groomer?"]
    assert body["last_message_at"] is not None


def test_message_body_is_sanitised_html(signed_in_api, user, make_request):
    """Issue #3: links clickable, line breaks kept, no scripts."""
    service_request = make_request(user)
    text = (
        "Hi <script>alert('x')</script> <img src=x onerror=alert(1)>\n"
        "See https://example.com/menu?a=1&b=2.\r\nThanks"
    )
    response = send(signed_in_api, service_request.pk, text)
    assert response.status_code == 201
    html = response.json()["request"]["messages"][0]["body_html"]
    assert "<script" not in html
    assert "<img" not in html
    assert "&lt;script&gt;" in html  # shown as the text the person typed
    assert '<a href="https://example.com/menu?a=1&amp;b=2"' in html
    assert 'rel="noopener noreferrer nofollow"' in html
    assert ">https://example.com/menu?a=1&amp;b=2</a>." in html
    assert html.count("<br>") == 2
    assert html.endswith("Thanks")


@pytest.mark.parametrize("body", ["", "   ", "\n\t \n", "\u200b", " \u200b\ufeff\u2060 \u200d"])
def test_empty_or_whitespace_only_message_is_refused(signed_in_api, user, make_request, body):
    """§5 Message composer: text required; whitespace-only is not sent, nor one of only
    characters that show nothing (zero-width spaces and joiners)."""
    service_request = make_request(user)
    response = send(signed_in_api, service_request.pk, body)
    assert response.status_code == 422
    assert response.json()["error"] == services.BODY_REQUIRED
    assert response.json()["errors"] == {"body": [services.BODY_REQUIRED]}
    assert Message.objects.count() == 0


def test_a_message_with_a_zero_width_joiner_inside_visible_text_is_sent(
    signed_in_api, user, make_request
):
    """§5 Message composer: zero-width characters between visible ones (an emoji sequence) are
    part of the message, kept as typed."""
    service_request = make_request(user)
    response = send(signed_in_api, service_request.pk, "Thanks \U0001f469\u200d\U0001f4bb")
    assert response.status_code == 201
    assert Message.objects.get().body_html == "Thanks \U0001f469\u200d\U0001f4bb"


@pytest.mark.parametrize("length", [10_001, 60_000])
def test_message_over_the_limit_is_refused_with_the_limit(
    signed_in_api, user, make_request, length
):
    """§5 Message composer: a message over 10,000 characters is refused with one message naming
    that limit, however long it is (the API's own length check says the same)."""
    service_request = make_request(user)
    response = send(signed_in_api, service_request.pk, "x" * length)
    assert response.status_code == 422
    assert response.json()["errors"] == {"body": ["Please use at most 10,000 characters."]}
    assert Message.objects.count() == 0


def test_employee_source_is_always_user_with_their_name(signed_in_api, user, make_request):
    """§7: the payload's source and source_name cannot impersonate the concierge."""
    service_request = make_request(user)
    response = send(
        signed_in_api, service_request.pk, "hi", source="life_concierge", source_name="Concierge"
    )
    message = response.json()["request"]["messages"][0]
    assert (message["source"], message["source_name"]) == ("user", "Ada Lovelace")


def test_employee_with_the_longest_name_can_send(signed_in_api, user, make_request):
    """§7 Request messages: the sender's name is stored as source_name (200 characters); an
    employee whose first and last names are both as long as allowed (150 each) still sends,
    under their name cut to fit, instead of a server error."""
    user.first_name, user.last_name = "A" * 150, "B" * 150
    user.save(update_fields=["first_name", "last_name"])
    service_request = make_request(user)
    response = send(signed_in_api, service_request.pk, "Hello", source_name="Ada")
    assert response.status_code == 201, response.content
    message = response.json()["request"]["messages"][0]
    assert message["source_name"] == user.full_name[:200]


def test_idempotency_key_creates_one_message(signed_in_api, user, make_request):
    """Issue #3: a retried send with the same Idempotency-Key never creates two messages."""
    service_request = make_request(user)
    headers = {"Idempotency-Key": "send-7f1c"}
    first = send(signed_in_api, service_request.pk, "Only once", headers=headers)
    again = send(signed_in_api, service_request.pk, "Only once", headers=headers)
    assert first.status_code == again.status_code == 201
    assert first.json() == again.json()
    assert Message.objects.filter(request=service_request).count() == 1
    other = send(signed_in_api, service_request.pk, "Only once", headers={"Idempotency-Key": "b"})
    assert other.status_code == 201
    assert Message.objects.filter(request=service_request).count() == 2


def test_idempotency_key_reused_on_another_request_is_refused(signed_in_api, user, make_request):
    first, second = make_request(user), make_request(user)
    headers = {"Idempotency-Key": "same"}
    assert send(signed_in_api, first.pk, headers=headers).status_code == 201
    response = send(signed_in_api, second.pk, headers=headers)
    assert response.status_code == 422
    assert second.messages.count() == 0


def test_message_to_a_completed_request_needs_the_reopen_flag(signed_in_api, user, make_request):
    """Issue 10 'Writing on a Completed request no longer reopens it silently': without
    `reopen` the message is refused with a clear 409 and nothing changes."""
    service_request = make_request(user, status=ServiceRequest.Status.CLOSED)
    response = send(signed_in_api, service_request.pk, "Actually, one more thing")
    assert response.status_code == 409
    assert response.json()["error"] == services.REQUEST_COMPLETED
    assert Message.objects.count() == 0
    service_request.refresh_from_db()
    assert service_request.status == ServiceRequest.Status.CLOSED


def test_reopen_and_send_reopens_the_request(signed_in_api, user, make_request):
    """Issue 10 'Reopen and send': with `reopen: true` the message is sent, the request goes
    back to the queue and the message says it reopened the request."""
    service_request = make_request(user, status=ServiceRequest.Status.CLOSED)
    response = signed_in_api.post(
        f"requests/{service_request.pk}/messages",
        {"message": {"body": "Actually, one more thing"}, "reopen": True},
    )
    assert response.status_code == 201, response.content
    body = response.json()["request"]
    assert body["status"] == "open"
    assert [m["reopened_request"] for m in body["messages"]] == [True]
    service_request.refresh_from_db()
    assert service_request.status == ServiceRequest.Status.OPEN
    assert signed_in_api.get("requests/completed").json()["requests"] == []
    # The next message is an ordinary one.
    again = send(signed_in_api, service_request.pk, "And thanks!")
    assert [m["reopened_request"] for m in again.json()["request"]["messages"]] == [True, False]


def test_reopen_flag_on_an_open_request_changes_nothing(signed_in_api, user, make_request):
    service_request = make_request(user, status=ServiceRequest.Status.IN_PROGRESS)
    response = signed_in_api.post(
        f"requests/{service_request.pk}/messages", {"message": {"body": "Hi"}, "reopen": True}
    )
    assert response.status_code == 201
    assert response.json()["request"]["status"] == "in_progress"
    assert response.json()["request"]["messages"][0]["reopened_request"] is False


def test_reopen_flag_must_be_a_boolean(signed_in_api, user, make_request):
    service_request = make_request(user, status=ServiceRequest.Status.CLOSED)
    response = signed_in_api.post(
        f"requests/{service_request.pk}/messages",
        {"message": {"body": "Hi"}, "reopen": "please"},
    )
    assert response.status_code == 422
    assert Message.objects.count() == 0


def test_reopening_another_employees_request_is_404(signed_in_api, other_user, make_request):
    """Ownership: another employee's completed request is a 404, reopen or not."""
    theirs = make_request(other_user, status=ServiceRequest.Status.CLOSED)
    response = signed_in_api.post(
        f"requests/{theirs.pk}/messages", {"message": {"body": "Hi"}, "reopen": True}
    )
    assert response.status_code == 404
    theirs.refresh_from_db()
    assert theirs.status == ServiceRequest.Status.CLOSED
    assert Message.objects.count() == 0


def test_retry_of_a_reopening_message_is_idempotent(signed_in_api, user, make_request):
    service_request = make_request(user, status=ServiceRequest.Status.CLOSED)
    payload = {"message": {"body": "One more thing"}, "reopen": True}
    headers = {"Idempotency-Key": "reopen-1"}
    url = f"requests/{service_request.pk}/messages"
    first = signed_in_api.post(url, payload, headers=headers)
    again = signed_in_api.post(url, payload, headers=headers)
    assert first.status_code == again.status_code == 201
    assert Message.objects.filter(request=service_request).count() == 1


def test_concierge_message_keeps_the_status(user, make_request, user_factory):
    concierge = user_factory(email="sam@example.com", first_name="Sam", last_name="Reyes")
    service_request = make_request(user, status=ServiceRequest.Status.CLOSED)
    message = services.message_create(request=service_request, author=concierge, body="All done!")
    assert (message.source, message.source_name) == ("life_concierge", "Sam Reyes")
    service_request.refresh_from_db()
    assert service_request.status == ServiceRequest.Status.CLOSED


def test_message_with_an_image_attachment(signed_in_api, user, make_request):
    """§5: one image or PDF per message; the thread lists its key."""
    service_request = make_request(user)
    key = upload_via_api(signed_in_api, "photo.png", png_bytes(), service_request.pk)
    response = send(signed_in_api, service_request.pk, "Here it is", attachment_keys=[key])
    assert response.status_code == 201, response.content
    message = response.json()["request"]["messages"][0]
    assert message["attachment_keys"] == [key]
    assert message["attachments"] == [
        {"key": key, "filename": "photo.png", "content_type": "image/png", "size": len(png_bytes())}
    ]


def test_attaching_someone_elses_upload_is_refused(
    signed_in_api, make_api, user, other_user, make_request
):
    """Issue #3: attachment keys must be the sender's own uploads for that request."""
    mine = make_request(user)
    theirs = make_request(other_user)
    grace = make_api()
    assert grace.sign_in(other_user.email).status_code == 200
    their_key = upload_via_api(grace, "theirs.png", png_bytes(), theirs.pk)

    response = send(signed_in_api, mine.pk, "Look", attachment_keys=[their_key])
    assert response.status_code == 422
    assert response.json()["errors"] == {
        "attachment_keys": ["We couldn't find that attachment. Please upload the file again."]
    }
    assert Message.objects.count() == 0


def test_attaching_an_upload_made_for_another_request_is_refused(signed_in_api, user, make_request):
    first, second = make_request(user), make_request(user)
    key = upload_via_api(signed_in_api, "a.png", png_bytes(), first.pk)
    assert send(signed_in_api, second.pk, attachment_keys=[key]).status_code == 422
    general = upload_via_api(signed_in_api, "b.png", png_bytes())  # no request: not an attachment
    assert send(signed_in_api, first.pk, attachment_keys=[general]).status_code == 422


def test_attaching_a_file_not_yet_uploaded_is_refused(signed_in_api, user, make_request):
    service_request = make_request(user)
    key = presign(signed_in_api, "later.png", service_request.pk).json()["key"]
    response = send(signed_in_api, service_request.pk, attachment_keys=[key])
    assert response.status_code == 422
    assert response.json()["error"] == "'later.png' hasn't finished uploading. Please try again."


def test_one_attachment_per_message(signed_in_api, user, make_request):
    """§9: message attachment, 1 file per message."""
    service_request = make_request(user)
    keys = [
        upload_via_api(signed_in_api, f"p{i}.png", png_bytes(), service_request.pk)
        for i in range(2)
    ]
    response = send(signed_in_api, service_request.pk, attachment_keys=keys)
    assert response.status_code == 422
    assert response.json()["error"] == "Only one file can be attached to a message."


def test_an_upload_is_attached_to_one_message_only(signed_in_api, user, make_request):
    service_request = make_request(user)
    key = upload_via_api(signed_in_api, "doc.pdf", pdf_bytes(), service_request.pk)
    assert send(signed_in_api, service_request.pk, attachment_keys=[key]).status_code == 201
    response = send(signed_in_api, service_request.pk, attachment_keys=[key])
    assert response.status_code == 422
    assert Message.objects.count() == 1


def test_fake_image_cannot_be_attached(signed_in_api, user, make_request):
    """§5: the invalid-type text, and the upload never becomes attachable."""
    service_request = make_request(user)
    presigned = presign(signed_in_api, "cat.png", service_request.pk).json()
    put = signed_in_api.client.put(presigned["presigned_url"], FAKE_PNG, content_type="image/png")
    assert put.status_code == 422
    assert (
        put.json()["error"]
        == "'cat.png' has an invalid file type. Only images or PDFs are allowed."
    )
    response = send(signed_in_api, service_request.pk, attachment_keys=[presigned["key"]])
    assert response.status_code == 422
    assert Upload.objects.get(key=presigned["key"]).status == Upload.Status.PENDING


def test_thread_runs_a_fixed_number_of_queries(
    signed_in_api, user, make_request, django_assert_max_num_queries
):
    """ARCHITECTURE §4: the thread's query count does not grow with messages or attachments."""
    service_request = make_request(user)
    services.message_create(request=service_request, author=user, body="first")
    # An unseen reply in both measurements: opening the thread then also records it as seen.
    services.message_create(request=service_request, author=None, body="reply")
    url = f"requests/{service_request.pk}"
    with CaptureQueriesContext(connection) as context:
        signed_in_api.get(url)
    baseline = len(context.captured_queries)

    for index in range(6):
        key = upload_via_api(signed_in_api, f"scan-{index}.pdf", pdf_bytes(), service_request.pk)
        services.message_create(
            request=service_request, author=user, body=f"msg {index}", attachment_keys=[key]
        )
        services.message_create(request=service_request, author=None, body=f"reply {index}")
    with django_assert_max_num_queries(baseline):
        response = signed_in_api.get(url)
    messages = response.json()["request"]["messages"]
    assert len(messages) == 14
    assert sum(len(m["attachment_keys"]) for m in messages) == 6


def test_reading_a_seen_thread_writes_nothing(signed_in_api, user, make_request):
    """Issue 5 notifications: opening a thread marks new replies seen once, then stays a read."""
    service_request = make_request(user)
    services.message_create(request=service_request, author=None, body="reply")
    url = f"requests/{service_request.pk}"
    signed_in_api.get(url)
    service_request.refresh_from_db()
    first_seen = service_request.seen_by_employee_at
    assert first_seen is not None
    with CaptureQueriesContext(connection) as context:
        signed_in_api.get(url)
    assert not any(q["sql"].startswith("UPDATE") for q in context.captured_queries)
    service_request.refresh_from_db()
    assert service_request.seen_by_employee_at == first_seen
