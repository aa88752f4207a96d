"""Hardening 8: unbounded threads. GET answers the newest page of the thread (oldest first)
with a cursor for older pages, POST answers that page too, and each account may write a
limited number of messages per window."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from concierge.servicerequests.schemas import RequestDetailOut, ThreadPageOut
from concierge.servicerequests.tests.threads import seed_long_thread

pytestmark = pytest.mark.django_db

LONG = 1_000
PAGE = 50


@pytest.fixture
def long_thread(user, make_request):
    service_request = make_request(user, name="Plan the move")
    return service_request, seed_long_thread(service_request, employee=user, count=LONG)


def _queries(run) -> int:
    with CaptureQueriesContext(connection) as queries:
        run()
    return len(queries)


def _all_pages(api, path: str, first: dict, limit: int | None = None) -> list[int]:
    """The ids of every page from `first` back to the thread's start, oldest first."""
    ids = [m["id"] for m in first["messages"]]
    cursor = first["older_cursor"]
    while cursor is not None:
        query = f"?before={cursor}" + (f"&limit={limit}" if limit else "")
        response = api.get(f"{path}{query}")
        assert response.status_code == 200, response.content
        page = response.json()
        ThreadPageOut.model_validate(page)
        ids = [m["id"] for m in page["messages"]] + ids
        cursor = page["older_cursor"]
    return ids


def test_first_page_is_the_newest_fifty_oldest_first(signed_in_api, long_thread):
    """Hardening 8: GET /requests/{id} on a 1,000-message thread keeps the spec's shape with
    the newest 50 messages in ascending order and a cursor for older ones."""
    service_request, ids = long_thread
    response = signed_in_api.get(f"requests/{service_request.pk}")
    assert response.status_code == 200
    body = response.json()
    RequestDetailOut.model_validate(body)
    request = body["request"]
    assert [m["id"] for m in request["messages"]] == ids[-PAGE:]
    assert request["messages"][-1]["body_html"] == f"Message {LONG}"
    assert request["older_cursor"] == str(ids[-PAGE])


@pytest.mark.parametrize("limit", [None, 7, 200])
def test_cursor_pages_cover_every_message_once(signed_in_api, long_thread, limit):
    """Hardening 8: following older_cursor from the first page reaches every message exactly
    once, in order, whatever the page size (timestamps tie in pairs: the id breaks them)."""
    service_request, ids = long_thread
    first = signed_in_api.get(f"requests/{service_request.pk}").json()["request"]
    path = f"requests/{service_request.pk}/messages"
    assert _all_pages(signed_in_api, path, first, limit) == ids


def test_short_thread_has_no_cursor(signed_in_api, user, make_request):
    """Hardening 8: a thread that fits one page says so (older_cursor null)."""
    service_request = make_request(user)
    ids = seed_long_thread(service_request, employee=user, count=PAGE)
    request = signed_in_api.get(f"requests/{service_request.pk}").json()["request"]
    assert [m["id"] for m in request["messages"]] == ids
    assert request["older_cursor"] is None


def test_query_counts_do_not_grow_with_the_thread(signed_in_api, user, make_request, long_thread):
    """Hardening 8: the thread, an older page and a new message cost as many queries on a
    1,000-message thread as on a 3-message one."""
    short = make_request(user, name="Short")
    short_ids = seed_long_thread(short, employee=user, count=3)
    long_request, long_ids = long_thread
    signed_in_api.get("requests/open")  # the session is remembered from here on: both alike

    def costs(request_id: int, cursor: int) -> tuple[int, int, int]:
        return (
            _queries(lambda: signed_in_api.get(f"requests/{request_id}")),
            _queries(lambda: signed_in_api.get(f"requests/{request_id}/messages?before={cursor}")),
            _queries(
                lambda: signed_in_api.post(
                    f"requests/{request_id}/messages", {"message": {"body": "Hello"}}
                )
            ),
        )

    assert costs(long_request.pk, long_ids[500]) == costs(short.pk, short_ids[-1])


def test_new_message_answers_the_newest_page_only(signed_in_api, long_thread):
    """Hardening 8: POST /requests/{id}/messages answers 201 with the request and the newest
    page (the new message last), not the whole thread: under 16 KB here, where the whole
    thread is several times that."""
    service_request, ids = long_thread
    response = signed_in_api.post(
        f"requests/{service_request.pk}/messages", {"message": {"body": "Any news?"}}
    )
    assert response.status_code == 201
    body = response.json()
    RequestDetailOut.model_validate(body)
    messages = body["request"]["messages"]
    assert len(messages) == PAGE
    assert messages[-1]["body_html"] == "Any news?"
    assert [m["id"] for m in messages[:-1]] == ids[-(PAGE - 1) :]
    assert body["request"]["older_cursor"] == str(ids[-(PAGE - 1)])
    assert len(response.content) < 16_000


def test_another_users_thread_pages_are_not_found(api, user_factory, long_thread):
    """Hardening 8: the older pages are checked for ownership like the thread (404)."""
    service_request, ids = long_thread
    user_factory(email="grace@example.com")
    api.sign_in("grace@example.com")
    response = api.get(f"requests/{service_request.pk}/messages?before={ids[-1]}")
    assert response.status_code == 404


@pytest.mark.parametrize("before", ["abc", "0", "-5", "1" * 30])
def test_malformed_cursor_is_refused(signed_in_api, long_thread, before):
    """Hardening 8: a malformed cursor is a 422, never a 500."""
    service_request, _ = long_thread
    response = signed_in_api.get(f"requests/{service_request.pk}/messages?before={before}")
    assert response.status_code == 422


def test_cursor_of_another_thread_is_refused(signed_in_api, user, make_request, long_thread):
    """Hardening 8: a cursor is a message of this thread; another thread's is a 422."""
    service_request, _ = long_thread
    other = make_request(user, name="Other")
    other_ids = seed_long_thread(other, employee=user, count=2)
    response = signed_in_api.get(f"requests/{service_request.pk}/messages?before={other_ids[0]}")
    assert response.status_code == 422
    assert response.json()["errors"]["before"]


@pytest.mark.parametrize("limit", ["0", "201", "x"])
def test_page_size_is_bounded(signed_in_api, long_thread, limit):
    """Hardening 8: limit is 1..200."""
    service_request, _ = long_thread
    response = signed_in_api.get(f"requests/{service_request.pk}/messages?limit={limit}")
    assert response.status_code == 422


def test_messages_per_account_are_limited(
    settings, signed_in_api, make_api, user_factory, user, make_request
):
    """Hardening 8: past RATE_LIMITS' `message` (3 per minute here) a message is refused with
    429, Retry-After and the error body; the limit is per account (another account from the
    same address still writes) and nothing is stored past it."""
    settings.RATE_LIMITS = {"message": (3, 60)}
    service_request = make_request(user)
    path = f"requests/{service_request.pk}/messages"
    for n in range(3):
        assert signed_in_api.post(path, {"message": {"body": f"#{n}"}}).status_code == 201
    refused = signed_in_api.post(path, {"message": {"body": "One too many"}})
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 60
    assert refused.json() == {
        "success": False,
        "error": "Too many attempts. Please wait a minute and try again.",
    }
    assert service_request.messages.count() == 3

    grace = user_factory(email="grace@example.com")
    grace_api = make_api()
    grace_api.sign_in(grace.email)
    own = make_request(grace)
    response = grace_api.post(f"requests/{own.pk}/messages", {"message": {"body": "Hi"}})
    assert response.status_code == 201
