"""Issue 30 'The desk does not scale': the queue's answer is the declared shape built from
plain values, its cost does not grow with the data (the same queries at any size, indexes for
the order and the tab counts, counts that stop at 1,000), and it pages by cursor."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from concierge.concierge_desk.schemas import QueueItemOut, QueueOut
from concierge.service_levels.models import RequestClock, ServiceLevel
from concierge.servicerequests import services
from concierge.servicerequests.models import Message, ServiceRequest
from concierge.servicerequests.selectors import QUEUE_COUNT_LIMIT
from concierge.surveys.models import SurveyCategory

pytestmark = pytest.mark.django_db

# Authentication (1) + the tab counts (1) + the page with everything its rows show (1).
QUEUE_QUERIES = 3
API_DATETIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z$")
CURSOR_INVALID = "That page of the queue is not there any more: reload the queue."


def queue(api, **query):
    response = api.get("concierge/requests", query=query)
    assert response.status_code == 200, response.content
    return response.json()


def ids(body):
    return [r["id"] for r in body["requests"]]


@pytest.fixture
def promise(company):
    """Acme's reply-time promise, around the clock: every new request's clock runs."""
    return ServiceLevel.objects.create(company=company, weekdays="0,1,2,3,4,5,6")


@pytest.fixture
def busy_desk(promise, user, bob, concierge, make_request):
    """`add(n)` makes n requests of every kind a row shows: with and without a promise, a
    category, an assignee, the employee's or the concierge's last word, no message at all."""
    category = SurveyCategory.objects.create(name="Home", icon="home")

    def add(n):
        for i in range(n):
            owner = user if i % 2 else bob  # Bob's company (Globex) has no promise
            service_request = make_request(
                owner, name=f"Errand {i}", survey_category_id=category.pk if i % 3 else None
            )
            if i % 4 == 0:
                continue  # nobody has written yet
            services.message_create(request=service_request, author=owner, body=f"Hello {i}")
            if i % 4 == 1:
                services.concierge_reply_create(
                    request=service_request, author=concierge, body=f"On it: <b>{i}</b>"
                )

    return add


def test_queue_answer_has_the_declared_shape_with_only_what_rows_show(concierge_api, busy_desk):
    """The answer validates as QueueOut, field for field, each row exactly QueueItemOut's
    fields, with times written as everywhere else in the API."""
    busy_desk(8)
    for status in ("open", "in_progress"):
        body = queue(concierge_api, status=status)
        QueueOut.model_validate(body)
        assert set(body) == set(QueueOut.model_fields)
        for row in body["requests"]:
            assert set(row) == set(QueueItemOut.model_fields)
            assert API_DATETIME.match(row["issued_at"])
            if row["last_message"]:
                assert API_DATETIME.match(row["last_message"]["created_at"])
            if row["sla"] and row["sla"]["due_at"]:
                assert API_DATETIME.match(row["sla"]["due_at"])
    assert body["count_limit"] == QUEUE_COUNT_LIMIT
    assert body["counts_capped"] == []


def test_queue_rows_match_the_requests_they_show(concierge_api, concierge, user, busy_desk):
    """Each row's employee, company, category, last message, who it waits on, assignee and
    reply-time badge are the request's."""
    busy_desk(4)
    replied = ServiceRequest.objects.get(name="Errand 1")  # Ada's, the concierge wrote last
    asked = ServiceRequest.objects.get(name="Errand 2")  # Bob's, he wrote last
    silent = ServiceRequest.objects.get(name="Errand 0")
    rows = {r["id"]: r for r in queue(concierge_api, status="in_progress")["requests"]}
    rows |= {r["id"]: r for r in queue(concierge_api, status="open")["requests"]}
    row = rows[replied.pk]
    assert row["employee"] == {"full_name": "Ada Lovelace", "email": user.email}
    assert row["company"]["name"] == "Acme Corp"
    assert row["survey_category_name"] == "Home"
    assert row["last_message"]["body_text"] == "On it: <b>1</b>"  # the text, not HTML
    assert row["last_message"]["source"] == "life_concierge"
    assert row["waiting_on"] == "employee"
    assert row["assignee"] == {"id": concierge.pk, "full_name": "Casey Jones"}
    assert row["sla"] == {"state": "paused", "due_at": None, "target": None}
    assert rows[asked.pk]["waiting_on"] == "concierge"
    assert rows[asked.pk]["sla"] is None  # Globex has no promise
    assert rows[asked.pk]["company"]["name"] == "Globex"
    assert rows[silent.pk]["last_message"] is None
    assert rows[silent.pk]["survey_category_name"] is None


def test_queue_runs_the_same_queries_at_two_data_sizes(
    concierge_api, busy_desk, django_assert_num_queries
):
    """Issue 30: the same 3 queries for 3 requests and for 40 (authentication, the counts,
    the page with everything its rows show)."""
    busy_desk(3)
    with django_assert_num_queries(QUEUE_QUERIES):
        few = queue(concierge_api)
    busy_desk(37)
    with django_assert_num_queries(QUEUE_QUERIES):
        many = queue(concierge_api)
    with django_assert_num_queries(QUEUE_QUERIES):
        queue(concierge_api, status="open", company=1, assignee="unassigned", due="soon")
    assert (len(few["requests"]), len(many["requests"])) == (3, 40)


@pytest.mark.parametrize("order", ["due", "oldest", "newest"])
def test_cursor_pages_cover_the_queue_once_in_order(concierge_api, busy_desk, order):
    """Issue 30 'paging by cursor': page after page (3 rows each) lists every request once,
    in the same order as one long page, in every order of the queue."""
    busy_desk(11)
    everything = ids(queue(concierge_api, order=order, limit=100))
    paged, cursor = [], None
    while True:
        query = {"order": order, "limit": 3} | ({"cursor": cursor} if cursor else {})
        body = queue(concierge_api, **query)
        paged += ids(body)
        cursor = body["next_cursor"]
        if cursor is None:
            break
    assert paged == everything
    assert len(everything) == 11


def test_due_order_puts_running_clocks_first_then_the_oldest(concierge_api, promise, user, bob):
    """'Due soonest': requests by their clock's deadline, then those whose clock is paused or
    that have no promise, oldest first; a page can end between the two."""
    now = timezone.now()
    later = services.request_create(user=user, name="Due later")
    sooner = services.request_create(user=user, name="Due sooner")
    RequestClock.objects.filter(request=later).update(due_at=now + timedelta(hours=5))
    RequestClock.objects.filter(request=sooner).update(due_at=now + timedelta(hours=1))
    old = services.request_create(user=bob, name="No promise, old")
    new = services.request_create(user=bob, name="No promise, new")
    ServiceRequest.objects.filter(pk=old.pk).update(issued_at=now - timedelta(days=2))
    first = queue(concierge_api, status="open", limit=2)
    assert ids(first) == [sooner.pk, later.pk]
    rest = queue(concierge_api, status="open", cursor=first["next_cursor"])
    assert ids(rest) == [old.pk, new.pk]
    assert rest["next_cursor"] is None


@pytest.mark.parametrize(
    "cursor",
    [
        "nonsense",
        "oldest.1700000000000000.1",  # another order's
        "due.0.1700000000000000.1700000000000000",  # a key short
        "due.2.1700000000000000.1700000000000000.1",  # not a flag
        "due.0.9999999999999999999.1700000000000000.1",  # past year 9999
        "due.0.-5.1700000000000000.1",
        "due.0.１７.1700000000000000.1",  # fullwidth digits
        "due.0.1700000000000000.1700000000000000.0",  # no such id
        "due.0.1700000000000000.1700000000000000.9223372036854775808",  # past bigint
        "due." + "1" * 190,
    ],
)
def test_a_bad_cursor_is_a_422_that_says_why(concierge_api, busy_desk, cursor):
    """Issue 30: a cursor is checked; anything but a page's own is a 422, never a 500."""
    busy_desk(2)
    response = concierge_api.get("concierge/requests", query={"cursor": cursor})
    assert response.status_code == 422, response.content
    assert response.json()["errors"] == {"cursor": [CURSOR_INVALID]}


def test_a_cursor_longer_than_any_page_makes_is_refused(concierge_api):
    response = concierge_api.get("concierge/requests", query={"cursor": "due." + "1" * 300})
    assert response.status_code == 422


def test_tab_counts_stop_at_the_limit(concierge_api, user):
    """Issue 30: a tab with more than 1,000 requests counts '1,000+' (counting stops there,
    so a count costs the same at any size); the others stay exact."""
    now = timezone.now()
    ServiceRequest.objects.bulk_create(
        ServiceRequest(user=user, name=f"Done {i}", status="closed", issued_at=now)
        for i in range(QUEUE_COUNT_LIMIT + 1)
    )
    ServiceRequest.objects.bulk_create(
        ServiceRequest(user=user, name=f"Queued {i}", status="open", issued_at=now)
        for i in range(QUEUE_COUNT_LIMIT)
    )
    body = queue(concierge_api, status="open", limit=1)
    assert body["counts"] == {"open": 1000, "in_progress": 0, "closed": 1000}
    assert body["counts_capped"] == ["closed"]
    assert body["count_limit"] == 1000
    searched = queue(concierge_api, q="Done 7")  # under a search: exact again
    assert searched["counts_capped"] == []


def test_database_keeps_each_request_s_deadline_and_last_message(promise, user, concierge):
    """The queue's order and rows read two columns the database keeps in the write's own
    transaction: the clock's deadline and the newest message, through every move."""

    def mirrors(service_request):
        service_request.refresh_from_db()
        clock = RequestClock.objects.filter(request=service_request).first()
        newest = service_request.messages.order_by("external_created_at", "id").last()
        return (
            service_request.due_at == (clock.due_at if clock else None),
            service_request.last_message_id == (newest.pk if newest else None),
            service_request.due_at is not None,
        )

    service_request = services.request_create(user=user, name="Find a plumber")
    assert mirrors(service_request) == (True, True, True)  # the clock runs
    services.message_create(request=service_request, author=user, body="Any news?")
    assert mirrors(service_request) == (True, True, True)
    reply = services.concierge_reply_create(request=service_request, author=concierge, body="Yes")
    assert mirrors(service_request) == (True, True, False)  # paused: the concierge's word
    services.request_status_change(request=service_request, action="complete")
    assert mirrors(service_request) == (True, True, False)
    services.request_status_change(request=service_request, action="reopen")
    assert mirrors(service_request) == (True, True, True)
    Message.objects.filter(pk=reply.pk).delete()
    assert mirrors(service_request) == (True, True, True)
    older = service_request.messages.order_by("external_created_at").first()
    Message.objects.filter(pk=older.pk).update(external_created_at=timezone.now())
    assert mirrors(service_request) == (True, True, True)  # now the newest
    RequestClock.objects.filter(request=service_request).delete()
    assert mirrors(service_request) == (True, True, False)
    Message.objects.filter(request=service_request).delete()
    assert mirrors(service_request) == (True, True, False)


def _plan_nodes(plan):
    yield plan
    for child in plan.get("Plans", []):
        yield from _plan_nodes(child)


def _sorts_everything(node) -> bool:
    """A Sort whose input is not cut to a page first."""
    return node["Node Type"] == "Sort" and not any(
        n["Node Type"] == "Limit" for n in _plan_nodes(node)
    )


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's plans")
@pytest.mark.django_db(transaction=True)  # VACUUM runs outside a transaction
@pytest.mark.parametrize("query", [{}, {"order": "newest"}, {"due": "overdue"}])
def test_queue_plans_read_indexes_not_every_request(concierge_api, promise, user, query):
    """Issue 30: with 6,000 requests, vacuumed and analysed as autovacuum keeps them, the
    queue's counts and page read index ranges (no sequential scan of the requests, no sort
    of all of them before keeping a page)."""
    now = timezone.now()
    statuses = ["open"] * 2 + ["in_progress"] + ["closed"] * 3
    requests = ServiceRequest.objects.bulk_create(
        ServiceRequest(
            user=user,
            name=f"Errand {i}",
            status=statuses[i % len(statuses)],
            issued_at=now - timedelta(minutes=i),
        )
        for i in range(6000)
    )
    RequestClock.objects.bulk_create(
        RequestClock(
            request=r,
            service_level=promise,
            first_response_due_at=now,
            resolution_minutes=600,
            running_since=now if r.status == "open" else None,
            due_at=now + timedelta(minutes=r.pk % 500 - 250) if r.status == "open" else None,
        )
        for r in requests
    )
    with connection.cursor() as cursor:
        # Both tables vacuumed as autovacuum keeps them: whether it had reached the clocks yet
        # (their visibility map) must not decide the plan.
        cursor.execute("VACUUM ANALYZE servicerequests_servicerequest")
        cursor.execute(f"VACUUM ANALYZE {RequestClock._meta.db_table}")
        cursor.execute("ANALYZE")  # every table the queue joins
    with CaptureQueriesContext(connection) as captured:
        queue(concierge_api, status="open", **query)
    queue_sql = [q["sql"] for q in captured if "COUNT(*)" in q["sql"] or "ROW_NUMBER" in q["sql"]]
    assert len(queue_sql) == 2
    used = set()
    for sql in queue_sql:
        nodes = _all_nodes(sql)
        scans = [n for n in nodes if n.get("Relation Name") == "servicerequests_servicerequest"]
        assert scans, sql
        assert all(n["Node Type"] != "Seq Scan" for n in scans), [
            (n["Node Type"], n.get("Relation Name"), n.get("Index Name"), n.get("Plan Rows"))
            for n in nodes
        ]
        assert not any(_sorts_everything(n) for n in nodes), nodes
        used |= {n.get("Index Name") for n in scans}
    expected = (
        "request_status_issued_idx" if query.get("order") == "newest" else "request_desk_due_idx"
    )
    assert expected in used


def _all_nodes(sql):
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN (FORMAT JSON) " + sql)
        raw = cursor.fetchone()[0]
    return list(_plan_nodes((raw if isinstance(raw, list) else json.loads(raw))[0]["Plan"]))
