"""Issue 'Reply-time promises (SLA)': business-hours arithmetic on the company's calendar, the
clock that pauses while the request waits on the employee, the desk's badges, sort and
filters, and the employee's 'Expect a reply by'. Every test runs on a frozen clock.

The calendar: Acme works Monday to Friday, 9:00–17:00 New York time; first reply within
4 business hours, resolution within 16. 16 November 2026 is a Monday.
"""

from __future__ import annotations

from datetime import date, datetime, time
from zoneinfo import ZoneInfo

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from freezegun import freeze_time

import config.urls  # noqa: F401  (the API's schemas are built before any clock is frozen)
from concierge.service_levels.calendar import (
    BusinessCalendar,
    add_business_seconds,
    business_seconds_between,
)
from concierge.service_levels.models import Holiday, RequestClock, ServiceLevel
from concierge.servicerequests import services

pytestmark = pytest.mark.django_db

NY = ZoneInfo("America/New_York")


def ny(day: int, hour: int, minute: int = 0) -> datetime:
    """A moment in November 2026, New York time."""
    return datetime(2026, 11, day, hour, minute, tzinfo=NY)


@pytest.fixture
def promise(company):
    return ServiceLevel.objects.create(
        company=company,
        first_response_minutes=4 * 60,
        resolution_minutes=16 * 60,
        time_zone="America/New_York",
        weekdays="0,1,2,3,4",
        opens=time(9),
        closes=time(17),
    )


def submitted(make_request, user, at: datetime, name="Find a dog walker"):
    with freeze_time(at):
        return make_request(user, name=name)


def clock_of(service_request) -> RequestClock:
    return RequestClock.objects.get(request=service_request)


# --------------------------------------------------------------------------- arithmetic


CALENDAR = BusinessCalendar(time_zone="America/New_York", holidays=frozenset({date(2026, 11, 26)}))


@pytest.mark.parametrize(
    ("start", "hours", "due"),
    [
        (ny(16, 10), 4, ny(16, 14)),  # within the day
        (ny(16, 15), 2, ny(16, 17)),  # exactly at closing time
        (ny(20, 15), 4, ny(23, 11)),  # Friday afternoon → Monday morning
        (ny(21, 8), 4, ny(23, 13)),  # a Saturday submission starts on Monday
        (ny(17, 20), 4, ny(18, 13)),  # after hours → next morning
        (ny(18, 6), 4, ny(18, 13)),  # before opening → that morning
        (ny(25, 16), 4, ny(27, 12)),  # Thanksgiving (a holiday) is skipped
        (ny(16, 10), 16, ny(18, 10)),  # two working days
    ],
)
def test_sla_arithmetic_weekends_out_of_hours_holidays(start, hours, due):
    """SLA arithmetic: weekends, out-of-hours submissions and holidays do not count."""
    assert add_business_seconds(CALENDAR, start, hours * 3600) == due
    assert business_seconds_between(CALENDAR, start, due) == hours * 3600


def test_sla_arithmetic_across_a_daylight_saving_change():
    """SLA arithmetic: the Sunday the clocks go back (1 Nov 2026) changes no working hour."""
    friday = datetime(2026, 10, 30, 15, tzinfo=NY)
    assert add_business_seconds(CALENDAR, friday, 4 * 3600) == datetime(2026, 11, 2, 11, tzinfo=NY)


# --------------------------------------------------------------------------- the clock


def test_sla_first_reply_due_and_employee_expect_reply_by(promise, user, make_request, api):
    """Employee: the request says when to expect the first reply, from the same calendar."""
    service_request = submitted(make_request, user, ny(20, 15))  # a Friday, 15:00
    assert clock_of(service_request).first_response_due_at == ny(23, 11)
    with freeze_time(ny(20, 15, 1)):
        api.sign_in(user.email)
        body = api.get(f"requests/{service_request.pk}").json()["request"]
        assert datetime.fromisoformat(body["expect_reply_by"]) == ny(23, 11)
        # The list shows no promise: the request's screen and the survey's end read it.
        listed = api.get("requests/open").json()["requests"][0]
        assert listed["id"] == service_request.pk and "expect_reply_by" not in listed


def test_sla_no_promise_no_clock(user, make_request, api):
    """A company without a reply-time promise: no clock, no 'Expect a reply by'."""
    service_request = make_request(user)
    assert not RequestClock.objects.filter(request=service_request).exists()
    api.sign_in(user.email)
    assert api.get(f"requests/{service_request.pk}").json()["request"]["expect_reply_by"] is None


def test_sla_clock_pauses_on_concierge_reply_and_resumes_on_employee_message(
    promise, user, concierge, make_request
):
    """The clock runs only while the request waits on the concierge: it pauses when the
    concierge has the last word and resumes when the employee writes."""
    service_request = submitted(make_request, user, ny(16, 10))  # Monday 10:00
    with freeze_time(ny(16, 11)):
        services.concierge_reply_create(request=service_request, author=concierge, body="On it!")
    clock = clock_of(service_request)
    assert clock.first_responded_at == ny(16, 11)
    assert clock.used_seconds == 3600
    assert clock.running_since is None and clock.due_at is None

    # Two days waiting on the employee count for nothing.
    with freeze_time(ny(18, 10)):
        services.message_create(request=service_request, author=user, body="Any news?")
    clock = clock_of(service_request)
    assert clock.running_since == ny(18, 10)
    # 15 business hours left: Wednesday 10:00 → 17:00 (7 h), Thursday 9:00 → 17:00 (8 h).
    assert clock.resolution_due_at == ny(19, 17)
    assert clock.due_at == ny(19, 17)

    # A second reply pauses again, adding only the business time since the resume.
    with freeze_time(ny(18, 12)):
        services.concierge_reply_create(request=service_request, author=concierge, body="Soon")
    clock = clock_of(service_request)
    assert clock.used_seconds == 3 * 3600
    assert clock.first_responded_at == ny(16, 11)  # the first reply stays the first


def test_sla_completion_stops_and_reopening_resumes(promise, user, concierge, make_request):
    """Completed: the clock stops; the employee writing again reopens and restarts it."""
    service_request = submitted(make_request, user, ny(16, 10))
    with freeze_time(ny(16, 12)):
        services.request_status_change(request=service_request, action="complete")
    clock = clock_of(service_request)
    assert clock.completed_at == ny(16, 12) and clock.due_at is None
    assert clock.used_seconds == 2 * 3600
    with freeze_time(ny(17, 9)):
        services.message_create(
            request=service_request, author=user, body="One more thing", reopen=True
        )
    clock = clock_of(service_request)
    assert clock.completed_at is None
    assert clock.running_since == ny(17, 9)
    # First reply still due at Monday 14:00: it is the nearer deadline, and now overdue.
    assert clock.due_at == ny(16, 14)


def test_sla_concierge_reopen_resumes_the_clock(promise, user, make_request):
    """A concierge reopening a completed request puts it back on the clock."""
    service_request = submitted(make_request, user, ny(16, 10))
    with freeze_time(ny(16, 11)):
        services.request_status_change(request=service_request, action="complete")
    with freeze_time(ny(16, 13)):
        service_request.refresh_from_db()
        services.request_status_change(request=service_request, action="reopen")
    clock = clock_of(service_request)
    assert clock.completed_at is None and clock.running_since == ny(16, 13)
    assert clock.due_at == ny(16, 14)


def test_sla_holiday_moves_the_first_reply(promise, user, make_request):
    """A holiday on the company's calendar is not a working day."""
    Holiday.objects.create(service_level=promise, date=date(2026, 11, 23), name="Closed")
    service_request = submitted(make_request, user, ny(20, 15))
    assert clock_of(service_request).first_response_due_at == ny(24, 11)


# --------------------------------------------------------------------------- the desk


def test_sla_desk_badges_default_sort_and_filters(promise, user, concierge, make_request, make_api):
    """Desk: each request shows time left or overdue; 'due soonest' is the default order;
    'Overdue' and 'Due within 1 h' filter the queue."""
    overdue = submitted(make_request, user, ny(16, 9), name="Overdue")  # due 13:00
    soon = submitted(make_request, user, ny(16, 12, 30), name="Soon")  # due 16:30
    later = submitted(make_request, user, ny(16, 14, 45), name="Later")  # due Tue 10:45
    paused = submitted(make_request, user, ny(16, 10), name="Answered")
    with freeze_time(ny(16, 10, 30)):
        services.concierge_reply_create(request=paused, author=concierge, body="Hello")
    with freeze_time(ny(16, 15, 45)):
        api = make_api()
        api.sign_in(concierge.email)
        body = api.get("concierge/requests", query={"status": "open"}).json()
        in_progress = api.get("concierge/requests", query={"status": "in_progress"}).json()
        assert [r["name"] for r in body["requests"]] == ["Overdue", "Soon", "Later"]
        states = {r["name"]: r["sla"]["state"] for r in body["requests"]}
        assert states == {"Overdue": "overdue", "Soon": "due_soon", "Later": "on_track"}
        first = body["requests"][0]["sla"]
        assert first["target"] == "first_response"
        assert datetime.fromisoformat(first["due_at"]) == ny(16, 13)
        assert in_progress["requests"][0]["sla"]["state"] == "paused"
        assert in_progress["requests"][0]["sla"]["due_at"] is None

        def names(**query):
            response = api.get("concierge/requests", query=query)
            assert response.status_code == 200, response.content
            return [r["name"] for r in response.json()["requests"]]

        assert names(due="overdue") == ["Overdue"]
        assert names(due="soon") == ["Soon"]
        assert names(status="open", order="newest") == ["Later", "Soon", "Overdue"]
        assert api.get("concierge/requests", query={"due": "never"}).status_code == 422
        detail = api.get(f"concierge/requests/{overdue.pk}").json()["request"]
        assert detail["sla"]["state"] == "overdue"
    assert {soon.pk, later.pk} <= {r["id"] for r in body["requests"]}


def test_sla_queue_query_count_is_fixed(
    promise, user, make_request, concierge_api, django_assert_max_num_queries
):
    """The queue with clocks still reads in a fixed number of queries."""
    for n in range(6):
        make_request(user, name=f"Request {n}")
    with django_assert_max_num_queries(12):
        response = concierge_api.get("concierge/requests")
    assert len(response.json()["requests"]) == 6


def test_sla_a_message_that_moves_no_clock_writes_no_clock(promise, user, make_request):
    """Issue 30: the employee writing again while their request waits (its clock runs) leaves
    the clock row alone, and so does a concierge's second reply (its clock is paused); the
    first reply pauses it and writes only what moved."""
    service_request = submitted(make_request, user, ny(16, 9))
    clock_table = RequestClock._meta.db_table

    def clock_writes(author, body, at) -> list[str]:
        with freeze_time(at), CaptureQueriesContext(connection) as queries:
            services.message_create(request=service_request, author=author, body=body)
        return [q["sql"] for q in queries if q["sql"].startswith(f'UPDATE "{clock_table}"')]

    running = clock_of(service_request)
    assert clock_writes(user, "Any news?", ny(16, 10)) == []
    assert clock_of(service_request).due_at == running.due_at
    [first_reply] = clock_writes(None, "On it", ny(16, 11))
    assert "first_responded_at" in first_reply and "first_response_due_at" not in first_reply
    assert clock_of(service_request).running_since is None
    assert clock_writes(None, "Booked it", ny(16, 12)) == []


@pytest.mark.parametrize("moment", ["2026-11-29 08:59:57", "2026-11-29 16:59:57"])
def test_sla_business_hours_defaults_pass_the_deploy_check_at_any_time_of_day(moment):
    """Ops: `check --deploy` passes a few seconds before opening or closing time."""
    with freeze_time(moment):
        warnings = ServiceLevel.check()
    assert [warning.id for warning in warnings] == []
