"""Issue #5 'Security': internal notes never leave through an employee endpoint or an
employee's event stream."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync, sync_to_async

from concierge.concierge_desk.models import InternalNote
from concierge.live.tests.test_sse import open_stream, ticket_for

pytestmark = pytest.mark.django_db

SECRET = "NOTE-7f3a: employee is a VIP, do not mention the budget"


def add_note(api, request_id, body=SECRET):
    return api.post(f"concierge/requests/{request_id}/notes", {"body": body})


def test_concierge_adds_a_note_and_sees_it(concierge_api, concierge, user, make_request):
    service_request = make_request(user)
    response = add_note(concierge_api, service_request.pk)
    assert response.status_code == 201
    note = response.json()["note"]
    assert note["body"] == SECRET
    assert note["author"] == {"id": concierge.pk, "full_name": "Casey Jones"}
    detail = concierge_api.get(f"concierge/requests/{service_request.pk}").json()["request"]
    assert [n["body"] for n in detail["notes"]] == [SECRET]
    assert detail["messages"] == []  # a note is not a message


@pytest.mark.parametrize("body", ["", "   \n"])
def test_empty_note_is_refused(concierge_api, user, make_request, body):
    response = add_note(concierge_api, make_request(user).pk, body)
    assert response.status_code == 422
    assert response.json()["errors"] == {"body": ["Please write the note."]}
    assert not InternalNote.objects.exists()


@pytest.mark.parametrize("length", [10_001, 25_000])
def test_note_over_the_limit_is_refused_with_the_limit(concierge_api, user, make_request, length):
    response = add_note(concierge_api, make_request(user).pk, "x" * length)
    assert response.status_code == 422
    assert response.json()["errors"] == {"body": ["Please use at most 10,000 characters."]}
    assert not InternalNote.objects.exists()


def test_no_employee_endpoint_ever_carries_a_note(signed_in_api, concierge_api, user, make_request):
    service_request = make_request(user)
    concierge_api.post(
        f"concierge/requests/{service_request.pk}/messages", {"message": {"body": "Hi"}}
    )
    assert add_note(concierge_api, service_request.pk).status_code == 201
    responses = [
        signed_in_api.get(f"requests/{service_request.pk}"),
        signed_in_api.get("requests/open"),
        signed_in_api.get("requests/in_progress"),
        signed_in_api.get("requests/completed"),
        signed_in_api.get("users/current"),
        signed_in_api.post(
            f"requests/{service_request.pk}/messages", {"message": {"body": "Thanks!"}}
        ),
    ]
    for response in responses:
        assert response.status_code in (200, 201), response.content
        assert b"NOTE-7f3a" not in response.content
        assert b"notes" not in response.content


def test_employee_event_stream_never_carries_a_note_added_through_the_api(
    settings, signed_in_api, concierge_api, user, make_request, django_capture_on_commit_callbacks
):
    settings.REDIS_URL = ""
    service_request = make_request(user)
    ticket = ticket_for(signed_in_api)

    def note_then_status():
        with django_capture_on_commit_callbacks(execute=True):
            assert add_note(concierge_api, service_request.pk).status_code == 201
        with django_capture_on_commit_callbacks(execute=True):
            concierge_api.post(
                f"concierge/requests/{service_request.pk}/status", {"action": "start"}
            )

    async def scenario():
        stream = await open_stream({"ticket": ticket})
        try:
            await sync_to_async(note_then_status)()
            return await stream.next_event(), stream.buffer
        finally:
            await stream.close()

    event, rest = async_to_sync(scenario)()
    # The first event the employee receives is the status change: the note never came.
    assert event == {
        "type": "request.updated",
        "request_id": service_request.pk,
        "status": "in_progress",
    }
    assert "note" not in rest
