"""The mixed scenario: a realistic day's traffic rather than one employee reading one list.

300 signed-in sessions of 100 employees (three devices each): 40 % of the requests read one of
their lists (In Queue, In Progress, Completed), 45 % open one of their threads, 10 % are the
employees' messages to their queued requests and 5 % the concierge's replies to their In
Progress ones. Every write gives its employee's cached reads a new version, so the cache
misses as it would in a real day. It runs at a fixed rate (MIXED_RATE, after a warm-up) and at
capacity (wrk, whole requests drawn from the same mix), on each layout: compare `granian`
(every read from PostgreSQL, the default) with `granian-cached` (CACHED_READS=true). Each row notes the CPU per request
of the server and of PostgreSQL, the capacity as a share of the floor (measured again right
before and after the mix's capacity, whose mean it is read against) and the share of cached
reads answered from Redis. On the production layout each kind then runs alone at capacity
too: what each costs, and the mix's CPU per request its kinds predict (weighted by MIX) beside
the one measured, so a change to one kind can be read against the whole.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable
from typing import TYPE_CHECKING

import redis

from bench.layouts import HEALTH_PATH
from bench.load import Stream, http_request, open_loop
from bench.wrk import capacity_of_requests

if TYPE_CHECKING:
    from bench.cli import Bench, LayoutFigures, Prepared, Row
    from bench.desk import Each
    from bench.layouts import Layout

MIXED_RATE = 200.0
MIX = {"list": 0.40, "thread": 0.45, "message": 0.10, "reply": 0.05}
WRITES = ("message", "reply")
# Which list a read asks for, and how often.
BUCKETS = {"open": 0.5, "in_progress": 0.3, "completed": 0.2}
# The threads an employee opens: their queued and In Progress requests, and their latest
# completed ones.
RECENT_COMPLETED = 10
# The mixed scenario's employee messages (bench.seed's cleanup deletes them by this text).
MIXED_MESSAGE = "Bench mixed message: Thursday works, 9 to 11 please."
REPLY = "The plumber can come on Thursday between 9 and 11 am. Shall I book it?"
WARM_UP_SECONDS = 3.0
# Raw requests wrk draws from: enough that every session and most threads come up.
WRK_REQUESTS = 4_000
P99_GOAL_MS = 50.0
FLOOR_SHARE_GOAL = 0.40


class Mix:
    """Draws the scenario's requests, as raw HTTP/1.1 bytes for one server."""

    def __init__(self, prepared: Prepared, host: str, seed: int) -> None:
        self.rng = random.Random(seed)  # noqa: S311 (the same draws every run)
        self.host = host
        self.sessions = prepared.targets["sessions"]
        self.concierge = {"Authorization": f"Bearer {prepared.targets['concierge_token']}"}

    def _session(self) -> tuple[dict[str, str], dict[str, list[int]]]:
        session = self.rng.choice(self.sessions)
        return {"Authorization": f"Bearer {session['token']}"}, session["requests"]

    def _pick(self, weights: dict[str, float]) -> str:
        return self.rng.choices(list(weights), weights=list(weights.values()))[0]

    def list_read(self) -> bytes:
        auth, _ = self._session()
        return http_request("GET", f"/api/v1/requests/{self._pick(BUCKETS)}", self.host, auth)

    def thread_read(self) -> bytes:
        auth, ids = self._session()
        threads = ids["open"] + ids["in_progress"] + ids["closed"][:RECENT_COMPLETED]
        path = f"/api/v1/requests/{self.rng.choice(threads)}"
        return http_request("GET", path, self.host, auth)

    def message(self) -> bytes:
        auth, ids = self._session()
        path = f"/api/v1/requests/{self.rng.choice(ids['open'])}/messages"
        return self._post(path, auth, MIXED_MESSAGE)

    def reply(self) -> bytes:
        _, ids = self._session()
        path = f"/api/v1/concierge/requests/{self.rng.choice(ids['in_progress'])}/messages"
        return self._post(path, self.concierge, REPLY)

    def _post(self, path: str, auth: dict[str, str], text: str) -> bytes:
        body = json.dumps({"message": {"body": text}}).encode()
        headers = {**auth, "Content-Type": "application/json"}
        return http_request("POST", path, self.host, headers, body)

    def kinds(self) -> dict[str, Callable[[], bytes]]:
        return {
            "list": self.list_read,
            "thread": self.thread_read,
            "message": self.message,
            "reply": self.reply,
        }

    def streams(self, rate: float) -> list[Stream]:
        return [
            Stream(f"mixed {kind}", rate * MIX[kind], draw, expect=201 if kind in WRITES else 200)
            for kind, draw in self.kinds().items()
        ]  # fmt: skip

    def drawn(self, count: int, kind: str | None = None) -> list[bytes]:
        """`count` requests drawn from the mix, or all of one `kind`."""
        kinds = self.kinds()
        return [kinds[kind or self._pick(MIX)]() for _ in range(count)]


class CacheHits:
    """The share of the cache's reads that found their key, over a `with` block (Redis INFO:
    rate limits are off in the bench, so the cached reads are nearly all of them)."""

    def __init__(self, url: str) -> None:
        self.client = redis.Redis.from_url(url, socket_timeout=5) if url else None
        self.share = math.nan

    def _counts(self) -> tuple[int, int]:
        if self.client is None:  # the embedded layout: no Redis
            return 0, 0
        stats = self.client.info("stats")
        return int(stats["keyspace_hits"]), int(stats["keyspace_misses"])

    def __enter__(self) -> CacheHits:
        self.before = self._counts()
        return self

    def __exit__(self, *exc: object) -> None:
        hits, misses = (
            after - before for after, before in zip(self._counts(), self.before, strict=True)
        )
        self.share = hits / (hits + misses) if hits + misses else math.nan
        if self.client is not None:
            self.client.close()


def run(bench: Bench, each: Each) -> None:
    args = bench.args
    print(
        f"mixed: {len(MIX)} kinds of request from 300 sessions of 100 employees, "
        f"{MIXED_RATE:g} req/s for {args.seconds:g} s, then capacity, wrk {args.connections} "
        "connections",
        flush=True,
    )
    each(lambda f, lay, p: _measure(bench, f, lay, p, capacity=False))
    each(lambda f, lay, p: _measure(bench, f, lay, p, capacity=True))


def _measure(
    bench: Bench, figures: LayoutFigures, layout: Layout, prepared: Prepared, *, capacity: bool
) -> None:
    args = bench.args
    host = layout.api_url.removeprefix("http://")
    mix = Mix(prepared, host, seed=11)
    open_loop(  # warm: every worker's connection and the caches, as mid-day
        layout.api_url,
        mix.streams(MIXED_RATE),
        seconds=WARM_UP_SECONDS,
        timeout=args.timeout,
        max_in_flight=args.max_in_flight,
    )
    layout.wait_idle()
    floor_before = _floor_beside(bench, figures, layout, "before") if capacity else None
    with CacheHits(layout.env.get("REDIS_URL", "")) as hits:
        if capacity:
            _capacity(bench, figures, layout, mix)
        else:
            bench.fixed(figures, layout, "mixed", mix.streams(MIXED_RATE), combined=True)
    row = figures.rows[-1]
    floor = None
    if floor_before is not None:
        floor = (floor_before + _floor_beside(bench, figures, layout, "after")) / 2
    _annotate(figures, row, hits.share, capacity=capacity, floor_throughput=floor)
    if capacity and _production(figures):
        _kinds_alone(bench, figures, layout, mix, mixed=row, floor_throughput=floor)


def _floor_beside(bench: Bench, figures: LayoutFigures, layout: Layout, when: str) -> float:
    """The floor measured again right before or after the mix's capacity: a machine's speed
    moves by up to a third between runs and by up to a sixth within one, so the mix's share is
    read against the floor of the same moment (the mean of the two), not the one measured
    first."""
    layout.wait_idle()
    bench.capacity(figures, layout, f"floor {when} mixed", [HEALTH_PATH], {})
    layout.wait_idle()
    return figures.rows[-1].throughput


def _production(figures: LayoutFigures) -> bool:
    from bench.cli import CHOSEN  # noqa: PLC0415 (bench.cli imports this module)

    return figures.spec.key == CHOSEN


def _capacity(
    bench: Bench, figures: LayoutFigures, layout: Layout, mix: Mix, kind: str | None = None
) -> None:
    """wrk over requests drawn from the mix, or of one `kind` (`Bench.capacity`'s row, from
    whole requests)."""
    args = bench.args
    requests = mix.drawn(WRK_REQUESTS, kind)
    bench.capacity(
        figures,
        layout,
        f"mixed {kind} alone" if kind else "mixed",
        [],
        {},
        run=lambda: capacity_of_requests(
            layout.api_url,
            requests,
            connections=args.connections,
            seconds=args.capacity_seconds,
            timeout=args.timeout,
        ),
    )


def _kinds_alone(
    bench: Bench,
    figures: LayoutFigures,
    layout: Layout,
    mix: Mix,
    *,
    mixed: Row,
    floor_throughput: float | None,
) -> None:
    """Each kind of the mix alone at capacity (reads first: the writes' replies leave
    threads unread), then the mix's CPU per request as its kinds predict it, in `mixed`'s
    note."""
    alone: dict[str, float] = {}
    for kind in sorted(MIX, key=lambda k: k in WRITES):
        layout.wait_idle()
        _capacity(bench, figures, layout, mix, kind)
        row = figures.rows[-1]
        row.note = row.cpu_note(figures, floor_throughput)
        alone[kind] = row.total_cpu_ms
        _print_note(figures, row)
    predicted = sum(MIX[kind] * cpu for kind, cpu in alone.items())
    mixed.note += (
        f"; its kinds alone predict {predicted:.2f} ms ("
        + ", ".join(f"{kind} {cpu:.2f}" for kind, cpu in alone.items())
        + ")"
    )
    _print_note(figures, mixed)


def _print_note(figures: LayoutFigures, row: Row) -> None:
    print(f"  {figures.spec.key:<14} {row.scenario:<8} {row.rate:>6} {row.note}", flush=True)


def _annotate(
    figures: LayoutFigures,
    row: Row,
    hit_share: float,
    *,
    capacity: bool,
    floor_throughput: float | None,
) -> None:
    """The run's row (all the streams at once): the CPU per request, the cache's hit share,
    and the goals; at capacity, the share of the floor measured beside it."""
    cached = "" if math.isnan(hit_share) else f"; cache hits {100 * hit_share:.0f} %"
    row.note = row.cpu_note(figures, floor_throughput) + cached
    if floor_throughput:
        row.note += f" (beside it: {floor_throughput:.0f} req/s)"
    _print_note(figures, row)
    if capacity and floor_throughput:
        share = row.throughput / floor_throughput
        if share < FLOOR_SHARE_GOAL:
            figures.problems.append(
                f"mixed: capacity {100 * share:.0f} % of the floor (goal >= "
                f"{100 * FLOOR_SHARE_GOAL:.0f} %)"
            )
    if not capacity and not row.p99 <= P99_GOAL_MS:
        figures.problems.append(
            f"mixed at {row.rate}/s: p99 {row.p99:.0f} ms (goal <= {P99_GOAL_MS:g} ms)"
        )
