"""Held streams: N live event streams held open by one events process, and event delivery.

The bench employee opens `streams` event streams (as many browser tabs would: a ticket from
the API server, refreshed every 30 s, then GET /api/v1/events on the events server), at most
`OPEN_CONCURRENCY` opening at once. A stream is open once its `: connected` line is read; one
that answers anything but 200, or nothing within the open timeout, failed to open. Once they
are all open, the concierge replies at `rate` per second to the employee's In Progress
requests (as in the SSE scenario); each reply's `message.created` event must reach EVERY open
stream. A delivery's latency runs from just before the reply's POST is sent to when that event
is read off one stream; a delivery that has not come within the timeout is missed.

The client is raw asyncio connections parsed by httptools on uvloop, so a thousand streams
cost the load generator little next to the server. The events process's resident memory and
thread count are read with all the streams open, and its CPU time while the events are sent
(per delivery in the row's server CPU column).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import re
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast
from urllib.parse import urlsplit

import httptools
import httpx

from bench.load import percentile_ms
from bench.sse import reply_send, sign_in

OPEN_CONCURRENCY = 50
TICKET_REFRESH_SECONDS = 30.0
# Stop opening more once this share of the streams has failed (the figures are clear by then).
GIVE_UP_SHARE = 0.05
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
MESSAGE_ID = re.compile(rb'"type":"message\.created"[^\n]*?"message_id":(\d+)')


@dataclass
class EventsResult:
    wanted: int = 0  # streams to open
    opened: int = 0
    open_failures: Counter[str] = field(default_factory=Counter)  # "HTTP 500", "timeout"
    open_latencies: list[float] = field(default_factory=list)  # GET sent → ": connected"
    open_seconds: float = 0.0  # first GET → last stream open (or given up)
    replies: int = 0  # replies sent and created (201)
    reply_errors: Counter[str] = field(default_factory=Counter)
    latencies: list[float] = field(default_factory=list)  # per delivery: POST sent → read
    missed: int = 0  # deliveries that did not come within the timeout
    ended: int = 0  # streams the server closed during the run
    server_rss_kib: int = 0  # the events process(es), all streams open
    server_threads: int = 0
    server_cpu_seconds: float = 0.0  # the events process's CPU time while they were delivered

    def percentile_ms(self, p: float) -> float:
        return percentile_ms(self.latencies, p)

    @property
    def deliveries(self) -> int:
        return len(self.latencies) + self.missed


class _EventStream(asyncio.Protocol):
    """One held stream: its status, when it was connected, and when each reply's event came."""

    def __init__(self, request: bytes, arrivals: dict[int, list[float]]) -> None:
        loop = asyncio.get_running_loop()
        self.loop = loop
        self.request = request
        self.arrivals = arrivals
        self.parser = httptools.HttpResponseParser(self)
        self.status: int | None = None
        self.connected: asyncio.Future[None] = loop.create_future()
        self.transport: asyncio.Transport | None = None
        self.buffer = b""
        self.ended = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)
        self.transport.write(self.request)

    def data_received(self, data: bytes) -> None:
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserError as exc:
            self._fail(exc)

    def on_headers_complete(self) -> None:
        self.status = self.parser.get_status_code()

    def on_body(self, body: bytes) -> None:
        read_at = self.loop.time()
        self.buffer += body
        if b"\n\n" not in self.buffer:
            return
        complete, _, self.buffer = self.buffer.rpartition(b"\n\n")
        if not self.connected.done() and b": connected" in complete:
            self.connected.set_result(None)
        for found in MESSAGE_ID.finditer(complete):
            self.arrivals[int(found.group(1))].append(read_at)

    def on_message_complete(self) -> None:
        self._fail(ConnectionError(f"HTTP {self.status}: the stream ended"))

    def connection_lost(self, exc: Exception | None) -> None:
        self._fail(exc or ConnectionError("connection closed"))

    def _fail(self, exc: Exception) -> None:
        self.ended = True
        if not self.connected.done():
            self.connected.set_exception(exc)

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()


class _Tickets:
    """The employee's stream address, with a ticket fetched again every 30 s."""

    def __init__(self, client: httpx.AsyncClient, token: str) -> None:
        self.client = client
        self.token = token
        self.url = ""
        self.fetched_at = -math.inf
        self.lock = asyncio.Lock()

    async def url_now(self) -> str:
        async with self.lock:
            if time.monotonic() - self.fetched_at > TICKET_REFRESH_SECONDS:
                response = await self.client.post(
                    "/api/v1/events/ticket", headers={"Authorization": f"Bearer {self.token}"}
                )
                if response.status_code != 200:
                    raise SystemExit(f"events: no stream ticket: {response.status_code}")
                self.url, self.fetched_at = str(response.json()["url"]), time.monotonic()
            return self.url


async def _open_all(
    events_url: str,
    tickets: _Tickets,
    count: int,
    timeout: float,
    arrivals: dict[int, list[float]],
    result: EventsResult,
) -> list[_EventStream]:
    loop = asyncio.get_running_loop()
    parts = urlsplit(events_url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    gate = asyncio.Semaphore(OPEN_CONCURRENCY)
    give_up_after = max(10, math.ceil(GIVE_UP_SHARE * count))
    streams: list[_EventStream] = []

    async def open_one() -> None:
        async with gate:
            if sum(result.open_failures.values()) >= give_up_after:
                return
            path = await tickets.url_now()
            request = (
                f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nAccept: text/event-stream\r\n\r\n"
            ).encode()
            started = loop.time()
            stream: _EventStream | None = None
            try:
                _, stream = await loop.create_connection(
                    lambda: _EventStream(request, arrivals), host, port
                )
                await asyncio.wait_for(asyncio.shield(stream.connected), timeout)
            except TimeoutError:
                result.open_failures["timeout"] += 1
            except (OSError, httptools.HttpParserError) as exc:
                status = stream.status if stream is not None else None
                result.open_failures[f"HTTP {status}" if status else type(exc).__name__] += 1
            else:
                result.open_latencies.append(loop.time() - started)
                streams.append(stream)
                return
            if stream is not None:
                stream.close()

    started = loop.time()
    await asyncio.gather(*(open_one() for _ in range(count)))
    result.open_seconds = loop.time() - started
    result.opened = len(streams)
    return streams


async def _deliver(
    client: httpx.AsyncClient,
    concierge: dict[str, str],
    paths: list[str],
    streams: list[_EventStream],
    arrivals: dict[int, list[float]],
    result: EventsResult,
    replies: int,
    rate: float,
    timeout: float,
) -> None:
    """Reply i is due at start + i / rate (one concierge typing); then wait until every open
    stream has each reply's event, or the timeout."""
    loop = asyncio.get_running_loop()
    sent_at: dict[int, float] = {}
    start = loop.time() + 0.01
    for i in range(replies):
        if (delay := start + i / rate - loop.time()) > 0:
            await asyncio.sleep(delay)
        before = loop.time()
        body = f"Bench reply {i + 1} of {replies}: the plumber confirmed Thursday, 9-11 am."
        message_id, problem = await reply_send(client, paths[i % len(paths)], concierge, body)
        if message_id is None:
            result.reply_errors[problem or "unknown"] += 1
            continue
        sent_at[message_id] = before
    deadline = loop.time() + timeout
    while loop.time() < deadline and any(len(arrivals[m]) < len(streams) for m in sent_at):
        await asyncio.sleep(0.05)
    result.replies = len(sent_at)
    for message_id, at in sent_at.items():
        times = [t - at for t in arrivals[message_id] if t - at <= timeout]
        result.latencies.extend(times)
        result.missed += len(streams) - len(times)


async def held_streams(
    api_url: str,
    events_url: str,
    *,
    employee_token: str,
    concierge_email: str,
    password: str,
    request_ids: list[int],
    streams: int,
    replies: int,
    rate: float,
    timeout: float,
    open_timeout: float,
    server_figures: ServerFigures,
) -> EventsResult:
    result = EventsResult(wanted=streams)
    arrivals: dict[int, list[float]] = defaultdict(list)
    paths = [f"/api/v1/concierge/requests/{r}/messages" for r in request_ids]
    async with httpx.AsyncClient(base_url=api_url, timeout=timeout) as client:
        concierge = await sign_in(client, concierge_email, password)
        held: list[_EventStream] = []
        try:
            # Warm-up, not measured: assigns the requests and opens the workers' Redis
            # connections, so the replies measured change no status (one event each).
            for path in paths:
                await reply_send(client, path, concierge, "Warm-up.")
            tickets = _Tickets(client, employee_token)
            held = await _open_all(events_url, tickets, streams, open_timeout, arrivals, result)
            result.server_rss_kib, result.server_threads = server_figures.memory()
            if held:
                cpu = server_figures.cpu_seconds()
                await _deliver(
                    client, concierge, paths, held, arrivals, result, replies, rate, timeout
                )
                result.server_cpu_seconds = server_figures.cpu_seconds() - cpu
            result.ended = sum(1 for s in held if s.ended)
        finally:
            for stream in held:
                stream.close()
            with contextlib.suppress(httpx.HTTPError):
                await client.delete("/api/v1/users/sign_out", headers=concierge)
    return result


class ServerFigures:
    """Memory, threads and CPU time of the processes serving the streams (read from /proc)."""

    def __init__(self, pids: list[int]) -> None:
        self.pids = pids

    def cpu_seconds(self) -> float:
        ticks = 0
        for pid in self.pids:
            with contextlib.suppress(OSError):
                text = Path(f"/proc/{pid}/stat").read_text()
                fields = text[text.rindex(")") + 2 :].split()
                ticks += int(fields[11]) + int(fields[12])  # utime, stime
        return ticks / CLOCK_TICKS

    def memory(self) -> tuple[int, int]:
        rss = threads = 0
        for pid in self.pids:
            with contextlib.suppress(OSError):
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    name, _, value = line.partition(":")
                    if name == "VmRSS":
                        rss += int(value.split()[0])
                    elif name == "Threads":
                        threads += int(value)
        return rss, threads


def describe(result: EventsResult) -> str:
    """One line: how many opened, how fast, what the events process holds them with."""
    failures = ", ".join(f"{n} {kind}" for kind, n in result.open_failures.most_common())
    return (
        f"open {result.opened}/{result.wanted} in {result.open_seconds:.1f} s "
        f"(p95 {percentile_ms(result.open_latencies, 95):.0f} ms"
        f"{'; failed: ' + failures if failures else ''}); "
        f"{result.replies} events x {result.opened} streams; "
        f"events process {result.server_rss_kib / 1024:.0f} MiB, "
        f"{result.server_threads} threads"
    )
