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

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

import httpx

if TYPE_CHECKING:
    from bench.cli import Bench, LayoutFigures, Prepared, Row
    from bench.layouts import Layout

QUEUE_PATH = "/api/v1/concierge/requests?status=open&order=due"
QUEUE_ROWS = 200
QUEUE_RATE = 2.0  # loads per second: a few concierges refreshing, the server otherwise idle
CPU_GOAL_MS = 10.0
WARM_UP_SECONDS = 3.0
DESK_REQUEST_RATE = 20.0  # opens per second: a busy desk


class Each(Protocol):
    def __call__(self, step: Callable[[LayoutFigures, Layout, Prepared], None]) -> None: ...


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
    rows_before = len(figures.rows)
    if capacity:
        bench.capacity(figures, layout, "desk", [QUEUE_PATH], prepared.concierge_auth)
    else:
        host = layout.api_url.removeprefix("http://")
        payload = http_request("GET", QUEUE_PATH, host, prepared.concierge_auth)
        bench.fixed(figures, layout, "desk", [Stream("desk", QUEUE_RATE, lambda: payload)])
    _annotate(figures, figures.rows[rows_before], size)


def run_request(bench: Bench, each: Each) -> None:
    """One request as the desk opens it (`GET /api/v1/concierge/requests/{id}`: the thread,
    the employee's profile, the survey's answers, notes, presence, the clock and the rating),
    the bench employee's requests at random, at a fixed rate and at capacity."""
    from bench.load import Stream, http_request

    args = bench.args
    print(
        f"desk request: {DESK_REQUEST_RATE:g} opens/s for {args.seconds:g} s, then capacity, "
        f"wrk {args.connections} connections",
        flush=True,
    )

    def paths(prepared: Prepared) -> list[str]:
        return [f"/api/v1/concierge/requests/{i}" for i in prepared.targets["request_ids"]]

    def fixed(figures: LayoutFigures, layout: Layout, prepared: Prepared) -> None:
        host = layout.api_url.removeprefix("http://")
        payloads = [http_request("GET", p, host, prepared.concierge_auth) for p in paths(prepared)]
        draw = iter(range(10**9))
        stream = Stream(
            "desk-request", DESK_REQUEST_RATE, lambda: payloads[next(draw) % len(payloads)]
        )
        rows_before = len(figures.rows)
        bench.fixed(figures, layout, "desk-request", [stream])
        _note(figures, figures.rows[rows_before])

    def at_capacity(figures: LayoutFigures, layout: Layout, prepared: Prepared) -> None:
        rows_before = len(figures.rows)
        bench.capacity(figures, layout, "desk-request", paths(prepared), prepared.concierge_auth)
        _note(figures, figures.rows[rows_before])

    each(fixed)
    each(at_capacity)


def _note(figures: LayoutFigures, row: Row) -> None:
    row.note = row.cpu_note(figures)
    print(f"  {figures.spec.key:<14} {row.scenario} {row.rate:>6} {row.note}", flush=True)


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


def _annotate(figures: LayoutFigures, row: Row, size: int) -> None:
    row.note = f"{row.cpu_note(figures)}; {size / 1024:.0f} KB"
    print(f"  {figures.spec.key:<14} desk     {row.rate:>6} {row.note}", flush=True)
    # The goal is the CPU that decides how many loads two cores serve: at capacity. (At a
    # few loads a second on a shared machine each load also pays for cold caches.)
    if row.rate == "cap" and row.total_cpu_ms > CPU_GOAL_MS:
        figures.problems.append(
            f"desk queue: {row.total_cpu_ms:.1f} ms of CPU per load at capacity "
            f"(goal <= {CPU_GOAL_MS:g})"
        )
