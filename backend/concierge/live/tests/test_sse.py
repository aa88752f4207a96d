"""Issue #5 'Live' and 'Security': the SSE stream, its ticket, and what each user receives.

Streams are read through Django's AsyncClient (the real async view and middleware, with the
streaming body read chunk by chunk), and once through the real ASGI handler with a client
disconnect. Each stream test runs with the in-process broker and again with Redis.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import AsyncClient
from django.utils import timezone
from freezegun import freeze_time

from concierge.concierge_desk import services as desk_services
from concierge.live import drain, sse
from concierge.live.broker import broker_get
from concierge.live.sse import TICKET_INVALID
from concierge.servicerequests import services

pytestmark = pytest.mark.django_db

EVENTS_URL = "/api/v1/events"


def ticket_for(api) -> str:
    response = api.post("events/ticket")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["expires_in"] == 60
    assert body["url"] == f"{EVENTS_URL}?ticket={body['ticket']}"
    return body["ticket"]


class Stream:
    """Reads Server-Sent Events from a streaming response's async iterator."""

    def __init__(self, chunks: AsyncIterator[bytes]) -> None:
        self.chunks = chunks
        self.buffer = ""

    async def next_block(self, timeout: float = 5.0) -> str:
        while "\n\n" not in self.buffer:
            chunk = await asyncio.wait_for(anext(self.chunks), timeout)  # type: ignore[arg-type]
            self.buffer += chunk.decode() if isinstance(chunk, bytes) else chunk
        block, self.buffer = self.buffer.split("\n\n", 1)
        return block

    async def next_event(self, timeout: float = 5.0) -> dict:
        """The next data event (skipping comments and the retry hint)."""
        while True:
            block = await self.next_block(timeout)
            data = [line[6:] for line in block.splitlines() if line.startswith("data: ")]
            if data:
                return json.loads("\n".join(data))

    async def no_event(self, timeout: float = 0.5) -> bool:
        try:
            await self.next_event(timeout)
        except TimeoutError:
            return True
        return False

    async def close(self) -> None:
        await self.chunks.aclose()  # type: ignore[attr-defined]


async def open_stream(query: dict | None = None, headers: dict | None = None) -> Stream:
    response = await AsyncClient().get(EVENTS_URL, query or {}, headers=headers or {})
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "text/event-stream"
    assert response["Cache-Control"] == "no-cache, no-transform"
    stream = Stream(response.streaming_content)  # type: ignore[arg-type]
    first = await stream.next_block()
    assert first == "retry: 3000\n: connected"  # subscribed from here on
    return stream


def committed(django_capture_on_commit_callbacks, work):
    """Run `work` as a committed transaction would: its on-commit publishing runs."""

    def run():
        with django_capture_on_commit_callbacks(execute=True):
            return work()

    return sync_to_async(run)


# --------------------------------------------------------------------------- the ticket


def test_ticket_needs_a_signed_in_user(api):
    response = api.post("events/ticket")
    assert response.status_code == 401
    assert response.json() == {"success": False, "error": "Please sign in to continue."}


def test_stream_without_credentials_is_refused(api):
    response = api.client.get(EVENTS_URL)
    assert response.status_code == 401
    assert response.json()["success"] is False


@pytest.mark.parametrize("ticket", ["nonsense", "1:2:abc:def", "x" * 600])
def test_forged_ticket_is_refused(api, ticket):
    response = api.client.get(EVENTS_URL, {"ticket": ticket})
    assert response.status_code == 401
    assert response.json()["error"] == TICKET_INVALID


def test_ticket_expires_after_a_minute(signed_in_api):
    ticket = ticket_for(signed_in_api)
    with freeze_time(timezone.now() + timedelta(seconds=61)):
        response = signed_in_api.client.get(EVENTS_URL, {"ticket": ticket})
    assert response.status_code == 401
    assert response.json()["error"] == TICKET_INVALID


def test_ticket_of_a_signed_out_session_is_refused(signed_in_api):
    ticket = ticket_for(signed_in_api)
    signed_in_api.sign_out()
    response = signed_in_api.client.get(EVENTS_URL, {"ticket": ticket})
    assert response.status_code == 401


def test_a_raw_bearer_token_in_the_url_is_not_accepted(signed_in_api):
    response = signed_in_api.client.get(EVENTS_URL, {"token": signed_in_api.token})
    assert response.status_code == 401


def test_header_auth_keeps_the_mfa_gate(api, user, company):
    company.requires_mfa = True
    company.save()
    user.mfa_phone = "5551234567"
    user.save()
    assert api.sign_in(user.email).status_code == 200
    response = api.client.get(EVENTS_URL, headers={"Authorization": f"Bearer {api.token}"})
    assert response.status_code == 401
    assert response.json()["error"] == "MFA authentication required"


def test_only_get_opens_a_stream(signed_in_api):
    response = signed_in_api.client.post(EVENTS_URL, {"ticket": ticket_for(signed_in_api)})
    assert response.status_code == 405


# --------------------------------------------------------------------------- what arrives


def test_employee_stream_gets_their_own_messages_but_not_another_employees(
    broker_kind,
    signed_in_api,
    user,
    user_factory,
    concierge,
    make_request,
    django_capture_on_commit_callbacks,
):
    mine = make_request(user, name="Mine")
    other = user_factory(email="grace@example.com", first_name="Grace")
    theirs = make_request(other, name="Theirs")
    ticket = ticket_for(signed_in_api)

    async def scenario():
        stream = await open_stream({"ticket": ticket})
        try:
            await committed(
                django_capture_on_commit_callbacks,
                lambda: services.message_create(request=theirs, author=other, body="Secret"),
            )()
            reply = await committed(
                django_capture_on_commit_callbacks,
                lambda: services.concierge_reply_create(
                    request=mine, author=concierge, body="On it!"
                ),
            )()
            first = await stream.next_event()
            second = await stream.next_event()
            assert await stream.no_event()
            return reply, [first, second]
        finally:
            await stream.close()

    reply, received = async_to_sync(scenario)()
    # Both carry the status the reply committed (the first reply moves the request In Progress).
    assert received == [
        {
            "type": "message.created",
            "request_id": mine.pk,
            "message_id": reply.pk,
            "status": "in_progress",
        },
        {"type": "request.updated", "request_id": mine.pk, "status": "in_progress"},
    ]


def test_employee_stream_never_carries_internal_notes(
    broker_kind, signed_in_api, user, concierge, make_request, django_capture_on_commit_callbacks
):
    service_request = make_request(user)
    ticket = ticket_for(signed_in_api)

    async def scenario():
        stream = await open_stream({"ticket": ticket})
        try:
            await committed(
                django_capture_on_commit_callbacks,
                lambda: desk_services.note_create(
                    request=service_request, author=concierge, body="VIP, be quick"
                ),
            )()
            await committed(
                django_capture_on_commit_callbacks,
                lambda: desk_services.presence_touch(request_id=service_request.pk, user=concierge),
            )()
            await committed(
                django_capture_on_commit_callbacks,
                lambda: services.request_status_change(request=service_request, action="start"),
            )()
            # The status change arrives; the note and the presence before it never did.
            return await stream.next_event(), stream.buffer
        finally:
            await stream.close()

    event, rest = async_to_sync(scenario)()
    assert event == {
        "type": "request.updated",
        "request_id": service_request.pk,
        "status": "in_progress",
    }
    assert "note" not in rest and "presence" not in rest


def test_concierge_stream_gets_every_companys_requests_and_notes(
    broker_kind,
    concierge_api,
    concierge,
    user,
    user_factory,
    company_factory,
    make_request,
    django_capture_on_commit_callbacks,
):
    globex = company_factory(slug="globex", name="Globex")
    bob = user_factory(email="bob@globex.example", first_name="Bob", companies=[globex])
    ticket = ticket_for(concierge_api)

    async def scenario():
        stream = await open_stream({"ticket": ticket})
        try:
            acme_request = await committed(
                django_capture_on_commit_callbacks, lambda: make_request(user, name="Acme's")
            )()
            globex_request = await committed(
                django_capture_on_commit_callbacks, lambda: make_request(bob, name="Globex's")
            )()
            note = await committed(
                django_capture_on_commit_callbacks,
                lambda: desk_services.note_create(
                    request=globex_request, author=concierge, body="Call him"
                ),
            )()
            events = [await stream.next_event() for _ in range(3)]
            return acme_request, globex_request, note, events
        finally:
            await stream.close()

    acme_request, globex_request, note, events = async_to_sync(scenario)()
    assert events == [
        {"type": "request.created", "request_id": acme_request.pk, "status": "open"},
        {"type": "request.created", "request_id": globex_request.pk, "status": "open"},
        {"type": "note.created", "request_id": globex_request.pk, "note_id": note.pk},
    ]


def test_header_authenticated_stream_works_too(broker_kind, signed_in_api):
    async def scenario():
        stream = await open_stream(headers={"Authorization": f"Bearer {signed_in_api.token}"})
        await stream.close()

    async_to_sync(scenario)()
    assert broker_get().hub.count() == 0  # type: ignore[attr-defined]


def test_stream_sends_heartbeat_comments(settings, signed_in_api):
    settings.REDIS_URL = ""
    settings.EVENTS_HEARTBEAT_SECONDS = 0.2
    ticket = ticket_for(signed_in_api)

    async def scenario():
        stream = await open_stream({"ticket": ticket})
        try:
            return await stream.next_block(timeout=5)
        finally:
            await stream.close()

    assert async_to_sync(scenario)() == ": ping"


def test_stream_ends_when_the_session_is_signed_out(settings, monkeypatch, signed_in_api):
    settings.REDIS_URL = ""
    settings.EVENTS_HEARTBEAT_SECONDS = 0.05
    monkeypatch.setattr(sse, "RECHECK_SESSION_SECONDS", 0.0)
    ticket = ticket_for(signed_in_api)

    async def scenario():
        stream = await open_stream({"ticket": ticket})
        await sync_to_async(signed_in_api.sign_out)()
        with pytest.raises(StopAsyncIteration):
            while True:
                await stream.next_block(timeout=5)

    async_to_sync(scenario)()
    assert broker_get().hub.count() == 0  # type: ignore[attr-defined]


# --------------------------------------------------------------------------- real ASGI


class AsgiConnection:
    """One HTTP connection to the ASGI app, as a server would drive it."""

    def __init__(self, path: str, query_string: str) -> None:
        self.incoming: asyncio.Queue = asyncio.Queue()
        self.outgoing: asyncio.Queue = asyncio.Queue()
        self.scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "GET",
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": query_string.encode(),
            "root_path": "",
            "headers": [(b"host", b"testserver"), (b"accept", b"text/event-stream")],
            "client": ("127.0.0.1", 50000),
            "server": ("testserver", 80),
        }

    async def open(self) -> tuple[int, dict[str, str]]:
        await self.incoming.put({"type": "http.request", "body": b"", "more_body": False})
        self.task = asyncio.create_task(
            ASGIHandler()(self.scope, self.incoming.get, self.outgoing.put)
        )
        start = await asyncio.wait_for(self.outgoing.get(), 5)
        assert start["type"] == "http.response.start"
        return start["status"], {k.decode().lower(): v.decode() for k, v in start["headers"]}

    async def read_until(self, text: str) -> str:
        body = ""
        while text not in body:
            message = await asyncio.wait_for(self.outgoing.get(), 5)
            body += message.get("body", b"").decode()
        return body

    async def disconnect(self) -> None:
        await self.incoming.put({"type": "http.disconnect"})
        await asyncio.wait_for(self.task, 5)


def test_real_asgi_stream_delivers_and_ends_when_the_client_disconnects(
    broker_kind, signed_in_api, user, make_request, concierge, django_capture_on_commit_callbacks
):
    service_request = make_request(user)
    ticket = ticket_for(signed_in_api)
    # Like Django's own test client: keep the test's transaction open across "requests".
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)

    async def scenario():
        connection = AsgiConnection(EVENTS_URL, f"ticket={ticket}")
        status, headers = await connection.open()
        assert status == 200
        assert headers["content-type"] == "text/event-stream"
        await connection.read_until(": connected")
        await committed(
            django_capture_on_commit_callbacks,
            lambda: services.request_status_change(request=service_request, action="start"),
        )()
        body = await connection.read_until("\n\n")
        await connection.disconnect()
        return body

    try:
        body = async_to_sync(scenario)()
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)
    assert (
        f'data: {{"type":"request.updated","request_id":{service_request.pk},'
        '"status":"in_progress"}' in body
    )
    assert broker_get().hub.count() == 0  # type: ignore[attr-defined]  # unsubscribed


# --------------------------------------------------------------------------- WSGI servers


def test_stream_misrouted_to_the_wsgi_api_server_says_where_it_lives(signed_in_api):
    """Streams are served over ASGI only: a stream request that reaches the WSGI API server
    (a load balancer without the events route) gets a clear 503, not a held thread."""
    response = signed_in_api.client.get(EVENTS_URL, {"ticket": ticket_for(signed_in_api)})
    assert response.status_code == 503
    assert response.json()["error"] == "The event stream is served by the events server."


# --------------------------------------------------------------------------- issue 24


@pytest.fixture
def stopping(monkeypatch):
    """Draining this process's streams, as SIGTERM does; undone after the test."""
    monkeypatch.setitem(drain._state, "draining", False)
    return drain.drain


def _reconnect_hint(block: str) -> int:
    retry, comment = block.splitlines()
    assert comment == ": reconnect"
    delay = int(retry.removeprefix("retry: "))
    assert drain.RECONNECT_MIN_MS <= delay <= drain.RECONNECT_MAX_MS
    return delay


def test_draining_tells_open_streams_to_reconnect_and_ends_them(
    broker_kind, stopping, signed_in_api
):
    """Issue 24 drain: when the process stops, an open stream's last lines are a short
    `retry:` and it ends; a stream opened meanwhile gets the same at once"""
    ticket = ticket_for(signed_in_api)

    async def scenario():
        stream = await open_stream({"ticket": ticket})
        stopping()
        _reconnect_hint(await stream.next_block())
        with pytest.raises(StopAsyncIteration):
            await stream.next_block()
        response = await AsyncClient().get(EVENTS_URL, {"ticket": ticket})
        assert response.status_code == 200
        late = Stream(response.streaming_content)  # type: ignore[arg-type]
        _reconnect_hint(await late.next_block())
        with pytest.raises(StopAsyncIteration):
            await late.next_block()

    async_to_sync(scenario)()
    assert broker_get().hub.count() == 0  # type: ignore[attr-defined]


async def _until_the_end(stream: Stream) -> None:
    with pytest.raises(StopAsyncIteration):
        while True:
            await stream.next_block()


def test_stream_ends_when_a_concierge_loses_the_role(
    settings, monkeypatch, concierge, concierge_api
):
    """Issue 24: the periodic re-check reads the role again: a concierge taken out of the
    group stops receiving every company's events (the stream ends; a new one is an
    employee's)"""
    settings.REDIS_URL = ""
    settings.EVENTS_HEARTBEAT_SECONDS = 0.05
    monkeypatch.setattr(sse, "RECHECK_SESSION_SECONDS", 0.0)
    ticket = ticket_for(concierge_api)

    async def scenario():
        stream = await open_stream({"ticket": ticket})
        await sync_to_async(concierge.groups.clear)()
        await asyncio.wait_for(_until_the_end(stream), 5)

    async_to_sync(scenario)()
    assert broker_get().hub.count() == 0  # type: ignore[attr-defined]
