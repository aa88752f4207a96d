"""Load generation: an open loop at a fixed rate, and a closed loop for the capacity.

Open loop: request i is due at start + i / rate whether or not earlier ones have answered, and
its latency is measured from that due time, not from when it was actually sent. A stalled
server therefore shows up in the percentiles instead of silently lowering the request rate
(no coordinated omission).
"""

from __future__ import annotations

import asyncio
import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import httpx


@dataclass
class Result:
    sent: int = 0
    latencies: list[float] = field(default_factory=list)  # seconds, successful answers only
    errors: Counter[str] = field(default_factory=Counter)  # "HTTP 500", "ReadTimeout", ...
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


def percentile_ms(seconds: list[float], p: float) -> float:
    """Nearest-rank percentile of latencies in seconds, in milliseconds (NaN when empty)."""
    if not seconds:
        return math.nan
    ordered = sorted(seconds)
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[rank - 1] * 1000


async def _request(
    client: httpx.AsyncClient, path: str, due: float, result: Result, expect: int = 200
) -> None:
    loop = asyncio.get_running_loop()
    result.send_lag.append(loop.time() - due)
    try:
        response = await client.get(path)
        await response.aread()
    except httpx.HTTPError as exc:
        result.errors[type(exc).__name__] += 1
        return
    if response.status_code == expect:
        result.latencies.append(loop.time() - due)
    else:
        result.errors[f"HTTP {response.status_code}"] += 1


async def open_loop(
    client: httpx.AsyncClient,
    next_path: Callable[[], str],
    *,
    rate: float,
    seconds: float,
    timeout: float,
    max_in_flight: int,
) -> Result:
    """`rate` requests per second for `seconds`, then at most `timeout` for the stragglers.

    Bounded: a request due while `max_in_flight` are still unanswered is not sent and counts
    as an error, so a stalled server cannot make the load generator pile up work.
    """
    loop = asyncio.get_running_loop()
    result = Result()
    total = max(1, round(rate * seconds))
    start = loop.time() + 0.01
    in_flight: set[asyncio.Task[None]] = set()
    tasks = []
    for i in range(total):
        due = start + i / rate
        delay = due - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)
        result.sent += 1
        if len(in_flight) >= max_in_flight:
            result.errors[f"not sent ({max_in_flight} in flight)"] += 1
            continue
        task = asyncio.create_task(_request(client, next_path(), due, result))
        in_flight.add(task)
        task.add_done_callback(in_flight.discard)
        tasks.append(task)
    if tasks:
        _, pending = await asyncio.wait(
            tasks, timeout=max(0.0, start + seconds + timeout - loop.time())
        )
        for task in pending:
            task.cancel()
            result.errors["unanswered"] += 1
        await asyncio.gather(*pending, return_exceptions=True)
    result.elapsed = loop.time() - start
    return result


async def closed_loop(
    client: httpx.AsyncClient,
    next_path: Callable[[], str],
    *,
    concurrency: int,
    seconds: float,
    timeout: float,
) -> Result:
    """`concurrency` clients, each sending its next request as soon as the last one answered:
    the most the server gives this endpoint (on this machine, next to the load generator)."""
    loop = asyncio.get_running_loop()
    result = Result()
    start = loop.time()
    deadline = start + seconds

    async def client_loop() -> None:
        while loop.time() < deadline:
            result.sent += 1
            await _request(client, next_path(), loop.time(), result)

    workers = [asyncio.create_task(client_loop()) for _ in range(concurrency)]
    _, pending = await asyncio.wait(workers, timeout=seconds + timeout)
    for task in pending:
        task.cancel()
        result.errors["unanswered"] += 1
    await asyncio.gather(*pending, return_exceptions=True)
    result.elapsed = loop.time() - start
    return result
