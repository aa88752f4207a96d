"""The desk queue scenario: what a concierge's queue costs as the data grows.

`GET /api/v1/concierge/requests?status=open&order=due` as the bench concierge: the desk's
default view (In Queue, due soonest, 200 rows, the tab counts). It runs at a fixed rate (after
a warm-up, so every pooled connection has prepared its statements) and at capacity (wrk); each
row notes the CPU per load of the server AND of the PostgreSQL backends serving it (from /proc:
the bench runs beside its database), the answer's size, and the capacity as a share of the
floor. Seed `--scale 10` into another database (100,000 requests, 20,000 running clocks) to
compare.
"""

from __future__ import annotations

import contextlib
import math
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import httpx
import psycopg

if TYPE_CHECKING:
    from bench.cli import Bench, LayoutFigures, Prepared, Row
    from bench.layouts import Layout

QUEUE_PATH = "/api/v1/concierge/requests?status=open&order=due"
QUEUE_ROWS = 200
QUEUE_RATE = 2.0  # loads per second: a few concierges refreshing, the server otherwise idle
CPU_GOAL_MS = 10.0
WARM_UP_SECONDS = 3.0
_CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


class Each(Protocol):
    def __call__(self, step: Callable[[LayoutFigures, Layout, Prepared], None]) -> None: ...


class DatabaseCpu:
    """CPU time of the PostgreSQL backends connected to one database (not this one's own),
    summed over every backend seen so far: a pooled connection lives for the whole run."""

    def __init__(self, url: str) -> None:
        self.connection = psycopg.connect(url, autocommit=True)
        self.seen: dict[int, float] = {}

    def seconds(self) -> float:
        rows = self.connection.execute(
            "SELECT pid FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchall()
        for (pid,) in rows:
            with contextlib.suppress(OSError, ValueError):
                text = Path(f"/proc/{pid}/stat").read_text()
                fields = text[text.rindex(")") + 2 :].split()
                self.seen[pid] = (int(fields[11]) + int(fields[12])) / _CLOCK_TICKS
        return sum(self.seen.values())

    def close(self) -> None:
        self.connection.close()


def check_queue(layout: Layout, prepared: Prepared) -> int:
    """The queue answers 200 rows (else the figures mean nothing); the answer's size."""
    with httpx.Client(base_url=layout.api_url, headers=prepared.concierge_auth, timeout=30) as c:
        answer = c.get(QUEUE_PATH)
    if answer.status_code != 200 or len(answer.json()["requests"]) != QUEUE_ROWS:
        raise SystemExit(f"{layout.spec.key}: the desk queue answered {answer.status_code}.")
    return len(answer.content)


def run(bench: Bench, each: Each, scale: int) -> None:
    """The desk queue at a fixed rate and at capacity, on each layout in turn."""
    args = bench.args
    print(
        f"desk queue ({scale}x data): {QUEUE_RATE:g} loads/s for {args.seconds:g} s, then "
        f"capacity, wrk {args.connections} connections",
        flush=True,
    )
    each(lambda f, lay, p: _measure(bench, f, lay, p, capacity=False))
    each(lambda f, lay, p: _measure(bench, f, lay, p, capacity=True))


def _measure(
    bench: Bench, figures: LayoutFigures, layout: Layout, prepared: Prepared, *, capacity: bool
) -> None:
    from bench.load import Stream, http_request

    size = check_queue(layout, prepared)
    if not capacity:
        _warm_up(bench, layout, prepared)
    database = DatabaseCpu(prepared.env["DATABASE_URL"]) if not layout.spec.embedded else None
    database_cpu = database.seconds() if database else 0.0
    rows_before = len(figures.rows)
    if capacity:
        bench.capacity(figures, layout, "desk", [QUEUE_PATH], prepared.concierge_auth)
    else:
        host = layout.api_url.removeprefix("http://")
        payload = http_request("GET", QUEUE_PATH, host, prepared.concierge_auth)
        bench.fixed(figures, layout, "desk", [Stream("desk", QUEUE_RATE, lambda: payload)])
    if database is not None:
        database_cpu = database.seconds() - database_cpu
        database.close()
    row = figures.rows[rows_before]
    answered = row.sent - row.errors if capacity else row.sent
    per_load = 1000 * database_cpu / answered if answered and database else math.nan
    _annotate(figures, row, per_load, size)


def _warm_up(bench: Bench, layout: Layout, prepared: Prepared) -> None:
    """Every worker thread and pooled connection has run (and prepared) the queue's
    statements before it is measured, as on a desk that is refreshed all day."""
    from bench.wrk import capacity

    capacity(
        layout.api_url,
        [QUEUE_PATH],
        prepared.concierge_auth,
        connections=bench.args.connections,
        seconds=WARM_UP_SECONDS,
        timeout=bench.args.timeout,
    )
    layout.wait_idle()


def _annotate(figures: LayoutFigures, row: Row, database_ms: float, size: int) -> None:
    total_ms = row.server_cpu_ms + (0.0 if math.isnan(database_ms) else database_ms)
    floor = figures.find("floor", "cap")
    share = (
        f", {100 * row.throughput / floor.throughput:.2g} % of the floor"
        if row.rate == "cap" and floor is not None and floor.throughput
        else ""
    )
    database = "SQLite in the server" if math.isnan(database_ms) else f"{database_ms:.2f}"
    row.note = (
        f"CPU per load {total_ms:.1f} ms (server {row.server_cpu_ms:.1f} + PostgreSQL "
        f"{database}){share}; {size / 1024:.0f} KB"
    )
    print(f"  {figures.spec.key:<14} desk     {row.rate:>6} {row.note}", flush=True)
    # The goal is the CPU that decides how many loads two cores serve: at capacity. (At a
    # few loads a second on a shared machine each load also pays for cold caches.)
    if row.rate == "cap" and total_ms > CPU_GOAL_MS:
        figures.problems.append(
            f"desk queue: {total_ms:.1f} ms of CPU per load at capacity (goal <= {CPU_GOAL_MS:g})"
        )
