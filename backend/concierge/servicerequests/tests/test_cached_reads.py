"""API speed (issue 9): an employee's lists and threads are answered from the cache until one
of their requests changes, and every change shows on the very next read, whoever made it."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from concierge.servicerequests import services
from concierge.servicerequests.models import Message, ServiceRequest
from concierge.surveys.models import SurveyCategory


@pytest.fixture(autouse=True)
def _cached_reads(settings):
    """These tests are about the cached reads (CACHED_READS, off by default): turned on."""
    settings.CACHED_READS = True


def _names(api, segment: str) -> list[str]:
    return [r["name"] for r in api.get(f"requests/{segment}").json()["requests"]]


def _thread(api, request_id: int) -> list[str]:
    response = api.get(f"requests/{request_id}")
    assert response.status_code == 200, response.content
    return [m["body_html"] for m in response.json()["request"]["messages"]]


def test_repeated_reads_cost_the_session_query_alone(signed_in_api, user, make_request):
    """Issue 24 reads that cannot be stale: a repeated read of an unchanged list or thread is
    one query, the session's, which also reads the version the cached body is checked against."""
    service_request = make_request(user)
    signed_in_api.get(f"requests/{service_request.pk}")  # the first opening marks it seen
    first_thread = signed_in_api.get(f"requests/{service_request.pk}").content
    first_list = signed_in_api.get("requests/open").content
    with CaptureQueriesContext(connection) as queries:
        assert signed_in_api.get("requests/open").content == first_list
        assert signed_in_api.get(f"requests/{service_request.pk}").content == first_thread
    tables = [q["sql"].split(" FROM ")[-1].split()[0] for q in queries.captured_queries]
    assert len(tables) == 2
    assert all("accounts_authtoken" in q["sql"] for q in queries.captured_queries)


def test_a_concierge_reply_shows_at_once(signed_in_api, concierge_api, user, make_request):
    """§7 requests: a reply from the desk is in the thread and moves the request to In
    Progress on the employee's next read."""
    service_request = make_request(user, name="Walk the dog")
    assert _names(signed_in_api, "open") == ["Walk the dog"]
    assert _thread(signed_in_api, service_request.pk) == []

    reply = concierge_api.post(
        f"concierge/requests/{service_request.pk}/messages", {"message": {"body": "On it"}}
    )
    assert reply.status_code == 201, reply.content

    assert _thread(signed_in_api, service_request.pk) == ["On it"]
    assert _names(signed_in_api, "open") == []
    assert _names(signed_in_api, "in_progress") == ["Walk the dog"]


def test_desk_status_and_assignment_changes_show_at_once(
    signed_in_api, concierge_api, user, make_request
):
    """§7 requests: completing and reopening at the desk move the request between the lists."""
    service_request = make_request(user, name="Book a table")
    path = f"concierge/requests/{service_request.pk}/status"
    assert _names(signed_in_api, "completed") == []
    assert concierge_api.post(path, {"action": "complete"}).status_code == 200
    assert _names(signed_in_api, "completed") == ["Book a table"]
    assert _names(signed_in_api, "open") == []
    assert concierge_api.post(path, {"action": "reopen"}).status_code == 200
    assert _names(signed_in_api, "open") == ["Book a table"]
    assert _names(signed_in_api, "completed") == []


def test_changes_outside_the_services_show_at_once(signed_in_api, user, make_request):
    """§ admin: a request renamed, a message deleted or a category renamed in the admin shows
    on the next read (receivers on the models, not only the services)."""
    category = SurveyCategory.objects.create(name="Pets", icon="pet")
    service_request = make_request(user, name="Old name", survey_category_id=category.pk)
    message = Message.objects.create(
        request=service_request, source=Message.Source.LIFE_CONCIERGE, body_html="<p>Hi</p>"
    )
    listed = signed_in_api.get("requests/open").json()["requests"][0]
    assert (listed["name"], listed["survey_category_name"]) == ("Old name", "Pets")
    assert _thread(signed_in_api, service_request.pk) == ["<p>Hi</p>"]

    admin_copy = ServiceRequest.objects.get(pk=service_request.pk)
    admin_copy.name = "New name"
    admin_copy.save()
    assert _names(signed_in_api, "open") == ["New name"]

    Message.objects.get(pk=message.pk).delete()
    assert _thread(signed_in_api, service_request.pk) == []

    category.name = "Animals"
    category.save()
    listed = signed_in_api.get("requests/open").json()["requests"][0]
    assert listed["survey_category_name"] == "Animals"


def test_a_cached_thread_is_never_anothers(signed_in_api, user, bob, make_request, make_api):
    """§7 requests / security: another employee gets 404 for a thread its owner has cached,
    and their own lists."""
    service_request = make_request(user, name="Ada's request")
    assert signed_in_api.get(f"requests/{service_request.pk}").status_code == 200
    bob_api = make_api()
    assert bob_api.sign_in(bob.email).status_code == 200
    assert bob_api.get(f"requests/{service_request.pk}").status_code == 404
    assert _names(bob_api, "open") == []


def test_a_reply_that_arrives_after_a_cached_read_is_marked_seen(
    signed_in_api, concierge, user, make_request
):
    """§ reply notifications: opening the thread marks the concierge's replies seen even when
    the thread was cached before they came (no reminder email for a reply the employee read)."""
    service_request = make_request(user)
    signed_in_api.get(f"requests/{service_request.pk}")
    services.concierge_reply_create(request=service_request, author=concierge, body="Found one")
    assert _thread(signed_in_api, service_request.pk) == ["Found one"]
    service_request.refresh_from_db()
    assert service_request.seen_by_employee_at >= service_request.last_message_at


def test_the_employee_sees_their_own_message_at_once(signed_in_api, user, make_request):
    """§7 requests: a message the employee sends is in the thread on the next read."""
    service_request = make_request(user)
    assert _thread(signed_in_api, service_request.pk) == []
    sent = signed_in_api.post(
        f"requests/{service_request.pk}/messages", {"message": {"body": "Thanks"}}
    )
    assert sent.status_code == 201
    assert _thread(signed_in_api, service_request.pk) == ["Thanks"]
