"""Django admin: requests with their thread inline, and uploads; status changes and
assignment through the same services as the desk, the request's owner and status read-only."""

from __future__ import annotations

import asyncio
from datetime import datetime, time
from zoneinfo import ZoneInfo

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from freezegun import freeze_time

import config.urls  # noqa: F401  (the API's schemas are built before any clock is frozen)
from concierge.live.broker import broker_get
from concierge.service_levels.models import RequestClock, ServiceLevel
from concierge.servicerequests import services
from concierge.uploads.tests.samples import pdf_bytes, upload_via_api

pytestmark = pytest.mark.django_db


def test_admin_shows_a_request_with_its_messages(admin_client, signed_in_api, user, make_request):
    service_request = make_request(user, name="Plan a birthday", details="Saturday")
    key = upload_via_api(signed_in_api, "invite.pdf", pdf_bytes(), service_request.pk)
    services.message_create(
        request=service_request, author=user, body="Invite attached", attachment_keys=[key]
    )

    changelist = admin_client.get("/admin/servicerequests/servicerequest/")
    assert changelist.status_code == 200
    assert "Plan a birthday" in changelist.content.decode()

    page = admin_client.get(f"/admin/servicerequests/servicerequest/{service_request.pk}/change/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Invite attached" in html
    assert "invite.pdf" in html

    uploads = admin_client.get("/admin/uploads/upload/")
    assert uploads.status_code == 200
    assert "invite.pdf" in uploads.content.decode()


# --------------------------------------------------------------------------- status and owner


NY = ZoneInfo("America/New_York")
CHANGELIST = "/admin/servicerequests/servicerequest/"
ADMIN_ACTIONS = {
    "start": "start_requests",
    "complete": "complete_requests",
    "reopen": "reopen_requests",
}


def ny(day: int, hour: int) -> datetime:
    """A moment in November 2026, New York time (16 November 2026 is a Monday)."""
    return datetime(2026, 11, day, hour, tzinfo=NY)


@pytest.fixture
def superuser(user_factory):
    return user_factory(
        email="root@example.com", first_name="Root", is_staff=True, is_superuser=True
    )


@pytest.fixture
def admin_web(client, superuser):
    """Django admin in a browser, signed in as a superuser."""
    client.force_login(superuser)
    return client


@pytest.fixture
def promise(company):
    """Acme's reply-time promise: first reply within 4 business hours, Monday to Friday
    9:00–17:00 New York time."""
    return ServiceLevel.objects.create(
        company=company,
        first_response_minutes=4 * 60,
        resolution_minutes=16 * 60,
        time_zone="America/New_York",
        weekdays="0,1,2,3,4",
        opens=time(9),
        closes=time(17),
    )


def admin_action(admin_web, action: str, *service_requests):
    """Run a changelist action on the selected requests; the page it leads to."""
    data = {
        "action": ADMIN_ACTIONS[action],
        "_selected_action": [r.pk for r in service_requests],
    }
    return admin_web.post(CHANGELIST, data, follow=True)


def committed_live_events(django_capture_on_commit_callbacks, work, count: int):
    """Run `work` as a committed transaction would, subscribed to the live events as an open
    stream is; `work`'s result and the first `count` events it published."""

    def run():
        with django_capture_on_commit_callbacks(execute=True):
            return work()

    async def scenario():
        broker = broker_get()
        subscription = await broker.subscribe()
        try:
            result = await sync_to_async(run)()
            seen = [await asyncio.wait_for(subscription.get(), 5) for _ in range(count)]
            return result, seen
        finally:
            await broker.unsubscribe(subscription)

    return async_to_sync(scenario)()


def status_url(service_request, action: str) -> str:
    return f"{CHANGELIST}{service_request.pk}/status/{action}/"


def rating_emails(outbox, service_request) -> list:
    subject = f"Your request is complete: {service_request.name}"
    return [e for e in outbox.emails(service_request.user.email) if e.subject.endswith(subject)]


def test_completing_from_the_admin_emails_the_rating_links_and_tells_the_employee_live(
    admin_web, user, make_request, outbox, django_capture_on_commit_callbacks
):
    """Issue 24 status changes: completing a request from Django admin does what the desk
    does: Completed with its completion time, the one-tap rating email to the employee, and
    `request.updated` on the live streams."""
    service_request = make_request(user, name="Book a table")

    page, seen = committed_live_events(
        django_capture_on_commit_callbacks,
        lambda: admin_action(admin_web, "complete", service_request),
        count=1,
    )

    assert page.status_code == 200
    assert "1 request completed" in page.content.decode()
    service_request.refresh_from_db()
    assert service_request.status == "closed"
    assert service_request.completed_at is not None
    [event] = seen
    assert (event.type, event.request_id, event.owner_id, event.status) == (
        "request.updated",
        service_request.pk,
        user.pk,
        "closed",
    )
    [email] = rating_emails(outbox, service_request)
    assert "/rate/" in email.body and "?score=5" in email.body


def test_completing_from_the_admin_stops_the_reply_time_clock(
    promise, admin_web, superuser, user, make_request, make_api, concierge
):
    """Issue 24 status changes: a request completed from Django admin after its first-reply
    deadline is no longer 'Overdue' on the desk: its clock stopped when it was completed."""
    with freeze_time(ny(16, 9)):
        service_request = make_request(user, name="Overdue")  # first reply due at 13:00
    with freeze_time(ny(16, 15)):
        admin_web.force_login(superuser)
        assert admin_action(admin_web, "complete", service_request).status_code == 200
    with freeze_time(ny(16, 16)):
        desk = make_api()
        desk.sign_in(concierge.email)
        overdue = desk.get("concierge/requests", query={"due": "overdue"}).json()["requests"]
        detail = desk.get(f"concierge/requests/{service_request.pk}").json()["request"]
    assert overdue == []
    assert detail["sla"]["state"] == "completed"
    clock = RequestClock.objects.get(request=service_request)
    assert clock.completed_at == ny(16, 15) and clock.due_at is None


def clock_state(service_request) -> tuple:
    clock = RequestClock.objects.get(request=service_request)
    return (clock.completed_at is None, clock.running_since is None)


@pytest.mark.parametrize(
    ("before", "action", "after"),
    [
        ("open", "start", "in_progress"),
        ("open", "complete", "closed"),
        ("closed", "reopen", "open"),
    ],
)
def test_status_actions_from_the_admin_do_what_the_desk_does(
    promise,
    admin_web,
    concierge_api,
    user,
    make_request,
    outbox,
    django_capture_on_commit_callbacks,
    before,
    action,
    after,
):
    """Issue 24 status changes: start, complete and reopen from Django admin change the
    status, the completion time, the reply-time clock, the rating email and the live events
    exactly as the same action from the desk."""
    from_desk = make_request(user, name="From the desk")
    from_admin = make_request(user, name="From the admin")
    if before == "closed":
        for service_request in (from_desk, from_admin):
            services.request_status_change(request=service_request, action="complete")
    emails_before = len(rating_emails(outbox, from_desk))

    desk_answer, desk_events = committed_live_events(
        django_capture_on_commit_callbacks,
        lambda: concierge_api.post(f"concierge/requests/{from_desk.pk}/status", {"action": action}),
        count=1,
    )
    assert desk_answer.status_code == 200, desk_answer.content
    page, admin_events = committed_live_events(
        django_capture_on_commit_callbacks,
        lambda: admin_action(admin_web, action, from_admin),
        count=1,
    )
    assert page.status_code == 200

    for service_request in (from_desk, from_admin):
        service_request.refresh_from_db()
        assert service_request.status == after
    assert (from_admin.completed_at is None) == (from_desk.completed_at is None)
    assert clock_state(from_admin) == clock_state(from_desk)
    assert [(e.type, e.status) for e in admin_events] == [(e.type, e.status) for e in desk_events]
    rating_emails_sent = emails_before + (1 if action == "complete" else 0)
    assert len(rating_emails(outbox, from_desk)) == rating_emails_sent
    assert len(rating_emails(outbox, from_admin)) == rating_emails_sent


def test_status_buttons_on_the_request_page_offer_the_allowed_moves_and_apply_them(
    admin_web, user, make_request, outbox
):
    """Issue 24 status changes: the request's admin page offers the moves its status allows;
    the Complete button completes it through the service (rating email included) and says
    so; a move its status does not allow is refused with the desk's reason."""
    service_request = make_request(user, name="Book a table")
    page_url = f"{CHANGELIST}{service_request.pk}/change/"
    page = admin_web.get(page_url).content.decode()
    assert f'action="{status_url(service_request, "start")}"' in page
    assert f'action="{status_url(service_request, "complete")}"' in page
    assert f'action="{status_url(service_request, "reopen")}"' not in page

    done = admin_web.post(status_url(service_request, "complete"))
    assert done.status_code == 302 and done["Location"] == page_url
    page = admin_web.get(page_url).content.decode()
    assert "1 request completed" in page
    assert f'action="{status_url(service_request, "reopen")}"' in page
    assert f'action="{status_url(service_request, "start")}"' not in page
    service_request.refresh_from_db()
    assert service_request.status == "closed"
    assert len(rating_emails(outbox, service_request)) == 1

    again = admin_web.post(status_url(service_request, "complete"), follow=True)
    assert "This request is already Completed." in again.content.decode()
    assert admin_web.get(status_url(service_request, "complete")).status_code == 405
    assert admin_web.post(status_url(service_request, "archive")).status_code == 404
    assert len(rating_emails(outbox, service_request)) == 1


def test_a_refused_admin_action_says_why_and_applies_to_the_others(admin_web, user, make_request):
    """Issue 24 status changes: an action on several requests applies where the status allows
    it and names each request it was refused for, with the desk's reason."""
    waiting = make_request(user, name="Waiting")
    done = make_request(user, name="Done already")
    services.request_status_change(request=done, action="complete")

    page = admin_action(admin_web, "start", waiting, done).content.decode()

    assert "1 request started" in page
    assert "Done already" in page and "Reopen it before starting it again." in page
    waiting.refresh_from_db()
    done.refresh_from_db()
    assert (waiting.status, done.status) == ("in_progress", "closed")


def change_form(service_request, **changes) -> dict:
    """The request's admin change form as the browser posts it (the thread inline is
    read-only, so it posts only its management form)."""
    data = {
        "name": service_request.name,
        "details": service_request.details,
        "survey_category": "",
        "assignee": service_request.assignee_id or "",
        "issued_at_0": service_request.issued_at.strftime("%Y-%m-%d"),
        "issued_at_1": service_request.issued_at.strftime("%H:%M:%S"),
        "seen_by_employee_at_0": "",
        "seen_by_employee_at_1": "",
        "messages-TOTAL_FORMS": "0",
        "messages-INITIAL_FORMS": "0",
        "messages-MIN_NUM_FORMS": "0",
        "messages-MAX_NUM_FORMS": "0",
    }
    data.update(changes)
    return data


def test_owner_and_status_cannot_be_changed_through_the_admin_form(
    admin_web, user, other_user, make_request
):
    """Issue 24 status changes: the change form shows the owner and status read-only; posting
    other values changes neither (the other fields still save)."""
    service_request = make_request(user, name="Book a table")
    url = f"{CHANGELIST}{service_request.pk}/change/"
    page = admin_web.get(url).content.decode()
    assert 'name="user"' not in page and 'name="status"' not in page

    form = change_form(
        service_request, name="Book a table for two", user=other_user.pk, status="closed"
    )
    response = admin_web.post(url, form)

    assert response.status_code == 302, response.content.decode()
    service_request.refresh_from_db()
    assert service_request.name == "Book a table for two"
    assert (service_request.user_id, service_request.status) == (user.pk, "open")
    assert service_request.completed_at is None


def test_assigning_in_the_admin_goes_through_the_assignment_rules(
    admin_web, user, other_user, concierge, make_request, django_capture_on_commit_callbacks
):
    """Issue 24 status changes: the admin form assigns only a concierge (else the desk's
    message on the field), and an assignment made there is announced on the live streams."""
    service_request = make_request(user, name="Book a table")
    url = f"{CHANGELIST}{service_request.pk}/change/"

    refused = admin_web.post(url, change_form(service_request, assignee=other_user.pk))
    assert refused.status_code == 200
    assert services.NOT_A_CONCIERGE in refused.content.decode()
    service_request.refresh_from_db()
    assert service_request.assignee_id is None

    response, seen = committed_live_events(
        django_capture_on_commit_callbacks,
        lambda: admin_web.post(url, change_form(service_request, assignee=concierge.pk)),
        count=1,
    )
    assert response.status_code == 302
    service_request.refresh_from_db()
    assert service_request.assignee_id == concierge.pk
    [event] = seen
    assert (event.type, event.request_id) == ("request.updated", service_request.pk)


def test_requests_are_not_added_in_the_admin(admin_web):
    """Issue 24 status changes: a request is made by its employee (with its clock and count),
    never from an admin form without an owner."""
    assert admin_web.get(f"{CHANGELIST}add/").status_code == 403
