"""Issue 24 'Live streams that scale and always come back', against a real events process.

One uvicorn process serves the API and the streams on the test database (the embedded layout
pointed at the database of the run: PostgreSQL in CI, where the connection pool of
`DB_POOL_MAX` exists), as a production events server runs them.
"""

from __future__ import annotations

import asyncio
import signal

import httpx
import pytest

from concierge.accounts.services.identity import user_sign_in
from concierge.live.drain import RECONNECT_MAX_MS, RECONNECT_MIN_MS
from concierge.live.tests.servers import EventStream, bearer, events_server
from concierge.servicerequests.models import ServiceRequest
from conftest import DEFAULT_PASSWORD

pytestmark = pytest.mark.django_db(transaction=True)

STREAMS = 50


def _client(base_url: str) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        base_url=base_url, timeout=20, limits=httpx.Limits(max_connections=None)
    )


async def _open_streams(client: httpx.AsyncClient, token: str, count: int) -> list[EventStream]:
    """`count` streams of one employee, each with its own ticket, one after the other."""
    streams = []
    for _ in range(count):
        ticket = await client.post("/api/v1/events/ticket", headers=bearer(token))
        assert ticket.status_code == 200, (len(streams), ticket.status_code, ticket.text)
        streams.append(await EventStream.open(client, ticket.json()["url"]))
    return streams


async def _reply(client: httpx.AsyncClient, token: str, request_id: int, body: str) -> int:
    response = await client.post(
        f"/api/v1/concierge/requests/{request_id}/messages",
        headers=bearer(token),
        json={"message": {"body": body}},
    )
    assert response.status_code == 201, response.text
    return int(response.json()["message"]["id"])


def test_fifty_streams_on_a_process_with_a_pool_of_five_all_open_and_all_get_their_events(
    user, concierge, make_request
):
    """Issue 24: with DB_POOL_MAX=5, one process holds 50 streams (each ticket and each open
    answers 200), keeps answering its API, and every stream receives the reply's event"""
    service_request = make_request(user, status=ServiceRequest.Status.IN_PROGRESS)
    employee = user_sign_in(email=user.email, password=DEFAULT_PASSWORD).token
    desk = user_sign_in(email=concierge.email, password=DEFAULT_PASSWORD).token

    async def scenario(base_url: str) -> tuple[int, list[dict]]:
        async with _client(base_url) as client:
            streams = await _open_streams(client, employee, STREAMS)
            try:
                current = await client.get("/api/v1/users/current", headers=bearer(employee))
                assert current.status_code == 200, current.text
                message_id = await _reply(client, desk, service_request.pk, "On it!")
                received = await asyncio.gather(
                    *(s.event_where(type="message.created") for s in streams)
                )
                return message_id, received
            finally:
                for stream in streams:
                    await stream.close()

    with events_server(DB_POOL_MAX="5") as server:
        message_id, received = asyncio.run(scenario(server.api_url))
    assert len(received) == STREAMS
    assert all(
        event == {"type": "message.created", "request_id": service_request.pk,
                  "message_id": message_id, "status": "in_progress"}
        for event in received
    )  # fmt: skip


def test_sigterm_tells_every_open_stream_to_reconnect_and_ends_it_cleanly(user):
    """Issue 24 drain: on SIGTERM each open stream gets `retry:` with a short delay and ends
    (a complete response, not a cut connection), and the server stops without cancelling
    anything"""
    employee = user_sign_in(email=user.email, password=DEFAULT_PASSWORD).token

    async def scenario(base_url: str, stop) -> list[list[str]]:  # noqa: ANN001 (a callable)
        async with _client(base_url) as client:
            streams = await _open_streams(client, employee, 10)
            stop()
            return await asyncio.gather(*(s.rest() for s in streams))

    with events_server() as server:
        process = server.processes[0]
        endings = asyncio.run(scenario(server.api_url, lambda: process.send_signal(signal.SIGTERM)))
        process.wait(timeout=15)
        log = server.log_tail(100)
    for rest in endings:
        retry = [line for line in rest if line.startswith("retry: ")]
        assert len(retry) == 1, rest
        assert RECONNECT_MIN_MS <= int(retry[0].removeprefix("retry: ")) <= RECONNECT_MAX_MS
    assert "Cancel" not in log, log
    assert "Traceback" not in log, log
