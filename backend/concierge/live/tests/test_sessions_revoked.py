"""Issue 26 'Provisioning and offboarding': when an employer deactivates someone, their token
is refused and their open event streams close, measured, in under 2 s (not at the stream's
periodic re-check, a minute later). Through the real ASGI handler, with the in-process broker
and again with Redis."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.core.signals import request_finished, request_started
from django.db import close_old_connections

from concierge.accounts.models import EmployeeRecord
from concierge.accounts.services.memberships import member_deactivate, membership_join
from concierge.live.broker import broker_get
from concierge.live.tests.test_sse import EVENTS_URL, AsgiConnection, ticket_for

pytestmark = pytest.mark.django_db

CLOSE_WITHIN_SECONDS = 2.0


async def _until_the_end(connection: AsgiConnection) -> str:
    """The rest of the response body, once the server has ended it."""
    body = ""
    while True:
        message = await connection.outgoing.get()
        body += message.get("body", b"").decode()
        if message["type"] == "http.response.body" and not message.get("more_body", False):
            return body


@contextmanager
def shared_transaction() -> Iterator[None]:
    """Like Django's test client: keep the test's transaction open across "requests" (after
    the last test-client call, which connects the handlers again)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


def test_deactivation_refuses_the_token_and_closes_the_open_stream_within_two_seconds(
    broker_kind,
    settings,
    signed_in_api,
    user,
    company,
    django_capture_on_commit_callbacks,
):
    """Issue 26: deactivation -> token refused (401) -> open stream closed, in under 2 s. The
    periodic session re-check is a minute away, and there is no event for the user to wait for:
    only the revocation can end the stream this fast."""
    settings.EVENTS_HEARTBEAT_SECONDS = 30
    record = membership_join(user=user, company=company, source=EmployeeRecord.Source.ADMIN)
    ticket = ticket_for(signed_in_api)
    timings: dict[str, float] = {}

    def deactivate() -> None:
        with django_capture_on_commit_callbacks(execute=True):
            member_deactivate(record=record)

    async def scenario() -> str:
        connection = AsgiConnection(EVENTS_URL, f"ticket={ticket}")
        status, _ = await connection.open()
        assert status == 200
        await connection.read_until(": connected")
        started = time.monotonic()
        await sync_to_async(deactivate)()
        refused = await sync_to_async(signed_in_api.get)("users/current")
        request_started.disconnect(close_old_connections)  # the test client connected them
        request_finished.disconnect(close_old_connections)
        assert refused.status_code == 401
        timings["token_refused"] = time.monotonic() - started
        rest = await asyncio.wait_for(_until_the_end(connection), CLOSE_WITHIN_SECONDS)
        timings["stream_closed"] = time.monotonic() - started
        await asyncio.wait_for(connection.task, 5)
        return rest

    with shared_transaction():
        rest = async_to_sync(scenario)()
    print(f"issue 26 [{broker_kind}] deactivation -> 401 in {timings['token_refused']:.3f} s, "
          f"-> stream closed in {timings['stream_closed']:.3f} s")  # fmt: skip
    assert timings["stream_closed"] < CLOSE_WITHIN_SECONDS
    assert "data:" not in rest  # the internal event is never sent to a client
    assert broker_get().hub.count() == 0  # type: ignore[attr-defined]  # unsubscribed


def test_a_revocation_of_someone_else_leaves_the_stream_open(
    broker_kind,
    signed_in_api,
    user,
    company,
    user_factory,
    django_capture_on_commit_callbacks,
):
    """Issue 26: only the deactivated person's streams end (another viewer's stream hears the
    event, ignores it and stays open)"""
    other = user_factory(email="grace@example.com", first_name="Grace")
    record = membership_join(user=other, company=company, source=EmployeeRecord.Source.ADMIN)
    ticket = ticket_for(signed_in_api)

    def deactivate() -> None:
        with django_capture_on_commit_callbacks(execute=True):
            member_deactivate(record=record)

    async def scenario() -> None:
        connection = AsgiConnection(EVENTS_URL, f"ticket={ticket}")
        await connection.open()
        await connection.read_until(": connected")
        await sync_to_async(deactivate)()
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(_until_the_end(connection), 1.0)
        await connection.disconnect()

    with shared_transaction():
        async_to_sync(scenario)()
    assert signed_in_api.get("users/current").status_code == 200
