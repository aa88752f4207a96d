"""Issue #5 'Request view': a reply composer with attachments (the same upload pipeline)."""

from __future__ import annotations

import pytest

from concierge.concierge_desk.schemas import ReplyCreatedOut
from concierge.servicerequests import services
from concierge.servicerequests.models import Message
from concierge.uploads.tests.samples import pdf_bytes, png_bytes, presign, upload_via_api

pytestmark = pytest.mark.django_db


def reply(api, request_id, body="We found three walkers.", headers=None, **message):
    return api.post(
        f"concierge/requests/{request_id}/messages",
        {"message": {"body": body, **message}},
        headers=headers,
    )


def test_reply_is_signed_by_the_concierge_and_starts_the_request(
    concierge_api, concierge, user, make_request
):
    service_request = make_request(user)
    response = reply(concierge_api, service_request.pk)
    assert response.status_code == 201, response.content
    message, body = response.json()["message"], response.json()["change"]
    assert (message["source"], message["source_name"]) == ("life_concierge", "Casey from Concierge")
    assert message["body_html"] == "We found three walkers."
    assert body["status"] == "in_progress"  # replying to a queued request starts it
    assert body["assignee"] == {"id": concierge.pk, "full_name": "Casey Jones"}  # and takes it
    # A desk page from before the slim answer reads `request` as the whole request: none here.
    assert "request" not in response.json()


def test_reply_keeps_another_assignee_and_a_later_status(
    concierge_api, other_concierge, user, make_request
):
    service_request = make_request(user, status="closed")
    service_request.assignee = other_concierge
    service_request.save()
    body = reply(concierge_api, service_request.pk).json()["change"]
    assert body["status"] == "closed"
    assert body["assignee"]["full_name"] == "Dana Reyes"


def test_employee_sees_the_reply_in_their_thread(signed_in_api, concierge_api, user, make_request):
    service_request = make_request(user)
    reply(concierge_api, service_request.pk, "Hello from the desk")
    thread = signed_in_api.get(f"requests/{service_request.pk}").json()["request"]
    assert [(m["source"], m["body_html"]) for m in thread["messages"]] == [
        ("life_concierge", "Hello from the desk")
    ]
    assert thread["status"] == "in_progress"


def test_reply_with_attachments_through_the_upload_pipeline(
    signed_in_api, concierge_api, user, make_request
):
    """The concierge may presign uploads for any request; the employee can download them."""
    service_request = make_request(user)
    keys = [
        upload_via_api(concierge_api, "quote.pdf", pdf_bytes(), request_id=service_request.pk),
        upload_via_api(concierge_api, "map.png", png_bytes(), request_id=service_request.pk),
    ]
    response = reply(concierge_api, service_request.pk, "Quote and map", attachment_keys=keys)
    assert response.status_code == 201, response.content
    attachments = response.json()["message"]["attachments"]
    assert [a["filename"] for a in attachments] == ["quote.pdf", "map.png"]

    thread = signed_in_api.get(f"requests/{service_request.pk}").json()["request"]
    assert thread["messages"][-1]["attachment_keys"] == keys
    download = signed_in_api.get("uploads/expiring_url", query={"key": keys[0]})
    assert download.status_code == 200
    assert signed_in_api.client.get(download.json()["expiring_url"]).status_code == 200


def test_employee_still_cannot_presign_for_someone_elses_request(signed_in_api, bob, make_request):
    assert presign(signed_in_api, "x.png", make_request(bob).pk).status_code == 404


def test_empty_reply_is_refused(concierge_api, user, make_request, tasks):
    service_request = make_request(user)
    response = reply(concierge_api, service_request.pk, "   ")
    assert response.status_code == 422
    assert response.json()["errors"] == {"body": ["Please enter a message."]}
    service_request.refresh_from_db()
    assert service_request.status == "open"
    assert tasks.results() == []


@pytest.mark.parametrize("length", [10_001, 60_000])
def test_reply_over_the_limit_is_refused_with_the_limit(
    concierge_api, user, make_request, tasks, length
):
    service_request = make_request(user)
    response = reply(concierge_api, service_request.pk, "x" * length)
    assert response.status_code == 422
    assert response.json()["errors"] == {"body": ["Please use at most 10,000 characters."]}
    service_request.refresh_from_db()
    assert service_request.status == "open"
    assert tasks.results() == []


def test_retried_reply_with_the_same_idempotency_key_is_created_once(
    concierge_api, user, make_request, tasks
):
    service_request = make_request(user)
    headers = {"Idempotency-Key": "reply-1"}
    first = reply(concierge_api, service_request.pk, headers=headers)
    again = reply(concierge_api, service_request.pk, headers=headers)
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()  # the first reply, answered again
    assert Message.objects.filter(request=service_request).count() == 1
    assert len(tasks.results()) == 1  # one notification, not two


# A reply to a request with a reply-time clock, from the token's check to the answer: the
# writes, then one read (the message as the thread shows it). The whole request view it used
# to answer made it 25; the reply's own writes now share the message's transaction (no
# savepoint around them), which made 18 into 16, and the status and assignee it changes are
# written by the message's own UPDATE of the request (15). The audit chain's head is read in
# the round trip of its lock (PostgreSQL's advisory lock; SQLite, which has none, reads it on
# its own): 14 on both.
REPLY_QUERIES = 14


def test_issue_30_reply_answers_the_message_and_what_it_changed_as_the_request_view_shows_them(
    concierge_api, concierge, user, round_the_clock_promise, make_request, django_assert_num_queries
):
    """Issue 30 'fast for a real day': a reply answers the new message as the desk's thread
    shows it and the request's fields a reply changes (status, assignee, last message time,
    who it waits on, the reply-time clock), equal to what the request view then shows, in
    REPLY_QUERIES queries."""
    service_request = make_request(user)
    services.message_create(request=service_request, author=user, body="A walker, please")
    with django_assert_num_queries(REPLY_QUERIES):
        response = reply(concierge_api, service_request.pk, "Found one")
    assert response.status_code == 201, response.content
    answer = ReplyCreatedOut.model_validate(response.json())

    shown = concierge_api.get(f"concierge/requests/{service_request.pk}").json()["request"]
    assert response.json()["message"] == shown["messages"][-1]
    change = response.json()["change"]
    assert change == {field: shown[field] for field in change}
    assert (answer.change.status, answer.change.waiting_on) == ("in_progress", "employee")
    assert answer.change.assignee is not None and answer.change.assignee.id == concierge.pk
    assert answer.change.sla is not None and answer.change.sla.state == "paused"
    assert answer.change.sla.first_responded_at is not None


def test_issue_30_a_retried_reply_answers_who_the_thread_waits_on_now(
    concierge_api, user, make_request
):
    """Issue 30 'fast for a real day': a reply retried (same Idempotency-Key) after the
    employee wrote again answers the first reply, and that the thread now waits on the
    concierge."""
    service_request = make_request(user)
    headers = {"Idempotency-Key": "reply-2"}
    first = reply(concierge_api, service_request.pk, headers=headers).json()
    services.message_create(request=service_request, author=user, body="Thanks! And Friday?")
    again = reply(concierge_api, service_request.pk, headers=headers).json()
    assert again["message"] == first["message"]
    assert (first["change"]["waiting_on"], again["change"]["waiting_on"]) == (
        "employee",
        "concierge",
    )
