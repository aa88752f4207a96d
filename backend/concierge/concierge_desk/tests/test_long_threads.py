"""Hardening 8: unbounded threads at the desk. The request view answers the newest page of
the thread with a cursor for older pages, a reply answers the reply alone (issue 30), and each
concierge may write a limited number of replies per window."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from concierge.concierge_desk.schemas import DeskRequestDetailOut, ReplyCreatedOut
from concierge.servicerequests.schemas import ThreadPageOut
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


def test_request_view_has_the_newest_page_and_pages_back(concierge_api, long_thread):
    """Hardening 8: the desk's request view shows the newest 50 messages oldest first; its
    older_cursor leads through every older message exactly once."""
    service_request, ids = long_thread
    response = concierge_api.get(f"concierge/requests/{service_request.pk}")
    assert response.status_code == 200
    request = DeskRequestDetailOut.model_validate(response.json()).request
    assert [m.id for m in request.messages] == ids[-PAGE:]
    assert request.waiting_on == "employee"  # the newest message is the concierge's

    seen = [m.id for m in request.messages]
    cursor = request.older_cursor
    while cursor is not None:
        page_response = concierge_api.get(
            f"concierge/requests/{service_request.pk}/messages?before={cursor}&limit=120"
        )
        assert page_response.status_code == 200
        page = ThreadPageOut.model_validate(page_response.json())
        seen = [m.id for m in page.messages] + seen
        cursor = page.older_cursor
    assert seen == ids


def test_query_counts_do_not_grow_with_the_thread(concierge_api, user, make_request, long_thread):
    """Hardening 8: the request view, an older page and a reply cost as many queries on a
    1,000-message thread as on a 3-message one."""
    short = make_request(user, name="Short")
    short_ids = seed_long_thread(short, employee=user, count=3)
    long_request, long_ids = long_thread

    def costs(request_id: int, cursor: int) -> tuple[int, int, int]:
        base = f"concierge/requests/{request_id}"
        return (
            _queries(lambda: concierge_api.get(base)),
            _queries(lambda: concierge_api.get(f"{base}/messages?before={cursor}")),
            _queries(lambda: concierge_api.post(f"{base}/messages", {"message": {"body": "Hi"}})),
        )

    assert costs(long_request.pk, long_ids[500]) == costs(short.pk, short_ids[-1])


def test_reply_answers_the_reply_and_the_view_shows_it_last(concierge_api, long_thread):
    """Hardening 8 and issue 30: a reply's 201 carries the reply alone (not a page of the
    thread); the request view then shows it last on the newest page."""
    service_request, ids = long_thread
    response = concierge_api.post(
        f"concierge/requests/{service_request.pk}/messages", {"message": {"body": "Booked."}}
    )
    assert response.status_code == 201
    answer = ReplyCreatedOut.model_validate(response.json())
    assert answer.message.body_html == "Booked."
    request = DeskRequestDetailOut.model_validate(
        concierge_api.get(f"concierge/requests/{service_request.pk}").json()
    ).request
    assert len(request.messages) == PAGE
    assert request.messages[-1] == answer.message
    assert request.older_cursor == str(ids[-(PAGE - 1)])


def test_employees_cannot_read_desk_pages(signed_in_api, long_thread):
    """Hardening 8: the desk's pages are for concierges only (403 for an employee)."""
    service_request, ids = long_thread
    response = signed_in_api.get(
        f"concierge/requests/{service_request.pk}/messages?before={ids[-1]}"
    )
    assert response.status_code == 403


def test_missing_request_pages_are_not_found(concierge_api):
    """Hardening 8: pages of a request that does not exist are a 404."""
    assert concierge_api.get("concierge/requests/999999/messages").status_code == 404


def test_replies_per_concierge_are_limited(settings, concierge_api, user, make_request):
    """Hardening 8: past RATE_LIMITS' `message` (2 per minute here) a reply is refused with
    429 and Retry-After, and nothing is stored."""
    settings.RATE_LIMITS = {"message": (2, 60)}
    service_request = make_request(user)
    path = f"concierge/requests/{service_request.pk}/messages"
    for n in range(2):
        assert concierge_api.post(path, {"message": {"body": f"#{n}"}}).status_code == 201
    refused = concierge_api.post(path, {"message": {"body": "One too many"}})
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) >= 1
    assert refused.json()["success"] is False
    assert service_request.messages.count() == 2
