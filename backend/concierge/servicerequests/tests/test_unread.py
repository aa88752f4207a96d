"""Unread replies: a request whose concierge's reply the employee has not opened is marked
`unread` in the lists and counted by GET /requests/unread_count, until the employee opens the
thread (the same `seen_by_employee_at` that skips the reply email)."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from concierge.servicerequests import services
from concierge.servicerequests.models import Message, ServiceRequest
from concierge.servicerequests.schemas import UnreadCountOut
from concierge.servicerequests.selectors import request_unread_count_for_user

pytestmark = pytest.mark.django_db

# Authentication (1) + the count (1), whatever the number of requests and messages.
UNREAD_COUNT_QUERIES = 2


@pytest.fixture(params=[False, True], ids=["read", "cached"])
def cached_reads(request, settings) -> bool:
    """Both ways the employee's reads are answered: from the database, and from the cache
    (CACHED_READS), where every change must show on the very next read too."""
    settings.CACHED_READS = request.param
    return request.param


def unread_count(api) -> int:
    response = api.get("requests/unread_count")
    assert response.status_code == 200, response.content
    return UnreadCountOut.model_validate(response.json()).count


def listed(api, segment: str) -> dict[str, bool]:
    """The list's requests by name, each with its unread mark."""
    response = api.get(f"requests/{segment}")
    assert response.status_code == 200, response.content
    return {row["name"]: row["unread"] for row in response.json()["requests"]}


def desk_reply(concierge_api, service_request: ServiceRequest, body: str = "On it!") -> None:
    response = concierge_api.post(
        f"concierge/requests/{service_request.pk}/messages", {"message": {"body": body}}
    )
    assert response.status_code == 201, response.content


def open_thread(api, service_request: ServiceRequest) -> dict:
    response = api.get(f"requests/{service_request.pk}")
    assert response.status_code == 200, response.content
    return response.json()["request"]


def test_unread_a_concierge_reply_marks_the_request_unread_until_the_employee_opens_the_thread(
    cached_reads, signed_in_api, concierge_api, user, make_request
):
    walker = make_request(user, name="Find a dog walker")
    make_request(user, name="Book a table")
    assert listed(signed_in_api, "open") == {"Book a table": False, "Find a dog walker": False}
    assert unread_count(signed_in_api) == 0

    desk_reply(concierge_api, walker)  # moves it to In Progress
    assert listed(signed_in_api, "in_progress") == {"Find a dog walker": True}
    assert listed(signed_in_api, "open") == {"Book a table": False}
    assert unread_count(signed_in_api) == 1
    desk_reply(concierge_api, walker, "Two walkers are free on weekdays.")
    assert unread_count(signed_in_api) == 1  # a request counts once, however many replies

    assert open_thread(signed_in_api, walker)["unread"] is False
    assert listed(signed_in_api, "in_progress") == {"Find a dog walker": False}
    assert unread_count(signed_in_api) == 0
    walker.refresh_from_db()
    assert walker.seen_by_employee_at >= walker.last_message_at

    # Reading it again changes nothing; the next reply marks it again.
    open_thread(signed_in_api, walker)
    assert unread_count(signed_in_api) == 0
    desk_reply(concierge_api, walker, "Sam can start Monday.")
    assert listed(signed_in_api, "in_progress") == {"Find a dog walker": True}
    assert unread_count(signed_in_api) == 1


def test_unread_an_employees_own_message_never_makes_a_request_unread(
    cached_reads, signed_in_api, concierge_api, user, make_request
):
    walker = make_request(user, name="Find a dog walker")
    for body in ("Weekdays at noon", "He is friendly"):
        response = signed_in_api.post(f"requests/{walker.pk}/messages", {"message": {"body": body}})
        assert response.status_code == 201, response.content
        assert response.json()["request"]["unread"] is False
    assert listed(signed_in_api, "open") == {"Find a dog walker": False}
    assert unread_count(signed_in_api) == 0

    # Writing in the thread is reading it: the reply above the employee's answer is seen.
    desk_reply(concierge_api, walker)
    assert unread_count(signed_in_api) == 1
    response = signed_in_api.post(f"requests/{walker.pk}/messages", {"message": {"body": "Thanks"}})
    assert response.status_code == 201, response.content
    assert listed(signed_in_api, "in_progress") == {"Find a dog walker": False}
    assert unread_count(signed_in_api) == 0

    # Nor does reopening a Completed request with a message.
    services.request_status_change(request=walker, action="complete")
    response = signed_in_api.post(
        f"requests/{walker.pk}/messages", {"message": {"body": "One more thing"}, "reopen": True}
    )
    assert response.status_code == 201, response.content
    assert listed(signed_in_api, "open") == {"Find a dog walker": False}
    assert unread_count(signed_in_api) == 0


def test_unread_another_employees_requests_never_count(
    cached_reads, signed_in_api, concierge_api, user, other_user, make_request
):
    theirs = make_request(other_user, name="Grace's errand")
    desk_reply(concierge_api, theirs)
    mine = make_request(user, name="My errand")
    assert unread_count(signed_in_api) == 0
    assert listed(signed_in_api, "in_progress") == {}
    assert request_unread_count_for_user(user=other_user) == 1

    # Their thread is not mine to open: a 404, and their reply stays unread.
    assert signed_in_api.get(f"requests/{theirs.pk}").status_code == 404
    assert request_unread_count_for_user(user=other_user) == 1

    desk_reply(concierge_api, mine)
    assert unread_count(signed_in_api) == 1
    assert request_unread_count_for_user(user=other_user) == 1


def test_unread_counts_requests_of_every_status(signed_in_api, concierge_api, user, make_request):
    """A reply the employee has not opened counts whether the request is In Progress or
    Completed since, and the Completed list marks it too."""
    done = make_request(user, name="Renew my passport")
    working = make_request(user, name="Find a plumber")
    desk_reply(concierge_api, done, "All set: your passport is on its way.")
    services.request_status_change(request=done, action="complete")
    desk_reply(concierge_api, working)
    assert listed(signed_in_api, "completed") == {"Renew my passport": True}
    assert unread_count(signed_in_api) == 2

    open_thread(signed_in_api, done)
    assert listed(signed_in_api, "completed") == {"Renew my passport": False}
    assert unread_count(signed_in_api) == 1


def test_unread_a_reply_from_the_moment_the_thread_was_opened_is_seen(
    signed_in_api, user, make_request
):
    """The reply email's own rule (a reply at or before the employee's last look is seen);
    a thread never opened has every reply unseen."""
    errand = make_request(user, name="Errand")
    reply = services.message_create(request=errand, author=None, body="Done", source_name="Sam")
    assert errand.seen_by_employee_at is None
    assert unread_count(signed_in_api) == 1
    ServiceRequest.objects.filter(pk=errand.pk).update(
        seen_by_employee_at=reply.external_created_at
    )
    assert unread_count(signed_in_api) == 0
    ServiceRequest.objects.filter(pk=errand.pk).update(
        seen_by_employee_at=reply.external_created_at - timedelta(microseconds=1)
    )
    assert unread_count(signed_in_api) == 1


def test_unread_count_needs_sign_in(api):
    response = api.get("requests/unread_count")
    assert response.status_code == 401
    assert response.json()["success"] is False


def test_unread_count_runs_a_fixed_number_of_queries(
    signed_in_api, concierge, user, make_request, django_assert_num_queries
):
    """ARCHITECTURE §4: the count costs the same queries with one request or many, read or
    unread, long threads or none."""
    first = make_request(user, name="Errand 0")
    services.concierge_reply_create(request=first, author=concierge, body="Reply")
    with django_assert_num_queries(UNREAD_COUNT_QUERIES):
        assert unread_count(signed_in_api) == 1
    for index in range(1, 16):
        errand = make_request(user, name=f"Errand {index}")
        for n in range(index % 4):
            services.message_create(request=errand, author=user, body=f"Note {n}")
            services.concierge_reply_create(request=errand, author=concierge, body=f"Reply {n}")
    with django_assert_num_queries(UNREAD_COUNT_QUERIES):
        assert unread_count(signed_in_api) == 13


# --------------------------------------------------------------------------- the plans


def _plan_nodes(node: dict):
    yield node
    for child in node.get("Plans", []):
        yield from _plan_nodes(child)


def _reads(sql: str, params: list) -> dict[str, set[str]]:
    """How the query reads the requests and the messages: PostgreSQL's scan types and
    indexes, or SQLite's plan lines."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("EXPLAIN (FORMAT JSON) " + sql, params)
            raw = cursor.fetchone()[0]
            plan = (raw if isinstance(raw, list) else json.loads(raw))[0]["Plan"]
            nodes = [n for n in _plan_nodes(plan) if "Relation Name" in n]
            return {
                table: {
                    f"{n['Node Type']} {n.get('Index Name')}"
                    for n in nodes
                    if n["Relation Name"] == table
                }
                for table in ("servicerequests_servicerequest", "servicerequests_message")
            }
        cursor.execute("EXPLAIN QUERY PLAN " + sql, params)
        lines = [row[-1] for row in cursor.fetchall()]
        return {
            "servicerequests_servicerequest": {
                line for line in lines if line.startswith("SEARCH r ")
            },
            "servicerequests_message": {
                line for line in lines if line.startswith(("SEARCH m ", "SCAN m"))
            },
        }


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's plans")
@pytest.mark.django_db(transaction=True)  # VACUUM runs outside a transaction
def test_unread_count_and_list_read_indexes_not_every_message_on_postgresql(
    user_factory, concierge
):
    """Issue 30: PostgreSQL answers whether a request has an unseen reply from the request's
    own row."""
    _reads_indexes_not_every_message(user_factory, concierge)


@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's plans")
def test_unread_count_and_list_read_indexes_not_every_message_on_sqlite(user_factory, concierge):
    _reads_indexes_not_every_message(user_factory, concierge)


def _reads_indexes_not_every_message(user_factory, concierge) -> None:
    """Issue 30: with 40 employees, 2,000 requests and 12,000 messages, analysed as autovacuum
    keeps them, the count and the list read the employee's requests through an index and the
    messages not at all (each request's row carries its newest reply's time): no scan of
    either table, whatever their size."""
    from concierge.servicerequests.selectors import _list_sql, _unread_count_sql

    now = timezone.now()
    employees = [user_factory(email=f"employee{n}@example.com") for n in range(40)]
    requests = ServiceRequest.objects.bulk_create(
        ServiceRequest(
            user=employees[i % 40],
            name=f"Errand {i}",
            status=("open", "in_progress", "closed")[i % 3],
            issued_at=now - timedelta(minutes=i),
            seen_by_employee_at=now - timedelta(minutes=i % 7) if i % 5 else None,
        )
        for i in range(2000)
    )
    Message.objects.bulk_create(
        [
            Message(
                request=r,
                author=r.user if n % 2 else concierge,
                source="user" if n % 2 else "life_concierge",
                body_html=f"Message {n}",
                external_created_at=now - timedelta(minutes=n),
            )
            for r in requests
            for n in range(6)
        ],
        batch_size=2000,  # PostgreSQL takes at most 65,535 parameters per statement
    )
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("VACUUM ANALYZE servicerequests_servicerequest")
            cursor.execute("VACUUM ANALYZE servicerequests_message")
        else:
            cursor.execute("ANALYZE")
    employee = employees[3]
    vendor = connection.vendor
    for sql, params in (
        (_unread_count_sql(vendor), [employee.pk]),
        (_list_sql(vendor), [employee.pk, "closed"]),
    ):
        reads = _reads(sql, params)
        requests_read, messages_read = (
            reads["servicerequests_servicerequest"],
            reads["servicerequests_message"],
        )
        assert requests_read, reads
        assert not any(r.startswith(("Seq Scan", "SCAN")) for r in requests_read), reads
        assert messages_read == set(), reads
    assert request_unread_count_for_user(user=employee) == sum(
        1
        for r in requests
        if r.user_id == employee.pk
        and (r.seen_by_employee_at is None or r.seen_by_employee_at < now)
    )


# --------------------------------------------------------------------------- the kept column


def _newest_reply_time(service_request: ServiceRequest):
    return (
        Message.objects.filter(request=service_request)
        .exclude(source=Message.Source.USER)
        .order_by("-external_created_at")
        .values_list("external_created_at", flat=True)
        .first()
    )


def _kept(*service_requests: ServiceRequest) -> bool:
    """Each request's `last_reply_at` is its newest reply's time, as the database keeps it."""
    for service_request in service_requests:
        service_request.refresh_from_db()
        if service_request.last_reply_at != _newest_reply_time(service_request):
            return False
    return True


def test_unread_the_database_keeps_each_request_s_newest_reply_through_every_write(
    signed_in_api, concierge, user, make_request
):
    """Issue 30: the unread marks read `last_reply_at`, which the database sets in the write's
    own transaction whatever writes a message: a reply, the employee's message (no change), a
    deleted reply (the one before it again), a reply moved in time or to another request."""
    errand, other = make_request(user, name="Errand"), make_request(user, name="Other")
    assert _kept(errand, other) and errand.last_reply_at is None
    first = services.concierge_reply_create(request=errand, author=concierge, body="On it")
    assert _kept(errand) and errand.last_reply_at == first.external_created_at
    services.message_create(request=errand, author=user, body="Thanks")
    assert _kept(errand) and errand.last_reply_at == first.external_created_at
    open_thread(signed_in_api, errand)
    second = services.concierge_reply_create(request=errand, author=concierge, body="Done")
    assert _kept(errand) and errand.last_reply_at == second.external_created_at
    assert unread_count(signed_in_api) == 1

    Message.objects.filter(pk=second.pk).delete()  # e.g. an erasure: the mark goes with it
    assert _kept(errand) and errand.last_reply_at == first.external_created_at
    assert unread_count(signed_in_api) == 0
    later = timezone.now() + timedelta(minutes=5)
    Message.objects.filter(pk=first.pk).update(external_created_at=later)
    assert _kept(errand) and errand.last_reply_at == later
    Message.objects.filter(pk=first.pk).update(request=other)
    assert _kept(errand, other) and errand.last_reply_at is None
    assert other.last_reply_at == later
    Message.objects.filter(request=other).delete()
    assert _kept(other) and other.last_reply_at is None
    assert unread_count(signed_in_api) == 0


def test_unread_the_upgrade_fills_the_newest_reply_of_requests_written_before_it(
    concierge, user, make_request
):
    """Issue 30: migration 0013 fills `last_reply_at` for the requests that have replies, in
    batches, and leaves a value a write has set meanwhile alone."""
    import importlib
    from types import SimpleNamespace

    migration = importlib.import_module("concierge.servicerequests.migrations.0013_last_reply_at")
    replied = [make_request(user, name=f"Replied {n}") for n in range(3)]
    for service_request in replied:
        services.concierge_reply_create(request=service_request, author=concierge, body="Hi")
    quiet = make_request(user, name="Quiet")
    services.message_create(request=quiet, author=user, body="Anyone?")
    ServiceRequest.objects.update(last_reply_at=None)
    written_meanwhile = timezone.now() + timedelta(hours=1)
    ServiceRequest.objects.filter(pk=replied[0].pk).update(last_reply_at=written_meanwhile)

    migration.backfill(None, SimpleNamespace(connection=connection))

    assert _kept(*replied[1:], quiet) and quiet.last_reply_at is None
    replied[0].refresh_from_db()
    assert replied[0].last_reply_at == written_meanwhile
