"""Issue 24 "Never stale, never silent": an employee's cached lists and threads are checked
against the database (common.read_cache), so no write, whatever path it takes, and no Redis
fault can make an old answer look current or show it to the wrong person."""

from __future__ import annotations

import re
import shutil
import time

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from concierge.common.cache import breaker
from concierge.common.read_versions import installed_triggers
from concierge.service_levels.models import RequestClock, ServiceLevel
from concierge.servicerequests import services
from concierge.servicerequests.models import Message, ServiceRequest
from concierge.surveys.models import SurveyCategory
from concierge.uploads.models import Upload

needs_redis = pytest.mark.skipif(not shutil.which("redis-server"), reason="needs redis-server")


@pytest.fixture(autouse=True)
def _cached_reads(settings):
    """These tests are about the cached reads (CACHED_READS, off by default): turned on."""
    settings.CACHED_READS = True


def _names(api, segment: str = "open") -> list[str]:
    response = api.get(f"requests/{segment}")
    assert response.status_code == 200, response.content
    return [r["name"] for r in response.json()["requests"]]


def _thread(api, request_id: int) -> list[str]:
    response = api.get(f"requests/{request_id}")
    assert response.status_code == 200, response.content
    return [m["body_html"] for m in response.json()["request"]["messages"]]


def test_a_request_moved_to_another_employee_leaves_its_former_owner_at_once(
    signed_in_api, user, other_user, make_request, make_api
):
    """Issue 24: a request whose owner changes (the admin's change form saves the model) is
    404 for its former owner at once and gone from their list; the new owner sees it."""
    moved = make_request(user, name="Moved away")
    assert _thread(signed_in_api, moved.pk) == []
    assert _names(signed_in_api) == ["Moved away"]

    changed = ServiceRequest.objects.get(pk=moved.pk)
    changed.user = other_user
    changed.save()

    assert signed_in_api.get(f"requests/{moved.pk}").status_code == 404
    assert _names(signed_in_api) == []
    grace = make_api()
    assert grace.sign_in(other_user.email).status_code == 200
    assert _names(grace) == ["Moved away"]


def test_bulk_updates_and_raw_sql_show_on_the_next_read(signed_in_api, user, make_request):
    """Issue 24: writes that no signal sees (QuerySet.update, raw SQL) change what the next
    read returns: the database's triggers give the employee's reads a new version."""
    service_request = make_request(user, name="Before")
    assert _names(signed_in_api) == ["Before"]
    ServiceRequest.objects.filter(pk=service_request.pk).update(name="Bulk")
    assert _names(signed_in_api) == ["Bulk"]
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE servicerequests_servicerequest SET name = %s WHERE id = %s",
            ["Raw", service_request.pk],
        )
    assert _names(signed_in_api) == ["Raw"]
    Message.objects.bulk_create(
        [Message(request=service_request, source=Message.Source.LIFE_CONCIERGE, body_html="x")]
    )
    assert _thread(signed_in_api, service_request.pk) == ["x"]


def test_every_table_the_cached_reads_read_has_a_version_trigger(
    signed_in_api, user, company, concierge, make_request
):
    """Issue 24: a write that would go around the read versions fails this test: every table
    the list and the thread read (with a category, a reply-time clock and an attachment) is
    watched by a read-version trigger."""
    ServiceLevel.objects.create(company=company, first_response_minutes=60, resolution_minutes=600)
    category = SurveyCategory.objects.create(name="Pets", icon="pet")
    service_request = make_request(user, survey_category_id=category.pk)
    upload = Upload.objects.create(
        key="k",
        filename="a.pdf",
        content_type="application/pdf",
        size=3,
        owner=concierge,
        request=service_request,
        status=Upload.Status.UPLOADED,
    )
    message = services.concierge_reply_create(request=service_request, author=concierge, body="Hi")
    message.attachment_links.create(upload=upload)
    assert RequestClock.objects.filter(request=service_request).exists()

    with CaptureQueriesContext(connection) as queries:
        signed_in_api.get("requests/open")
        signed_in_api.get(f"requests/{service_request.pk}")
    read_tables = {
        table
        for query in queries.captured_queries
        if query["sql"].lstrip().upper().startswith("SELECT")
        for table in re.findall(r'(?:FROM|JOIN) "?(\w+)"?', query["sql"])
    }
    session_tables = {
        "accounts_authtoken",
        "accounts_user",
        "accounts_user_companies",
        "accounts_company",
        "accounts_user_groups",
        "auth_group",
        "accounts_mfafactor",
        "common_readversion",
    }
    watched = {name.removeprefix("read_version_") for name in installed_triggers(connection)}
    assert read_tables - session_tables, "the reads were not captured"
    for table in read_tables - session_tables:
        assert any(name.startswith(table) for name in watched), f"{table} has no trigger"


@needs_redis
@pytest.mark.django_db(transaction=True)
def test_a_message_sent_while_redis_is_frozen_is_in_the_thread_once_it_answers(
    redis_server, user, concierge, make_api
):
    """Issue 24: freeze Redis (SIGSTOP), send a message (201), thaw: the sender's thread shows
    it, and the concierge's reply, as soon as Redis answers again."""
    service_request = services.request_create(user=user, name="Find a dog walker")
    api = make_api()
    assert api.sign_in(user.email).status_code == 200
    assert _thread(api, service_request.pk) == []
    assert _thread(api, service_request.pk) == []  # now answered from Redis

    redis_server.freeze()
    sent = api.post(f"requests/{service_request.pk}/messages", {"message": {"body": "Tuesday"}})
    assert sent.status_code == 201, sent.content
    services.concierge_reply_create(request=service_request, author=concierge, body="Booked")
    redis_server.thaw()
    breaker.reset()  # as once the breaker's seconds have passed: Redis is read again

    assert _thread(api, service_request.pk) == ["Tuesday", "Booked"]


@needs_redis
@pytest.mark.django_db(transaction=True)
def test_a_session_signed_out_while_redis_is_frozen_is_refused_at_once(
    redis_server, user, make_api
):
    """Issue 24: signing out (and so password resets and lockouts, which revoke the same way)
    during a Redis freeze ends the session: its token is refused as soon as Redis answers."""
    api = make_api()
    assert api.sign_in(user.email).status_code == 200
    assert api.get("requests/open").status_code == 200
    token = api.token

    redis_server.freeze()
    assert api.sign_out().status_code == 200
    redis_server.thaw()
    breaker.reset()

    api.token = token
    assert api.get("requests/open").status_code == 401
    assert api.get("users/current").status_code == 401


@needs_redis
@pytest.mark.django_db(transaction=True)
def test_a_write_with_redis_unreachable_waits_one_timeout_at_most(
    settings, redis_server, user, make_api
):
    """Issue 24 circuit breaker: with Redis unreachable (frozen, not refusing), an employee's
    message (a rate limit, a live event, the thread) answers in under 1.5 s, twice."""
    settings.RATE_LIMITS = {"message": (30, 60)}
    service_request = services.request_create(user=user, name="Find a dog walker")
    api = make_api()
    assert api.sign_in(user.email).status_code == 200
    redis_server.freeze()
    try:
        for body in ("First", "Second"):
            started = time.monotonic()
            sent = api.post(f"requests/{service_request.pk}/messages", {"message": {"body": body}})
            elapsed = time.monotonic() - started
            assert sent.status_code == 201, sent.content
            assert elapsed < 1.5, f"{body}: {elapsed:.2f} s"
    finally:
        redis_server.thaw()
