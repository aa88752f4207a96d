"""Issue #5 'Live': events published after the commit, who may see them, and both brokers."""

from __future__ import annotations

import asyncio
import threading
import uuid

import pytest
from asgiref.sync import async_to_sync
from django.db import transaction

from concierge.live import events
from concierge.live.broker import InProcessBroker, RedisBroker, broker_get
from concierge.live.events import Event, event_visible_to
from concierge.live.tests.conftest import reachable_redis_url
from concierge.servicerequests import services

pytestmark = pytest.mark.django_db


def test_events_are_published_only_when_the_transaction_commits(
    published, user, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        service_request = services.request_create(user=user, name="Book a table")
        services.message_create(request=service_request, author=user, body="For two, please")
    assert published.events == []  # nothing leaves before the commit
    for callback in callbacks:
        callback()
    assert published.types() == [events.REQUEST_CREATED, events.MESSAGE_CREATED]
    created, message = published.events
    assert (created.request_id, created.owner_id, created.status) == (
        service_request.pk,
        user.pk,
        "open",
    )
    assert message.message_id == service_request.messages.get().pk


def test_nothing_is_published_for_work_that_rolls_back(
    published, user, django_capture_on_commit_callbacks
):
    with (
        django_capture_on_commit_callbacks(execute=True),
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        services.request_create(user=user, name="Rolled back")
        raise RuntimeError("boom")
    assert published.events == []


def test_employee_reopening_a_closed_request_publishes_the_new_status(
    published, user, django_capture_on_commit_callbacks
):
    service_request = services.request_create(user=user, name="Done already")
    services.request_status_change(request=service_request, action="complete")
    with django_capture_on_commit_callbacks(execute=True):
        services.message_create(
            request=service_request, author=user, body="One more thing", reopen=True
        )
    assert published.types() == [events.MESSAGE_CREATED, events.REQUEST_UPDATED]
    assert published.events[-1].status == "open"


def test_issue_30_a_first_reply_publishes_its_message_and_the_request_in_progress(
    published, user, concierge, django_capture_on_commit_callbacks
):
    """A concierge's first reply to a queued, unassigned request moves it In Progress and
    assigns it in the message's own UPDATE of the request: the streams get the message and the
    request's new status, in that order, and the row holds both changes."""
    service_request = services.request_create(user=user, name="Find a plumber")
    with django_capture_on_commit_callbacks(execute=True):
        services.concierge_reply_create(request=service_request, author=concierge, body="On it")
    assert published.types() == [events.MESSAGE_CREATED, events.REQUEST_UPDATED]
    assert [event.status for event in published.events] == ["in_progress", "in_progress"]
    service_request.refresh_from_db()
    assert (service_request.status, service_request.assignee_id) == ("in_progress", concierge.pk)
    with django_capture_on_commit_callbacks(execute=True):
        services.concierge_reply_create(request=service_request, author=concierge, body="Booked")
    assert published.types()[2:] == [events.MESSAGE_CREATED]


def test_a_rating_and_its_comment_reach_the_desk_live_and_never_an_employee(
    published, signed_in_api, user, concierge, django_capture_on_commit_callbacks
):
    """Satisfaction: the desk's open request shows the employee's rating and comment as they
    arrive (a staff-only event, as the desk refetches the request on any of its events)."""
    service_request = services.request_create(user=user, name="Find a dog walker")
    services.concierge_reply_create(request=service_request, author=concierge, body="Done!")
    services.request_status_change(request=service_request, action="complete")
    published.events.clear()
    with django_capture_on_commit_callbacks(execute=True):
        rated = signed_in_api.post(f"requests/{service_request.pk}/rating", {"score": 4})
        assert rated.status_code == 201, rated.content
        commented = signed_in_api.patch(
            f"requests/{service_request.pk}/rating", {"comment": "Lovely walker"}
        )
        assert commented.status_code == 200, commented.content
    assert published.types() == [events.RATING_CHANGED, events.RATING_CHANGED]
    for event in published.events:
        assert event.request_id == service_request.pk and event.staff_only
        assert event_visible_to(event, user_id=concierge.pk, is_concierge=True)
        assert not event_visible_to(event, user_id=user.pk, is_concierge=False)


def test_opening_a_thread_with_an_unseen_reply_publishes_request_seen_to_its_employee_once(
    published, signed_in_api, user, user_factory, django_capture_on_commit_callbacks
):
    """Unread replies: the employee's other screens and tabs (and the desk's open request)
    learn that the thread was opened; reading it again, or a thread with nothing new, is a
    read and publishes nothing."""
    service_request = services.request_create(user=user, name="Find a plumber")
    services.message_create(request=service_request, author=None, body="Tuesday at 9?")
    quiet = services.request_create(user=user, name="Nothing new")

    def open_thread(request_id: int) -> None:
        with django_capture_on_commit_callbacks(execute=True):
            assert signed_in_api.get(f"requests/{request_id}").status_code == 200

    published.events.clear()
    open_thread(service_request.pk)
    assert published.types() == [events.REQUEST_SEEN]
    seen = published.events[0]
    assert (seen.request_id, seen.owner_id, seen.status) == (service_request.pk, user.pk, "open")
    assert seen.payload() == {
        "type": "request.seen",
        "request_id": service_request.pk,
        "status": "open",
    }
    assert event_visible_to(seen, user_id=user.pk, is_concierge=False)
    other = user_factory(email="grace@example.com")
    assert not event_visible_to(seen, user_id=other.pk, is_concierge=False)

    published.events.clear()
    open_thread(service_request.pk)
    open_thread(quiet.pk)
    assert published.events == []


def test_an_employee_sees_only_their_own_requests_events_and_never_staff_only_ones():
    mine = Event(type=events.MESSAGE_CREATED, request_id=1, owner_id=7, message_id=3)
    theirs = Event(type=events.MESSAGE_CREATED, request_id=2, owner_id=8, message_id=4)
    note = Event(type=events.NOTE_CREATED, request_id=1, owner_id=7, staff_only=True, note_id=5)
    presence = Event(type=events.PRESENCE_UPDATED, request_id=1, staff_only=True)
    assert event_visible_to(mine, user_id=7, is_concierge=False)
    assert not event_visible_to(theirs, user_id=7, is_concierge=False)
    assert not event_visible_to(note, user_id=7, is_concierge=False)
    assert not event_visible_to(presence, user_id=7, is_concierge=False)
    # One shared desk: a concierge sees everything, notes included.
    for event in (mine, theirs, note, presence):
        assert event_visible_to(event, user_id=99, is_concierge=True)


def test_the_client_payload_carries_no_owner_or_audience():
    note = Event(type=events.NOTE_CREATED, request_id=1, owner_id=7, staff_only=True, note_id=5)
    assert note.payload() == {"type": "note.created", "request_id": 1, "note_id": 5}
    update = Event(type=events.REQUEST_UPDATED, request_id=1, owner_id=7, status="closed")
    assert update.payload() == {"type": "request.updated", "request_id": 1, "status": "closed"}
    assert Event.from_json(note.to_json()) == note


def test_broker_is_in_process_without_redis_url_and_redis_with_it(settings):
    settings.REDIS_URL = ""
    assert isinstance(broker_get(), InProcessBroker)
    settings.REDIS_URL = "redis://127.0.0.1:6379/0"
    assert isinstance(broker_get(), RedisBroker)


def test_in_process_broker_delivers_events_published_from_another_thread():
    broker = InProcessBroker()
    event = Event(type=events.MESSAGE_CREATED, request_id=1, owner_id=2, message_id=3)

    async def scenario():
        subscription = await broker.subscribe()
        publisher = threading.Thread(target=broker.publish, args=(event,))
        publisher.start()
        received = await asyncio.wait_for(subscription.get(), 5)
        publisher.join()
        await broker.unsubscribe(subscription)
        return received

    assert async_to_sync(scenario)() == event
    assert broker.hub.count() == 0


def test_a_subscriber_that_falls_too_far_behind_is_closed():
    broker = InProcessBroker()

    async def scenario():
        subscription = await broker.subscribe()
        for n in range(300):
            broker.publish(Event(type=events.MESSAGE_CREATED, request_id=n, owner_id=1))
        await asyncio.sleep(0)  # let the deliveries run
        received = []
        while (event := await asyncio.wait_for(subscription.get(), 5)) is not None:
            received.append(event)
        await broker.unsubscribe(subscription)
        return received

    received = async_to_sync(scenario)()
    assert 0 < len(received) < 300  # the stream ends; the client reconnects and refetches


def test_redis_broker_carries_events_between_processes():
    """Two brokers stand for two app processes sharing one Redis channel."""
    url = reachable_redis_url()
    channel = f"test:events:{uuid.uuid4().hex}"
    process_a, process_b = RedisBroker(url, channel=channel), RedisBroker(url, channel=channel)
    event = Event(type=events.MESSAGE_CREATED, request_id=11, owner_id=22, message_id=33)

    async def scenario():
        subscription = await process_b.subscribe()
        await asyncio.get_running_loop().run_in_executor(None, process_a.publish, event)
        received = await asyncio.wait_for(subscription.get(), 5)
        await process_b.unsubscribe(subscription)
        return received

    assert async_to_sync(scenario)() == event
    assert process_b.hub.count() == 0
    assert process_b._listeners == {}  # the Redis subscription closes with the last stream


def test_redis_publish_failure_is_logged_not_raised(caplog):
    broker = RedisBroker("redis://127.0.0.1:1/0")
    broker.publish(Event(type=events.REQUEST_CREATED, request_id=1, owner_id=1))
    assert "Could not publish request.created" in caplog.text
