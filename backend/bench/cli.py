"""python -m bench: seed the databases, start every server layout, run each scenario on each
layout in turn (interleaved, so a change in the machine's load hits them alike), print figures.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import httpx

from bench import desk, events, mixed, soak
from bench.environment import (
    DEFAULT_SQLITE_PATH,
    DatabaseCpu,
    database_ensure,
    database_url,
    embedded_environment,
    production_environment,
    redis_problem,
    redis_url,
    server_environment,
)
from bench.layouts import BACKEND_DIR, Layout, LayoutSpec
from bench.load import Result, Stream, http_request, merged, open_loop
from bench.soak import SoakFigures
from bench.sse import SseResult, reply_latency
from bench.wrk import Capacity, capacity, wrk_path

# The production layout chosen from these figures (README: Production).
CHOSEN = "granian"
LAYOUTS = {
    spec.key: spec
    for spec in (
        LayoutSpec("uvicorn", "uvicorn 2 workers, everything (ASGI)", "uvicorn", 2),
        LayoutSpec(
            "gunicorn",
            "gunicorn 2 workers x 4 threads (API) + uvicorn 1 worker (events)",
            "gunicorn",
            2,
            4,
            events_workers=1,
        ),
        LayoutSpec(
            "gunicorn-sync",
            "gunicorn 4 sync workers (API) + uvicorn 1 worker (events)",
            "gunicorn",
            4,
            1,
            events_workers=1,
        ),
        LayoutSpec(
            "granian",
            "granian WSGI 2 workers x 4 threads (API) + uvicorn 1 worker (events)",
            "granian",
            2,
            4,
            events_workers=1,
        ),
        LayoutSpec(
            "granian-cached",
            "granian as above, CACHED_READS=true: lists and threads kept in Redis",
            "granian",
            2,
            4,
            events_workers=1,
            env=(("CACHED_READS", "true"),),
        ),
        # The audit trail's cost (issue 27): the chosen layout without it, and with every
        # opening written (no 10-minute window), beside granian (the log as deployed).
        LayoutSpec(
            "granian-audit-off",
            "granian as above, AUDIT_LOG_ENABLED=false: no audit events written",
            "granian",
            2,
            4,
            events_workers=1,
            env=(("AUDIT_LOG_ENABLED", "false"),),
        ),
        LayoutSpec(
            "granian-audit-every",
            "granian as above, AUDIT_OPENING_WINDOW_SECONDS=0: every opening written",
            "granian",
            2,
            4,
            events_workers=1,
            env=(("AUDIT_OPENING_WINDOW_SECONDS", "0"),),
        ),
        LayoutSpec(
            "embedded",
            "make run: uvicorn 1 process, SQLite, no Redis",
            "uvicorn",
            1,
            embedded=True,
        ),
    )
}
SCENARIOS = (
    "floor",
    "mixed",
    "desk",
    "desk-request",
    "open",
    "detail",
    "search",
    "desk-search",
    "signin",
    "sse",
    "events",
    "soak",
)
# Scenarios that run on the production layout alone unless --layouts says otherwise.
ON_CHOSEN_ONLY = ("soak", "events")
# The events scenario: delivery p95 with every stream open, and how long a stream may take
# to open (beyond the database pool's 10 s wait, so a pool timeout shows as its 500).
EVENTS_P95_MS = 1000.0
EVENTS_OPEN_TIMEOUT = 15.0
LIST_PATH = "/api/v1/requests/open"
HEALTH_PATH = "/api/v1/health"
SIGN_IN_PATH = "/api/v1/users/sign_in"


@dataclass
class Prepared:
    """A seeded database: the bench targets (bench.seed.Targets as JSON) and a bearer token."""

    env: dict[str, str]
    targets: dict
    token: str

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def detail_paths(self) -> list[str]:
        return [f"/api/v1/requests/{i}" for i in self.targets["request_ids"]]

    @property
    def concierge_auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.targets['concierge_token']}"}


# The desk's full-text search (over all 10,000 requests, their details and 100,000 messages):
# what a concierge types to find an employee's request, e.g. 'request 17 042'.
SEARCH_RATE = 20.0
SEARCH_P95_MS = 50.0


def search_paths() -> list[str]:
    rng = random.Random(12)  # noqa: S311 (the same searches every run)
    words = [f"request {rng.randrange(100)} {rng.randrange(100):03d}" for _ in range(200)] + [
        f"{rng.randrange(100):03d} request" for _ in range(50)
    ]
    return [f"/api/v1/concierge/search?q={w.replace(' ', '+')}" for w in words]


@dataclass
class Row:
    scenario: str
    rate: str  # "100", "cap", "5+100"
    sent: int
    errors: int
    p50: float
    p95: float
    p99: float
    throughput: float
    server_cpu_ms: float  # per request
    client_cpu_ms: float  # per request
    load: str
    note: str = ""
    # Per request, of the PostgreSQL backends serving the layout (NaN: SQLite, in the server).
    database_cpu_ms: float = math.nan

    @property
    def total_cpu_ms(self) -> float:
        """The server's and the database's CPU per request."""
        database = 0.0 if math.isnan(self.database_cpu_ms) else self.database_cpu_ms
        return self.server_cpu_ms + database

    def cpu_note(self, figures: LayoutFigures, floor_throughput: float | None = None) -> str:
        """CPU per request, server + database, and (at capacity) the share of the floor: the
        layout's first, unless the floor measured beside this row is given."""
        if floor_throughput is None:
            floor = figures.find("floor", "cap")
            floor_throughput = floor.throughput if floor is not None else None
        share = (
            f", {100 * self.throughput / floor_throughput:.2g} % of the floor"
            if self.rate == "cap" and floor_throughput
            else ""
        )
        database = (
            "SQLite in the server"
            if math.isnan(self.database_cpu_ms)
            else f"{self.database_cpu_ms:.2f}"
        )
        return (
            f"CPU per request {self.total_cpu_ms:.2f} ms (server {self.server_cpu_ms:.2f} + "
            f"PostgreSQL {database}){share}"
        )


@dataclass
class LayoutFigures:
    spec: LayoutSpec
    rows: list[Row] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def find(self, scenario: str, rate: str) -> Row | None:
        return next((r for r in self.rows if r.scenario == scenario and r.rate == rate), None)


Step = Callable[[LayoutFigures, Layout, Prepared], None]
"""One scenario's measurement on one layout, writing its rows into the layout's figures."""


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument(
        "--rates", default="100,200", help="fixed request rates per second, comma-separated"
    )
    parser.add_argument("--seconds", type=float, default=10, help="per fixed-rate run (10)")
    parser.add_argument("--capacity-seconds", type=float, default=5, help="per wrk run (5)")
    parser.add_argument("--connections", type=int, default=16, help="wrk connections (16)")
    parser.add_argument("--timeout", type=float, default=5, help="per request, seconds (5)")
    parser.add_argument("--max-in-flight", type=int, default=256, help="open loop bound (256)")
    parser.add_argument("--sign-in-rate", type=float, default=5, help="sign-ins per second (5)")
    parser.add_argument(
        "--sign-in-list-rate", type=float, default=100, help="list reads/s beside them (100)"
    )
    parser.add_argument("--sse-replies", type=int, default=100, help="SSE replies (100)")
    parser.add_argument("--sse-rate", type=float, default=10, help="SSE replies per second (10)")
    parser.add_argument("--events-streams", type=int, default=1000, help="streams held open (1000)")
    parser.add_argument(
        "--events-replies", type=int, default=30, help="events sent to them all (30)"
    )
    parser.add_argument("--events-rate", type=float, default=2, help="those events per second (2)")
    parser.add_argument(
        "--soak-seconds", type=float, default=600, help=f"the soak on {CHOSEN} (600)"
    )
    parser.add_argument(
        "--soak-warmup", type=float, default=60, help="RSS is measured from then on (60)"
    )
    parser.add_argument(
        "--layouts",
        help=f"server layouts, comma-separated: {','.join(LAYOUTS)} (all; {CHOSEN} for "
        "--only soak or --only events)",
    )
    parser.add_argument(
        "--scale", type=int, default=1, help="data set size: 10 for 100,000 requests (1)"
    )
    parser.add_argument(
        "--only",
        default=",".join(SCENARIOS),
        help=f"scenarios, comma-separated: {','.join(SCENARIOS)} (all)",
    )
    args = parser.parse_args(argv)
    args.rates = [float(r) for r in args.rates.split(",") if r.strip()]
    if not args.rates or not all(0 < r <= 2_000 for r in args.rates):
        parser.error("--rates must be in (0, 2000]")
    if not (0 < args.seconds <= 300 and 0 < args.capacity_seconds <= 300):
        parser.error("--seconds and --capacity-seconds must be in (0, 300]")
    if not (1 <= args.connections <= 256 and 0 < args.timeout <= 60):
        parser.error("--connections must be in [1, 256] and --timeout in (0, 60]")
    if not (0 < args.sign_in_rate <= 50 and 0 < args.sign_in_list_rate <= 2_000):
        parser.error("--sign-in-rate must be in (0, 50] and --sign-in-list-rate in (0, 2000]")
    if not (1 <= args.sse_replies <= 5_000 and 0 < args.sse_rate <= 100):
        parser.error("--sse-replies must be in [1, 5000] and --sse-rate in (0, 100]")
    if not (1 <= args.events_streams <= 10_000 and 1 <= args.events_replies <= 1_000):
        parser.error("--events-streams must be in [1, 10000] and --events-replies in [1, 1000]")
    if not 0 < args.events_rate <= 100:
        parser.error("--events-rate must be in (0, 100]")
    if not (0 < args.soak_warmup < args.soak_seconds <= 3_600):
        parser.error("--soak-warmup and --soak-seconds must be 0 < warm-up < seconds <= 3600")
    if not 1 <= args.scale <= 10:
        parser.error("--scale must be in [1, 10]")
    if args.layouts is None:
        args.layouts = CHOSEN if args.only in ON_CHOSEN_ONLY else ",".join(LAYOUTS)
    for name, known in (("layouts", LAYOUTS), ("only", SCENARIOS)):
        chosen = [k.strip() for k in getattr(args, name).split(",") if k.strip()]
        if not chosen or set(chosen) - set(known):
            parser.error(f"--{name} takes some of {','.join(known)}")
        setattr(args, name, chosen)
    if "soak" in args.only and CHOSEN not in args.layouts:
        parser.error(f"the soak runs on {CHOSEN}: add it to --layouts")
    return args


def load_average() -> str:
    try:
        return " ".join(f"{v:.1f}" for v in os.getloadavg())
    except OSError:
        return "unknown"


def prepare(env: dict[str, str], label: str) -> Prepared:
    """Seed through Django in a subprocess with this environment (its own settings)."""
    print(f"Preparing the {label} database ...", flush=True)
    completed = subprocess.run(  # noqa: S603 (our own interpreter and module)
        [sys.executable, "-m", "bench.prepare", "seed"],
        cwd=BACKEND_DIR,
        env={**os.environ, **env},
        stdout=subprocess.PIPE,
        text=True,
        check=False,
    )
    if completed.returncode != 0:
        raise SystemExit(f"Preparing the {label} database failed.")
    data = json.loads(completed.stdout.strip().splitlines()[-1])
    token = data.pop("token")
    return Prepared(env, data, token)


def cleanup(prepared: Prepared) -> None:
    subprocess.run(  # noqa: S603 (our own interpreter and module)
        [sys.executable, "-m", "bench.prepare", "cleanup"],
        cwd=BACKEND_DIR,
        env={**os.environ, **prepared.env},
        check=False,
    )


def check_answers(layout: Layout, prepared: Prepared) -> None:
    """The endpoints answer what the data set holds (else the figures mean nothing)."""
    targets = prepared.targets
    with httpx.Client(base_url=layout.api_url, headers=prepared.auth, timeout=10) as client:
        health = client.get(HEALTH_PATH)
        listed = client.get(LIST_PATH)
        detail = client.get(prepared.detail_paths()[0])
    problems = []
    if health.status_code != 200 or health.json() != {"status": "ok"}:
        problems.append(f"health: {health.status_code}")
    if listed.status_code != 200 or len(listed.json()["requests"]) != targets["open_count"]:
        problems.append(f"list: {listed.status_code}")
    if (
        detail.status_code != 200
        or len(detail.json()["request"]["messages"]) != targets["messages_per_request"]
    ):
        problems.append(f"detail: {detail.status_code}")
    with httpx.Client(base_url=layout.api_url, headers=prepared.concierge_auth, timeout=10) as c:
        found = c.get("/api/v1/concierge/search", params={"q": "request 17 042"})
    if found.status_code != 200 or not found.json()["results"]:
        problems.append(f"search: {found.status_code}")
    if problems:
        raise SystemExit(f"{layout.spec.key}: wrong answers ({', '.join(problems)}); reseed.")


class Bench:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.figures: dict[str, LayoutFigures] = {}
        self.soak: SoakFigures | None = None

    def _row(self, figures: LayoutFigures, row: Row) -> None:
        figures.rows.append(row)
        print(
            f"  {figures.spec.key:<14} {row.scenario:<8} {row.rate:>6} "
            f"p99 {_ms(row.p99):>7} ms  {row.throughput:>6.0f}/s  errors {row.errors:<4} "
            f"server {_ms(row.server_cpu_ms)} ms/req  client {_ms(row.client_cpu_ms, 2)} ms/req  "
            f"load {row.load}",
            flush=True,
        )

    def fixed(
        self,
        figures: LayoutFigures,
        layout: Layout,
        name: str,
        streams: list[Stream],
        *,
        combined: bool = False,
    ) -> None:
        """Each stream at its rate: a row per stream (`name` for a single one), and with
        `combined` a row `name` of them all at their summed rate."""
        args = self.args
        with _database_cpu(layout) as database:
            cpu = layout.cpu_seconds()
            run = open_loop(
                layout.api_url,
                streams,
                seconds=args.seconds,
                timeout=args.timeout,
                max_in_flight=args.max_in_flight,
            )
            server_cpu = layout.cpu_seconds() - cpu
        load = load_average()
        # Per answered request (a 200 or an error status; not the unanswered ones).
        answered = sum(
            r.ok + sum(n for kind, n in r.errors.items() if kind.startswith("HTTP"))
            for r in run.results.values()
        )
        for stream in streams:
            result = run.results[stream.name]
            rate = (
                "+".join(f"{s.rate:g}" for s in streams) if len(streams) > 1 else f"{stream.rate:g}"
            )
            self._row(
                figures,
                _fixed_row(
                    stream.name if len(streams) > 1 else name,
                    rate,
                    result,
                    server_cpu_ms=1000 * server_cpu / answered if answered else math.nan,
                    client_cpu_ms=run.client_cpu_ms_per_request(),
                    load=load,
                    database_cpu_ms=_per_request(database.used, answered),
                ),
            )
            if result.errors:
                figures.problems.append(f"{stream.name} at {rate}/s: {dict(result.errors)}")
            if result.send_lag and result.send_lag_ms(99) > 10:
                figures.problems.append(
                    f"{stream.name} at {rate}/s: the generator ran up to "
                    f"{result.send_lag_ms(99):.0f} ms late (p99)"
                )
        if combined:
            self._row(
                figures,
                _fixed_row(
                    name,
                    f"{sum(s.rate for s in streams):g}",
                    merged(list(run.results.values())),
                    server_cpu_ms=1000 * server_cpu / answered if answered else math.nan,
                    client_cpu_ms=run.client_cpu_ms_per_request(),
                    load=load,
                    database_cpu_ms=_per_request(database.used, answered),
                ),
            )

    def capacity(
        self,
        figures: LayoutFigures,
        layout: Layout,
        name: str,
        paths: list[str],
        auth: dict,
        run: Callable[[], Capacity] | None = None,
    ) -> None:
        """wrk's GETs of `paths` with `auth`; or `run`, another wrk run."""
        args = self.args
        with _database_cpu(layout) as database:
            cpu = layout.cpu_seconds()
            cap: Capacity = (
                run()
                if run is not None
                else capacity(
                    layout.api_url,
                    paths,
                    auth,
                    connections=args.connections,
                    seconds=args.capacity_seconds,
                    timeout=args.timeout,
                )
            )
            server_cpu = layout.cpu_seconds() - cpu
        self._row(
            figures,
            Row(
                name,
                "cap",
                cap.requests,
                cap.errors,
                math.nan,
                math.nan,
                cap.p99_ms,
                cap.throughput,
                1000 * server_cpu / cap.requests if cap.requests else math.nan,
                cap.client_cpu_ms_per_request(),
                load_average(),
                database_cpu_ms=_per_request(database.used, cap.requests),
            ),
        )
        if cap.errors:
            figures.problems.append(f"{name} capacity: {cap.bad_status} bad, {cap.failed} failed")

    def sse(self, figures: LayoutFigures, layout: Layout, prepared: Prepared) -> None:
        args = self.args
        result: SseResult = asyncio.run(
            reply_latency(
                layout.api_url,
                layout.events_url,
                employee_token=prepared.token,
                concierge_email=prepared.targets["concierge_email"],
                password=prepared.targets["password"],
                request_ids=prepared.targets["reply_request_ids"],
                replies=args.sse_replies,
                rate=args.sse_rate,
                timeout=args.timeout,
            )
        )
        row = Row(
            "sse",
            f"{args.sse_rate:g}",
            result.sent,
            result.error_count + result.missed,
            result.percentile_ms(50),
            result.percentile_ms(95),
            result.percentile_ms(99),
            math.nan,
            math.nan,
            math.nan,
            load_average(),
            note=f"POST p50 {_ms(result.post_percentile_ms(50))} ms",
        )
        self._row(figures, row)
        if result.errors or result.missed or result.stream_ended:
            figures.problems.append(
                f"SSE: {dict(result.errors)} failed, {result.missed} missed, "
                f"stream ended: {result.stream_ended}"
            )

    def events(self, figures: LayoutFigures, layout: Layout, prepared: Prepared) -> None:
        args = self.args
        role = "api" if layout.events_url == layout.api_url else "events"
        pids = [int(key.split()[1]) for key in layout.rss_kib() if key.startswith(f"{role} ")]
        import uvloop

        client_cpu = time.process_time()
        result = uvloop.run(
            events.held_streams(
                layout.api_url,
                layout.events_url,
                employee_token=prepared.token,
                concierge_email=prepared.targets["concierge_email"],
                password=prepared.targets["password"],
                request_ids=prepared.targets["reply_request_ids"],
                streams=args.events_streams,
                replies=args.events_replies,
                rate=args.events_rate,
                timeout=args.timeout,
                open_timeout=EVENTS_OPEN_TIMEOUT,
                server_figures=events.ServerFigures(pids),
            )
        )
        client_cpu = time.process_time() - client_cpu
        deliveries = result.deliveries
        failed_opens = result.wanted - result.opened
        self._row(
            figures,
            Row(
                "events",
                f"{args.events_streams}",
                deliveries,
                result.missed + failed_opens + sum(result.reply_errors.values()),
                result.percentile_ms(50),
                result.percentile_ms(95),
                result.percentile_ms(99),
                math.nan,
                1000 * result.server_cpu_seconds / deliveries if deliveries else math.nan,
                1000 * client_cpu / deliveries if deliveries else math.nan,
                load_average(),
                note=events.describe(result),
            ),
        )
        if failed_opens or result.missed or result.reply_errors or result.ended:
            figures.problems.append(
                f"events: {failed_opens} streams did not open {dict(result.open_failures)}, "
                f"{result.missed} deliveries missed, replies failed "
                f"{dict(result.reply_errors)}, {result.ended} streams ended early"
            )

    def run(self, layouts: list[tuple[Layout, Prepared]]) -> None:
        args = self.args
        for layout, _ in layouts:
            self.figures[layout.spec.key] = LayoutFigures(layout.spec)

        turn = 0

        def each(step: Step) -> None:
            """Interleaved: one layout after the other, each phase starting with the next
            layout in turn; each waits until the one before has worked off its queue."""
            nonlocal turn
            order = layouts[turn % len(layouts) :] + layouts[: turn % len(layouts)]
            turn += 1
            for layout, prepared in order:
                for other, _ in layouts:
                    other.wait_idle()
                step(self.figures[layout.spec.key], layout, prepared)

        def host(layout: Layout) -> str:
            return layout.api_url.removeprefix("http://")

        def getter(layout: Layout, prepared: Prepared, paths: list[str]) -> Callable[[], bytes]:
            rng = random.Random(3)  # noqa: S311 (the same ids every run)
            payloads = [http_request("GET", p, host(layout), prepared.auth) for p in paths]
            return lambda: payloads[rng.randrange(len(payloads))]

        def fixed_rate(key: str, label: str, rate: float) -> Step:
            return lambda f, lay, p: self.fixed(
                f, lay, label, [Stream(label, rate, getter(lay, p, _paths(key, p)))]
            )

        def capacity_of(key: str, label: str) -> Step:
            return lambda f, lay, p: self.capacity(f, lay, label, _paths(key, p), p.auth)

        for layout, prepared in layouts:
            check_answers(layout, prepared)
        if "floor" in args.only:
            print(f"Floor: GET {HEALTH_PATH}, wrk {args.connections} connections", flush=True)
            each(lambda f, lay, p: self.capacity(f, lay, "floor", [HEALTH_PATH], {}))
        if "mixed" in args.only:
            mixed.run(self, each)
        if "desk" in args.only:
            desk.run(self, each, args.scale)
        if "desk-request" in args.only:
            desk.run_request(self, each)
        if "search" in args.only:
            print(f"search: {SEARCH_RATE:g} req/s for {args.seconds:g} s", flush=True)

            def search_getter(layout: Layout, prepared: Prepared) -> Callable[[], bytes]:
                rng = random.Random(5)  # noqa: S311
                payloads = [
                    http_request("GET", path, host(layout), prepared.concierge_auth)
                    for path in search_paths()
                ]
                return lambda: payloads[rng.randrange(len(payloads))]

            each(
                lambda f, lay, p: self.fixed(
                    f, lay, "search", [Stream("search", SEARCH_RATE, search_getter(lay, p))]
                )
            )
        if "desk-search" in args.only:
            from bench import desk_search

            desk_search.run(self, each)
        for key, label in (("open", "list"), ("detail", "thread")):
            if key not in args.only:
                continue
            for rate in args.rates:
                print(f"{label}: {rate:g} req/s for {args.seconds:g} s", flush=True)
                each(fixed_rate(key, label, rate))
            print(f"{label}: capacity, wrk {args.connections} connections", flush=True)
            each(capacity_of(key, label))
        if "signin" in args.only:
            print(
                f"Sign-in: {args.sign_in_rate:g}/s with list reads at "
                f"{args.sign_in_list_rate:g}/s for {args.seconds:g} s",
                flush=True,
            )

            def sign_in(f: LayoutFigures, lay: Layout, p: Prepared) -> None:
                body = json.dumps(
                    {"user": {"email": p.targets["email"], "password": p.targets["password"]}}
                ).encode()
                payload = http_request(
                    "POST",
                    SIGN_IN_PATH,
                    host(lay),
                    {"Content-Type": "application/json"},
                    body,
                )
                self.fixed(
                    f,
                    lay,
                    "signin",
                    [
                        Stream("signin", args.sign_in_rate, lambda: payload),
                        Stream("list", args.sign_in_list_rate, getter(lay, p, [LIST_PATH])),
                    ],
                )

            each(sign_in)
        if "sse" in args.only:
            print(
                f"SSE reply latency: {args.sse_replies} replies at {args.sse_rate:g}/s", flush=True
            )
            each(self.sse)
        if "events" in args.only:
            print(
                f"Held streams: {args.events_streams} open on the events server, "
                f"{args.events_replies} events to all of them at {args.events_rate:g}/s",
                flush=True,
            )
            each(self.events)
        if "soak" in args.only:
            layout, prepared = next((lay, p) for lay, p in layouts if lay.spec.key == CHOSEN)
            print(
                f"Soak on {CHOSEN}: {args.soak_seconds:g} s at {sum(soak.RATES.values()):g} "
                f"req/s, RSS sampled every {soak.SAMPLE_SECONDS} s after {args.soak_warmup:g} s",
                flush=True,
            )
            for other, _ in layouts:
                other.wait_idle()
            self.run_soak(layout, prepared)

    def run_soak(self, layout: Layout, prepared: Prepared) -> None:
        args, targets = self.args, prepared.targets
        with httpx.Client(base_url=layout.api_url, timeout=10) as client:
            signed_in = client.post(
                SIGN_IN_PATH,
                json={
                    "user": {"email": targets["concierge_email"], "password": targets["password"]}
                },
            )
        if signed_in.status_code != 200:
            raise SystemExit(f"Soak: the concierge could not sign in: {signed_in.status_code}")
        streams = soak.streams(
            layout.api_url.removeprefix("http://"),
            prepared.auth,
            {"Authorization": signed_in.headers["Authorization"]},
            targets,
            LIST_PATH,
            SIGN_IN_PATH,
        )
        self.soak = soak.soak(
            layout,
            streams,
            seconds=args.soak_seconds,
            warmup=args.soak_warmup,
            timeout=args.timeout,
            max_in_flight=args.max_in_flight,
            load_average=load_average,
        )

    def report(self) -> None:
        if self.figures and set(self.args.only) != {"soak"}:
            self.report_figures()
        if self.soak is not None:
            soak.report(self.soak, self.args.soak_seconds, self.args.soak_warmup)

    def report_figures(self) -> None:
        header = (
            f"{'scenario':<9} {'rate/s':>7} {'sent':>6} {'errors':>6} {'p50 ms':>7} "
            f"{'p95 ms':>7} {'p99 ms':>7} {'req/s':>6} {'server CPU':>10} {'DB CPU':>7} "
            f"{'client CPU':>10} {'load average':>14}"
        )
        for key, figures in self.figures.items():
            chosen = "  <- the production layout" if key == CHOSEN else ""
            print(f"\n== {key}: {figures.spec.description}{chosen}")
            print(header)
            print("-" * len(header))
            for r in figures.rows:
                print(
                    f"{r.scenario:<9} {r.rate:>7} {r.sent:>6} {r.errors:>6} {_ms(r.p50):>7} "
                    f"{_ms(r.p95):>7} {_ms(r.p99):>7} {_num(r.throughput):>6} "
                    f"{_ms(r.server_cpu_ms, 2):>10} {_ms(r.database_cpu_ms, 2):>7} "
                    f"{_ms(r.client_cpu_ms, 3):>10} {r.load:>14}"
                    + (f"  {r.note}" if r.note else "")
                )
            for problem in figures.problems:
                print(f"! {problem}")
        print(
            "\nrate/s: a fixed rate (open loop: latency from each request's due time, no "
            "coordinated omission) or 'cap' (wrk, closed loop: req/s is the capacity). "
            "CPU in ms per request: the server's processes (all workers), the PostgreSQL "
            "backends serving them, and the load generator's own. Sign-in: 'signin' and 'list' rows ran together."
        )
        self.summary()

    def summary(self) -> None:
        rate = f"{max(self.args.rates):g}"
        print(f"\nGoals: floor >= 1000/s; list and thread p99 <= 25 ms at {rate}/s with 0 errors;")
        print("capacity >= 60 % of the floor; sign-in p95 <= 300 ms with list p99 <= 50 ms;")
        print(
            f"mixed: p99 <= {mixed.P99_GOAL_MS:g} ms at {mixed.MIXED_RATE:g}/s, capacity >= "
            f"{100 * mixed.FLOOR_SHARE_GOAL:.0f} % of the floor;"
        )
        print(
            f"SSE reply p95 <= 50 ms; events: {self.args.events_streams} streams open, "
            f"delivery p95 <= {EVENTS_P95_MS:g} ms."
        )
        header = (
            f"{'layout':<16} {'floor':>6} {'list p99':>8} {'thread p99':>10} {'list cap':>8} "
            f"{'thread cap':>10} {'sign-in p95':>11} {'list p99':>8} {'SSE p95':>7} "
            f"{'events p95':>10} {'mixed p99':>9} {'mixed cap':>9}"
        )
        print(header)
        print("-" * len(header))
        for key, f in self.figures.items():
            cells = [
                _num(_get(f.find("floor", "cap"), "throughput")),
                _ms(_get(f.find("list", rate), "p99")),
                _ms(_get(f.find("thread", rate), "p99")),
                _num(_get(f.find("list", "cap"), "throughput")),
                _num(_get(f.find("thread", "cap"), "throughput")),
                _ms(_get(_signin_row(f, "signin"), "p95")),
                _ms(_get(_signin_row(f, "list"), "p99")),
                _ms(_get(f.find("sse", f"{self.args.sse_rate:g}"), "p95")),
                _ms(_get(f.find("events", f"{self.args.events_streams}"), "p95")),
                _ms(_get(f.find("mixed", f"{mixed.MIXED_RATE:g}"), "p99")),
                _num(_get(f.find("mixed", "cap"), "throughput")),
            ]
            print(
                f"{key:<16} {cells[0]:>6} {cells[1]:>8} {cells[2]:>10} {cells[3]:>8} "
                f"{cells[4]:>10} {cells[5]:>11} {cells[6]:>8} {cells[7]:>7} {cells[8]:>10} "
                f"{cells[9]:>9} {cells[10]:>9}"
            )


class _DatabaseCpuSpent:
    """The database's CPU seconds over a `with` block (NaN for the embedded layout)."""

    used = math.nan


@contextlib.contextmanager
def _database_cpu(layout: Layout) -> Iterator[_DatabaseCpuSpent]:
    spent = _DatabaseCpuSpent()
    if layout.spec.embedded:
        yield spent
        return
    database = DatabaseCpu(layout.env["DATABASE_URL"])
    try:
        before = database.seconds()
        yield spent
        spent.used = database.seconds() - before
    finally:
        database.close()


def _per_request(seconds: float, requests: int) -> float:
    return 1000 * seconds / requests if requests else math.nan


def _signin_row(figures: LayoutFigures, scenario: str) -> Row | None:
    return next((r for r in figures.rows if r.scenario == scenario and "+" in r.rate), None)


def _get(row: Row | None, name: str) -> float:
    return math.nan if row is None else float(getattr(row, name))


def _paths(key: str, prepared: Prepared) -> list[str]:
    return [LIST_PATH] if key == "open" else prepared.detail_paths()


def _fixed_row(
    name: str,
    rate: str,
    result: Result,
    *,
    server_cpu_ms: float,
    client_cpu_ms: float,
    load: str,
    database_cpu_ms: float,
) -> Row:
    return Row(
        name,
        rate,
        result.sent,
        result.error_count,
        result.percentile_ms(50),
        result.percentile_ms(95),
        result.percentile_ms(99),
        result.throughput,
        server_cpu_ms,
        client_cpu_ms,
        load,
        database_cpu_ms=database_cpu_ms,
    )


def _ms(value: float, digits: int = 1) -> str:
    return "-" if math.isnan(value) else f"{value:.{digits}f}"


def _num(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:.0f}"


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    wrk_path()
    specs = [LAYOUTS[k] for k in args.layouts]
    redis = redis_url()
    production = [s for s in specs if not s.embedded]
    if production and (problem := redis_problem(redis)):
        raise SystemExit(
            f"{problem}: the layouts publish live events through it (BENCH_REDIS_URL)."
        )
    print(f"CPUs: {os.cpu_count()}, load average: {load_average()}.", flush=True)
    prepared: dict[bool, Prepared] = {}
    os.environ["BENCH_SCALE"] = str(args.scale)  # read by the seed (bench.seed)
    base = server_environment(database_url())
    if production:
        database_ensure(base["DATABASE_URL"])
        prepared[False] = prepare(production_environment(base, redis), "PostgreSQL")
    if any(s.embedded for s in specs):
        path = os.environ.get("BENCH_SQLITE_PATH", DEFAULT_SQLITE_PATH)
        prepared[True] = prepare(embedded_environment(base, path), f"SQLite ({path})")
    bench = Bench(args)
    try:
        with contextlib.ExitStack() as stack:
            started = []
            for spec in specs:
                p = prepared[spec.embedded]
                layout = stack.enter_context(Layout(spec, p.env))
                print(f"Started {spec.key}: {spec.description}: API {layout.api_url}"
                      f"{'' if layout.events_url == layout.api_url else ', events ' + layout.events_url}.",
                      flush=True)  # fmt: skip
                started.append((layout, p))
            bench.run(started)
    finally:
        for p in prepared.values():
            cleanup(p)
    bench.report()
    print(
        f"\nLoad average at the end: {load_average()} (other work on this machine skews figures)."
    )
    slow_search = [
        f"{key}: search p95 {row.p95:.1f} ms, {row.errors} errors"
        for key, figures in bench.figures.items()
        if (row := figures.find("search", f"{SEARCH_RATE:g}")) is not None
        and (row.p95 > SEARCH_P95_MS or row.errors)
    ]
    for problem in slow_search:
        print(f"Search over its budget (p95 <= {SEARCH_P95_MS:g} ms, no errors): {problem}")
    events_short = [
        f"{key}: {row.note}; delivery p95 {_ms(row.p95)} ms, {row.errors} errors"
        for key, figures in bench.figures.items()
        if (row := figures.find("events", f"{args.events_streams}")) is not None
        and (not row.p95 <= EVENTS_P95_MS or row.errors)
    ]
    for problem in events_short:
        print(
            f"Held streams short of the goal (all {args.events_streams} open, delivery p95 <= "
            f"{EVENTS_P95_MS:g} ms, nothing missed): {problem}"
        )
    failed = (bench.soak is not None and bench.soak.problems) or slow_search or events_short
    return 1 if failed else 0
