"""SSE reply latency: from a concierge's reply POST to the event on the employee's stream.

The employee opens ONE live event stream (ticket, then GET /api/v1/events); the concierge,
signed in through POST /api/v1/users/sign_in, sends replies one after the other at a fixed
pace, in turn to each of the employee's In Progress requests (10: 200 replies add 20 to each
thread, so the reply's answer, which carries the whole thread, stays of a usual size). Before
the run each of those requests gets one warm-up reply, not measured: it assigns the request
to the concierge, and the first publishes open each worker's Redis connection. A reply's latency runs from just before its POST is
sent to when its `message.created` event (matched by `message_id`) is read off the stream; an
event that has not come within the timeout counts as missed. The POSTs do not wait for the
events, so a missed event does not hold up the next reply.

The PostgreSQL layouts run with REDIS_URL: every event goes PUBLISH → Redis → each events
worker's subscription → the stream, whichever process took the POST (the API server, when the
stream has its own), so this is the cross-process path. The embedded default (one process, no
Redis) publishes in process.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import Counter
from dataclasses import dataclass, field

import httpx

from bench.load import percentile_ms

MESSAGE_CREATED = "message.created"


@dataclass
class SseResult:
    sent: int = 0
    latencies: list[float] = field(default_factory=list)  # POST sent → event read, seconds
    post_latencies: list[float] = field(default_factory=list)  # POST sent → 201 answer
    errors: Counter[str] = field(default_factory=Counter)  # replies that failed: "HTTP 500"
    missed: int = 0  # created (201) but no event within the timeout
    send_lag: list[float] = field(default_factory=list)  # due time → actually sent
    sending_seconds: float = 0.0  # first due time → last POST answered
    stream_ended: bool = False  # the server closed the stream before the end

    @property
    def error_count(self) -> int:
        return sum(self.errors.values())

    def percentile_ms(self, p: float) -> float:
        return percentile_ms(self.latencies, p)

    def post_percentile_ms(self, p: float) -> float:
        return percentile_ms(self.post_latencies, p)

    @property
    def max_ms(self) -> float:
        return percentile_ms(self.latencies, 100)


class EmployeeStream:
    """Reads one open event stream; `arrival(message_id)` resolves to the loop time at which
    that message's `message.created` line was read."""

    def __init__(self, request_ids: list[int]) -> None:
        self.request_ids = set(request_ids)
        self.connected = asyncio.Event()
        self.ended = False
        self._arrivals: dict[int, asyncio.Future[float]] = {}

    def arrival(self, message_id: int) -> asyncio.Future[float]:
        future = self._arrivals.get(message_id)
        if future is None:
            future = self._arrivals[message_id] = asyncio.get_running_loop().create_future()
        return future

    async def read(self, response: httpx.Response) -> None:
        loop = asyncio.get_running_loop()
        try:
            async for line in response.aiter_lines():
                if line == ": connected":  # the server's subscription is live from here on
                    self.connected.set()
                if not line.startswith("data:"):
                    continue
                read_at = loop.time()
                data = json.loads(line.removeprefix("data:"))
                if (
                    data.get("type") == MESSAGE_CREATED
                    and data.get("request_id") in self.request_ids
                ):
                    future = self.arrival(int(data["message_id"]))
                    if not future.done():
                        future.set_result(read_at)
        finally:
            self.ended = True


async def sign_in(client: httpx.AsyncClient, email: str, password: str) -> dict[str, str]:
    response = await client.post(
        "/api/v1/users/sign_in", json={"user": {"email": email, "password": password}}
    )
    body = response.json() if response.status_code == 200 else {}
    if response.status_code != 200 or body.get("mfa_required"):
        raise SystemExit(f"SSE: the concierge could not sign in: {response.status_code} {body}")
    return {"Authorization": response.headers["Authorization"]}


async def _open_stream(client: httpx.AsyncClient, employee_token: str) -> str:
    response = await client.post(
        "/api/v1/events/ticket", headers={"Authorization": f"Bearer {employee_token}"}
    )
    if response.status_code != 200:
        raise SystemExit(f"SSE: no stream ticket: {response.status_code} {response.text}")
    return str(response.json()["url"])


async def reply_send(
    client: httpx.AsyncClient, path: str, headers: dict[str, str], body: str
) -> tuple[int | None, str | None]:
    """POST one reply: (the new message's id, None) or (None, what went wrong)."""
    try:
        response = await client.post(path, headers=headers, json={"message": {"body": body}})
    except httpx.HTTPError as exc:
        return None, type(exc).__name__
    if response.status_code != 201:
        return None, f"HTTP {response.status_code}"
    return int(response.json()["message"]["id"]), None


async def reply_latency(
    api_url: str,
    events_url: str,
    *,
    employee_token: str,
    concierge_email: str,
    password: str,
    request_ids: list[int],
    replies: int,
    rate: float,
    timeout: float,
) -> SseResult:
    result = SseResult()
    stream = EmployeeStream(request_ids)
    paths = [f"/api/v1/concierge/requests/{r}/messages" for r in request_ids]
    async with (
        httpx.AsyncClient(base_url=api_url, timeout=timeout) as client,
        # Its own client (the events server): the stream holds its connection open throughout.
        httpx.AsyncClient(base_url=events_url, timeout=httpx.Timeout(timeout, read=None)) as sse,
    ):
        concierge = await sign_in(client, concierge_email, password)
        try:
            url = await _open_stream(client, employee_token)
            async with sse.stream("GET", url) as response:
                if response.status_code != 200:
                    raise SystemExit(f"SSE: the stream answered {response.status_code}")
                reader = asyncio.create_task(stream.read(response))
                try:
                    await asyncio.wait_for(stream.connected.wait(), timeout)
                    for path in paths:
                        message_id, _ = await reply_send(client, path, concierge, "Warm-up.")
                        if message_id is not None:
                            with contextlib.suppress(TimeoutError):
                                await asyncio.wait_for(stream.arrival(message_id), timeout)
                    await _measure(client, paths, concierge, stream, result, replies, rate, timeout)
                finally:
                    result.stream_ended = stream.ended
                    reader.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await reader
        finally:
            with contextlib.suppress(httpx.HTTPError):
                await client.delete("/api/v1/users/sign_out", headers=concierge)
    return result


async def _measure(
    client: httpx.AsyncClient,
    paths: list[str],
    concierge: dict[str, str],
    stream: EmployeeStream,
    result: SseResult,
    replies: int,
    rate: float,
    timeout: float,
) -> None:
    """Reply i is due at start + i / rate and sent when the previous POST has answered (one
    concierge typing); each reply's event is awaited in its own task."""
    loop = asyncio.get_running_loop()

    async def await_event(message_id: int, sent_at: float) -> None:
        try:
            read_at = await asyncio.wait_for(
                asyncio.shield(stream.arrival(message_id)),
                max(0.0, sent_at + timeout - loop.time()),
            )
        except TimeoutError:
            result.missed += 1
            return
        result.latencies.append(read_at - sent_at)

    waiting = []
    start = loop.time() + 0.01
    for i in range(replies):
        due = start + i / rate
        if (delay := due - loop.time()) > 0:
            await asyncio.sleep(delay)
        result.sent += 1
        sent_at = loop.time()
        result.send_lag.append(sent_at - due)
        body = f"Bench reply {i + 1} of {replies}: the plumber confirmed Thursday, 9-11 am."
        message_id, problem = await reply_send(client, paths[i % len(paths)], concierge, body)
        if message_id is None:
            result.errors[problem or "unknown"] += 1
            continue
        result.post_latencies.append(loop.time() - sent_at)
        waiting.append(asyncio.create_task(await_event(message_id, sent_at)))
    result.sending_seconds = loop.time() - start
    await asyncio.gather(*waiting)
