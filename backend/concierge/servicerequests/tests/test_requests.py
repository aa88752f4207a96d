"""Spec §3 Request, §4 Request status, §7 'Requests and surveys' (the request rows)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from concierge.servicerequests import services
from concierge.servicerequests.models import ServiceRequest
from concierge.surveys.models import SurveyCategory

pytestmark = pytest.mark.django_db

REQUEST_KEYS = {
    "id",
    "external_id",
    "name",
    "status",
    "issued_at",
    "details",
    "created_at",
    "expect_reply_by",
    "survey_category_id",
    "survey_category_name",
    "survey_category_image_url",
    "survey_category_icon",
    "last_message_at",
    "unread",
    "messages",
    "older_cursor",  # additive (Hardening 8): the thread is paged
}
# A list carries what the list shows: the details and the thread come with the request alone.
LIST_KEYS = REQUEST_KEYS - {"details", "expect_reply_by", "messages", "older_cursor"}


def test_request_create_queues_it_and_counts_it(user):
    """§3 User.request_count goes up when a request is created; a new request is open."""
    first = services.request_create(user=user, name="  Plan a   trip ", details="To Lisbon")
    services.request_create(user=user, name="Book a vet")
    user.refresh_from_db()
    assert user.request_count == 2
    assert first.status == ServiceRequest.Status.OPEN
    assert first.name == "Plan a trip"
    assert first.issued_at is not None
    assert first.external_id


def test_status_labels_match_spec():
    """§4 Request status: open 'In Queue', in_progress 'In Progress', closed 'Completed'."""
    assert dict(ServiceRequest.Status.choices) == {
        "open": "In Queue",
        "in_progress": "In Progress",
        "closed": "Completed",
    }


def test_lists_by_status_newest_first_with_the_request_shape(signed_in_api, user, make_request):
    """§7: /requests/open, /in_progress, /completed return the user's requests of that status."""
    category = SurveyCategory.objects.create(name="Pets", icon="pet")
    older = make_request(
        user, name="Older open", details="Walk the dog", survey_category_id=category.pk
    )
    ServiceRequest.objects.filter(pk=older.pk).update(issued_at=timezone.now() - timedelta(days=2))
    newer = make_request(user, name="Newer open")
    working = make_request(user, name="Working", status="in_progress")
    done = make_request(user, name="Done", status="closed")

    response = signed_in_api.get("requests/open")
    assert response.status_code == 200
    rows = response.json()["requests"]
    assert [r["id"] for r in rows] == [newer.pk, older.pk]
    assert set(rows[1]) == LIST_KEYS
    assert rows[1]["status"] == "open"
    assert rows[1]["external_id"] == str(older.external_id)
    assert rows[1]["survey_category_name"] == "Pets"
    assert rows[1]["survey_category_icon"] == "pet"
    assert rows[1]["survey_category_image_url"] is None
    assert rows[0]["survey_category_name"] is None

    in_progress = signed_in_api.get("requests/in_progress").json()["requests"]
    assert [(r["id"], r["status"]) for r in in_progress] == [(working.pk, "in_progress")]
    completed = signed_in_api.get("requests/completed").json()["requests"]
    assert [(r["id"], r["status"]) for r in completed] == [(done.pk, "closed")]


def test_lists_never_show_another_users_requests(signed_in_api, other_user, make_request):
    make_request(other_user, name="Grace's errand")
    assert signed_in_api.get("requests/open").json() == {"requests": []}


def test_lists_and_detail_need_sign_in(api, user, make_request):
    service_request = make_request(user)
    assert api.get("requests/open").status_code == 401
    assert api.get(f"requests/{service_request.pk}").status_code == 401
    response = api.post(f"requests/{service_request.pk}/messages", {"message": {"body": "hi"}})
    assert response.status_code == 401


def _count_queries(callable_) -> int:
    with CaptureQueriesContext(connection) as context:
        callable_()
    return len(context.captured_queries)


def test_list_runs_a_fixed_number_of_queries(
    signed_in_api, user, make_request, django_assert_max_num_queries
):
    """ARCHITECTURE §4: a list endpoint's query count does not grow with the list."""
    category = SurveyCategory.objects.create(name="Home", icon="home")
    make_request(user, survey_category_id=category.pk)
    one = _count_queries(lambda: signed_in_api.get("requests/open"))
    for index in range(15):
        make_request(user, name=f"Errand {index}", survey_category_id=category.pk)
    with django_assert_max_num_queries(one):
        response = signed_in_api.get("requests/open")
    assert len(response.json()["requests"]) == 16


def test_detail_returns_the_thread_oldest_first(signed_in_api, user, make_request):
    """§4 Request thread: sorted ascending by external_created_at."""
    service_request = make_request(user, name="Find a plumber", details="Leaky tap")
    concierge_reply = services.message_create(
        request=service_request, author=None, body="On it!", source_name="Sam from Concierge"
    )
    services.message_create(request=service_request, author=user, body="Thanks")
    concierge_reply.external_created_at = timezone.now() - timedelta(hours=1)
    concierge_reply.save(update_fields=["external_created_at"])

    response = signed_in_api.get(f"requests/{service_request.pk}")
    assert response.status_code == 200
    body = response.json()["request"]
    assert set(body) == REQUEST_KEYS
    assert body["name"] == "Find a plumber"
    assert body["details"] == "Leaky tap"
    assert [m["body_html"] for m in body["messages"]] == ["On it!", "Thanks"]
    first, second = body["messages"]
    assert set(first) == {
        "id",
        "body_html",
        "source",
        "source_name",
        "external_created_at",
        "attachment_keys",
        "attachments",
        "reopened_request",
        "by_email",
    }
    assert (first["source"], first["source_name"]) == ("life_concierge", "Sam from Concierge")
    assert (second["source"], second["source_name"]) == ("user", "Ada Lovelace")
    assert first["attachment_keys"] == []
    assert body["last_message_at"] is not None


def test_another_users_request_is_404(signed_in_api, other_user, make_request):
    """ARCHITECTURE §4: every object endpoint checks ownership."""
    theirs = make_request(other_user)
    assert signed_in_api.get(f"requests/{theirs.pk}").status_code == 404
    response = signed_in_api.post(f"requests/{theirs.pk}/messages", {"message": {"body": "hi"}})
    assert response.status_code == 404
    assert response.json()["success"] is False
    assert theirs.messages.count() == 0
    assert signed_in_api.get("requests/999999").status_code == 404


def test_list_and_request_give_the_category_picture_the_same_address(
    signed_in_api, user, make_request
):
    """§3 Request: survey_category_image_url is an absolute address, the same in a list row
    (read from the stored name) and in the request."""
    category = SurveyCategory.objects.create(name="Home", icon="home", image="categories/home.png")
    service_request = make_request(user, name="Paint the hall", survey_category_id=category.pk)
    listed = signed_in_api.get("requests/open").json()["requests"][0]
    opened = signed_in_api.get(f"requests/{service_request.pk}").json()["request"]
    assert listed["survey_category_image_url"] == opened["survey_category_image_url"]
    assert listed["survey_category_image_url"].startswith("http://testserver/")
    assert listed["survey_category_image_url"].endswith("categories/home.png")
