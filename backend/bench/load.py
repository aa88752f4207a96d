"""The fixed-rate (open-loop) load generator: raw HTTP/1.1 keep-alive connections on uvloop,
answers parsed by httptools, so it costs a small fraction of what the server spends per request
(the bench prints both).

Open loop: request i is due at start + i / rate whether or not earlier ones have answered, and
its latency is measured from that due time, not from when it was actually sent. A stalled
server therefore shows up in the percentiles instead of silently lowering the request rate
(no coordinated omission). Several streams (e.g. list reads and sign-ins) can run at once.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import httptools


@dataclass
class Result:
    sent: int = 0
    latencies: list[float] = field(default_factory=list)  # seconds, expected answers only
    errors: Counter[str] = field(default_factory=Counter)  # "HTTP 500", "timeout", ...
    send_lag: list[float] = field(default_factory=list)  # due time → actually sent (client)
    elapsed: float = 0.0  # first due time → last answer

    @property
    def ok(self) -> int:
        return len(self.latencies)

    @property
    def error_count(self) -> int:
        return sum(self.errors.values())

    @property
    def throughput(self) -> float:
        return self.ok / self.elapsed if self.elapsed > 0 else 0.0

    def percentile_ms(self, p: float) -> float:
        """Nearest-rank percentile of the successful latencies, in milliseconds."""
        return percentile_ms(self.latencies, p)

    def send_lag_ms(self, p: float) -> float:
        return percentile_ms(self.send_lag, p)


def merged(results: list[Result]) -> Result:
    """Several streams' results as one run's (streams that ran side by side)."""
    total = Result(elapsed=max((r.elapsed for r in results), default=0.0))
    for result in results:
        total.sent += result.sent
        total.latencies += result.latencies
        total.errors += result.errors
        total.send_lag += result.send_lag
    return total


def percentile_ms(seconds: list[float], p: float) -> float:
    """Nearest-rank percentile of latencies in seconds, in milliseconds (NaN when empty)."""
    if not seconds:
        return math.nan
    ordered = sorted(seconds)
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[rank - 1] * 1000


@dataclass(frozen=True)
class Stream:
    """One kind of request sent at `rate` per second: `next_request()` gives the raw bytes."""

    name: str
    rate: float
    next_request: Callable[[], bytes]
    expect: int = 200


def http_request(
    method: str, path: str, host: str, headers: dict[str, str], body: bytes = b""
) -> bytes:
    lines = [
        f"{method} {path} HTTP/1.1",
        f"Host: {host}",
        *(f"{k}: {v}" for k, v in headers.items()),
    ]
    if body or method != "GET":
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


class _Answer:
    """httptools callbacks for one response; `done` resolves to the status code."""

    def __init__(self, done: asyncio.Future[int]) -> None:
        self.done = done
        self.parser = httptools.HttpResponseParser(self)

    def on_message_complete(self) -> None:
        if not self.done.done():
            self.done.set_result(self.parser.get_status_code())


class _Connection(asyncio.Protocol):
    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.answer: _Answer | None = None
        self.closed = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        if self.answer is not None:
            try:
                self.answer.parser.feed_data(data)
            except httptools.HttpParserError as exc:
                if not self.answer.done.done():
                    self.answer.done.set_exception(exc)

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        if self.answer is not None and not self.answer.done.done():
            self.answer.done.set_exception(ConnectionError("connection closed"))

    async def send(self, payload: bytes) -> int:
        done: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self.answer = _Answer(done)
        assert self.transport is not None
        self.transport.write(payload)
        try:
            return await done
        finally:
            self.answer = None


class _Pool:
    """Idle keep-alive connections to one server, opened on demand."""

    def __init__(self, base_url: str) -> None:
        parts = urlsplit(base_url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.idle: list[_Connection] = []
        self.all: list[_Connection] = []

    async def acquire(self) -> _Connection:
        while self.idle:
            conn = self.idle.pop()
            if not conn.closed:
                return conn
        loop = asyncio.get_running_loop()
        _, conn = await loop.create_connection(_Connection, self.host, self.port)
        self.all.append(conn)
        return conn

    def release(self, conn: _Connection) -> None:
        if not conn.closed:
            self.idle.append(conn)

    def close(self) -> None:
        for conn in self.all:
            if conn.transport is not None:
                conn.transport.close()


async def _one(pool: _Pool, stream: Stream, due: float, result: Result, timeout: float) -> None:
    loop = asyncio.get_running_loop()
    result.send_lag.append(loop.time() - due)
    conn = None
    try:
        conn = await pool.acquire()
        status = await asyncio.wait_for(conn.send(stream.next_request()), timeout)
    except TimeoutError:
        result.errors["timeout"] += 1
        if conn is not None and conn.transport is not None:
            conn.transport.close()  # its answer may still come: never reuse it
        return
    except (OSError, httptools.HttpParserError) as exc:
        result.errors[type(exc).__name__] += 1
        return
    pool.release(conn)
    if status == stream.expect:
        result.latencies.append(loop.time() - due)
    else:
        result.errors[f"HTTP {status}"] += 1


async def _schedule(
    pool: _Pool, stream: Stream, seconds: float, timeout: float, max_in_flight: int
) -> Result:
    loop = asyncio.get_running_loop()
    result = Result()
    total = max(1, round(stream.rate * seconds))
    start = loop.time() + 0.01
    in_flight: set[asyncio.Task[None]] = set()
    for i in range(total):
        due = start + i / stream.rate
        if (delay := due - loop.time()) > 0:
            await asyncio.sleep(delay)
        result.sent += 1
        if len(in_flight) >= max_in_flight:
            result.errors[f"not sent ({max_in_flight} in flight)"] += 1
            continue
        task = asyncio.create_task(_one(pool, stream, due, result, timeout))
        in_flight.add(task)
        task.add_done_callback(in_flight.discard)
    if in_flight:
        await asyncio.wait(in_flight)
    result.elapsed = loop.time() - start
    return result


@dataclass
class Run:
    results: dict[str, Result]
    client_cpu_seconds: float  # this process's CPU time during the run

    def client_cpu_ms_per_request(self) -> float:
        sent = sum(r.sent for r in self.results.values())
        return 1000 * self.client_cpu_seconds / sent if sent else math.nan


def open_loop(
    base_url: str,
    streams: list[Stream],
    *,
    seconds: float,
    timeout: float,
    max_in_flight: int,
) -> Run:
    """Every stream at its own rate for `seconds` (plus at most `timeout` for the stragglers)."""
    import uvloop

    async def main() -> dict[str, Result]:
        pool = _Pool(base_url)
        try:
            results = await asyncio.gather(
                *(_schedule(pool, s, seconds, timeout, max_in_flight) for s in streams)
            )
        finally:
            pool.close()
        return {s.name: r for s, r in zip(streams, results, strict=True)}

    cpu = time.process_time()
    results = uvloop.run(main())
    return Run(results, time.process_time() - cpu)
