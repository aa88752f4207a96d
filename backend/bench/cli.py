"""python -m bench: seed PostgreSQL, start uvicorn, run each scenario, print the figures."""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import httpx

from bench.environment import (
    database_ensure,
    database_url,
    redis_problem,
    redis_url,
    server_environment,
    sse_server_environment,
)
from bench.load import Result, closed_loop, open_loop
from bench.monitor import database_connections
from bench.server import Server
from bench.sse import SseResult, reply_latency

if TYPE_CHECKING:
    from bench.seed import Targets  # imports Django models: only after django.setup()


SSE = "sse"
SCENARIO_KEYS = ("health", "open", "detail", SSE)


@dataclass(frozen=True)
class Scenario:
    key: str  # for --only
    name: str
    next_path: Callable[[], str]
    check: Callable[[httpx.Response], str | None]  # what is wrong with a 200 answer, or None


@dataclass
class Outcome:
    scenario: Scenario
    fixed: Result
    capacity: Result | None = None
    db_connections: int = 0  # peak during the fixed-rate run
    notes: list[str] = field(default_factory=list)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--rate", type=float, default=100, help="requests per second (100)")
    parser.add_argument("--seconds", type=float, default=20, help="per scenario (20)")
    parser.add_argument(
        "--capacity-seconds",
        type=float,
        default=5,
        help="closed-loop run per scenario for the max throughput; 0 skips it (5)",
    )
    parser.add_argument("--concurrency", type=int, default=16, help="closed-loop clients (16)")
    parser.add_argument("--workers", type=int, default=2, help="uvicorn workers (2)")
    parser.add_argument("--timeout", type=float, default=5, help="per request, seconds (5)")
    parser.add_argument(
        "--max-in-flight",
        type=int,
        default=256,
        help="unanswered requests at most; more are not sent and count as errors (256)",
    )
    parser.add_argument(
        "--only",
        default=",".join(SCENARIO_KEYS),
        metavar="KEYS",
        help=f"run only these scenarios, comma-separated: {','.join(SCENARIO_KEYS)} (all)",
    )
    parser.add_argument(
        "--sse-replies",
        type=int,
        default=200,
        help="SSE reply latency: concierge replies, one after the other (200)",
    )
    parser.add_argument(
        "--sse-rate", type=float, default=10, help="SSE reply latency: replies per second (10)"
    )
    args = parser.parse_args(argv)
    if not (0 < args.rate <= 2_000 and 0 < args.seconds <= 300):
        parser.error("--rate must be in (0, 2000] and --seconds in (0, 300]")
    if not (0 <= args.capacity_seconds <= 300 and 1 <= args.concurrency <= 256):
        parser.error("--capacity-seconds must be in [0, 300] and --concurrency in [1, 256]")
    if not (1 <= args.workers <= 16 and 0 < args.timeout <= 60):
        parser.error("--workers must be in [1, 16] and --timeout in (0, 60]")
    if not 1 <= args.max_in_flight <= 1_000:
        parser.error("--max-in-flight must be in [1, 1000]")
    if not (1 <= args.sse_replies <= 5_000 and 0 < args.sse_rate <= 100):
        parser.error("--sse-replies must be in [1, 5000] and --sse-rate in (0, 100]")
    only = [key.strip() for key in args.only.split(",") if key.strip()]
    unknown = sorted(set(only) - set(SCENARIO_KEYS))
    if unknown or not only:
        parser.error(f"--only takes some of {','.join(SCENARIO_KEYS)}; got {args.only!r}")
    args.only = set(only)
    return args


def prepare(env: dict[str, str]) -> tuple[Targets, str, Callable[[], None]]:
    """Migrate and seed through Django in this process. Returns the targets, a bearer token
    for the bench employee and a function that revokes it and deletes the SSE scenario's
    replies (so the data set stays as seeded)."""
    os.environ.update(env)
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connections

    from bench.seed import replies_remove, seed
    from concierge.accounts.services import auth_token_revoke, user_sign_in

    started = time.monotonic()
    call_command("migrate", verbosity=0, interactive=False)
    print(f"Migrated in {time.monotonic() - started:.1f} s.")
    targets = seed()
    signed_in = user_sign_in(email=targets.email, password=targets.password)
    connections.close_all()  # only the server's connections count during the runs

    def finish() -> None:
        auth_token_revoke(auth_token=signed_in.auth_token)
        removed = replies_remove()
        if removed:
            print(f"Deleted the {removed} bench replies and their queued emails.")
        connections.close_all()

    return targets, signed_in.token, finish


def scenarios(targets: Targets) -> list[Scenario]:
    rng = random.Random(3)  # noqa: S311 (the same ids every run)

    def health_ok(response: httpx.Response) -> str | None:
        return None if response.json() == {"status": "ok"} else "unexpected body"

    def open_ok(response: httpx.Response) -> str | None:
        count = len(response.json()["requests"])
        return None if count == targets.open_count else f"{count} open requests"

    def detail_ok(response: httpx.Response) -> str | None:
        count = len(response.json()["request"]["messages"])
        return None if count == targets.messages_per_request else f"{count} messages"

    return [
        Scenario("health", "floor: GET /health", lambda: "/api/v1/health", health_ok),
        Scenario("open", "GET /requests/open", lambda: "/api/v1/requests/open", open_ok),
        Scenario(
            "detail",
            "GET /requests/{id}",
            lambda: f"/api/v1/requests/{rng.choice(targets.request_ids)}",
            detail_ok,
        ),
    ]


async def warm_up(client: httpx.AsyncClient, scenario: Scenario) -> None:
    """Open connections to both workers, and check that the 200 answers are the expected ones
    (errors are left for the run to count)."""
    for _ in range(2):
        responses = await asyncio.gather(
            *(client.get(scenario.next_path()) for _ in range(8)), return_exceptions=True
        )
        for response in responses:
            if isinstance(response, httpx.Response) and response.status_code == 200:
                problem = scenario.check(response)
                if problem:
                    raise SystemExit(
                        f"{scenario.name}: wrong answer ({problem}); reseed the database."
                    )


async def run_all(
    base_url: str, token: str, selected: list[Scenario], db_url: str, args: argparse.Namespace
) -> list[Outcome]:
    outcomes = []
    async with httpx.AsyncClient(
        base_url=base_url,
        headers={"Authorization": f"Bearer {token}"},
        timeout=args.timeout,
        limits=httpx.Limits(
            max_connections=max(args.max_in_flight, args.concurrency),
            max_keepalive_connections=64,
        ),
    ) as client:
        for scenario in selected:
            await warm_up(client, scenario)
            print(f"  {scenario.name}: {args.rate:g} req/s for {args.seconds:g} s", flush=True)
            async with database_connections(db_url) as connections:
                fixed = await open_loop(
                    client,
                    scenario.next_path,
                    rate=args.rate,
                    seconds=args.seconds,
                    timeout=args.timeout,
                    max_in_flight=args.max_in_flight,
                )
            outcome = Outcome(scenario, fixed, db_connections=connections.peak)
            if args.capacity_seconds:
                outcome.capacity = await closed_loop(
                    client,
                    scenario.next_path,
                    concurrency=args.concurrency,
                    seconds=args.capacity_seconds,
                    timeout=args.timeout,
                )
            outcomes.append(outcome)
    return outcomes


def _ms(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:.1f}"


def _errors(result: Result | SseResult) -> str:
    return ", ".join(f"{kind} × {count}" for kind, count in result.errors.most_common())


def report(outcomes: list[Outcome], args: argparse.Namespace) -> None:
    if not outcomes:
        return
    header = (
        f"{'scenario':<20} {'rate/s':>6} {'sent':>6} {'ok':>6} {'errors':>6} "
        f"{'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'max req/s':>9} {'db conns':>8}"
    )
    print()
    print(header)
    print("-" * len(header))
    for o in outcomes:
        fixed, capacity = o.fixed, o.capacity
        print(
            f"{o.scenario.name:<20} {args.rate:>6g} {fixed.sent:>6} {fixed.ok:>6} "
            f"{fixed.error_count:>6} {_ms(fixed.percentile_ms(50)):>8} "
            f"{_ms(fixed.percentile_ms(95)):>8} {_ms(fixed.percentile_ms(99)):>8} "
            f"{(f'{capacity.throughput:.0f}' if capacity else '-'):>9} {o.db_connections:>8}"
        )
    print()
    print("p50/p95/p99: from each request's scheduled send time (open loop), answers with 200.")
    if args.capacity_seconds:
        print(
            f"max req/s: 200 answers per second with {args.concurrency} clients back to back "
            f"for {args.capacity_seconds:g} s. db conns: the server's peak PostgreSQL connections."
        )
    for o in outcomes:
        name, fixed = o.scenario.name, o.fixed
        if fixed.errors:
            print(f"! {name}: errors at {args.rate:g} req/s: {_errors(fixed)}")
        if o.capacity and o.capacity.errors:
            print(f"! {name}: errors in the max req/s run: {_errors(o.capacity)}")
        if fixed.ok < 0.95 * fixed.sent or fixed.throughput < 0.9 * args.rate:
            print(
                f"! {name}: the server did not keep up with {args.rate:g} req/s "
                f"({fixed.throughput:.0f} answered per second); the latencies are mostly queueing."
            )
        lag = sorted(fixed.send_lag)[int(0.99 * (len(fixed.send_lag) - 1))] * 1000
        if lag > 10:
            print(f"! {name}: the load generator itself ran up to {lag:.0f} ms late (p99).")


def load_average() -> str:
    try:
        return " ".join(f"{v:.1f}" for v in os.getloadavg())
    except OSError:
        return "unknown"


def run_sse(
    env: dict[str, str], redis: str, token: str, targets: Targets, args: argparse.Namespace
) -> SseResult:
    print(
        f"SSE reply latency: starting uvicorn, {args.workers} workers, DEBUG off, "
        f"REDIS_URL={redis}, TASKS_IN_PROCESS=false ...",
        flush=True,
    )
    with Server(sse_server_environment(env, redis), workers=args.workers) as server:
        print(
            f"  Serving on {server.base_url}. {args.sse_replies} concierge replies at "
            f"{args.sse_rate:g}/s to the employee's {len(targets.reply_request_ids)} In Progress "
            "requests in turn, one employee stream.",
            flush=True,
        )
        return asyncio.run(
            reply_latency(
                server.base_url,
                employee_token=token,
                concierge_email=targets.concierge_email,
                password=targets.password,
                request_ids=targets.reply_request_ids,
                replies=args.sse_replies,
                rate=args.sse_rate,
                timeout=args.timeout,
            )
        )


def sse_report(result: SseResult, redis: str, args: argparse.Namespace) -> None:
    header = (
        f"{'scenario':<20} {'rate/s':>6} {'sent':>6} {'events':>6} {'missed':>6} "
        f"{'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'max ms':>8} {'POST p50':>8}"
    )
    print()
    print(header)
    print("-" * len(header))
    print(
        f"{'SSE reply latency':<20} {args.sse_rate:>6g} {result.sent:>6} "
        f"{len(result.latencies):>6} {result.missed:>6} {_ms(result.percentile_ms(50)):>8} "
        f"{_ms(result.percentile_ms(95)):>8} {_ms(result.percentile_ms(99)):>8} "
        f"{_ms(result.max_ms):>8} {_ms(result.post_percentile_ms(50)):>8}"
    )
    print()
    print(
        "SSE reply latency: from just before a concierge's reply POST to its message.created "
        "event read on the employee's open stream.\n"
        f"{args.workers} uvicorn workers with REDIS_URL={redis}: every event crosses processes "
        "through Redis pub/sub. TASKS_IN_PROCESS=false: the reply emails are queued, never sent.\n"
        f"missed: no event within {args.timeout:g} s. POST p50: the reply POST's own answer time."
    )
    if result.errors:
        print(f"! SSE reply latency: failed replies: {_errors(result)}")
    if result.missed:
        print(f"! SSE reply latency: {result.missed} events did not arrive in {args.timeout:g} s.")
    if result.stream_ended:
        print("! SSE reply latency: the server closed the employee's stream during the run.")
    pace = result.sent / result.sending_seconds if result.sending_seconds else 0.0
    if pace < 0.9 * args.sse_rate:
        print(
            f"! SSE reply latency: the replies went out at {pace:.1f}/s, not {args.sse_rate:g}/s "
            "(each waits for the previous POST's answer)."
        )


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    db_url = database_url()
    redis = redis_url()
    sse_problem = redis_problem(redis) if SSE in args.only else None
    if sse_problem:
        print(f"! SSE reply latency will be skipped: {sse_problem}; set BENCH_REDIS_URL.")
    database_ensure(db_url)
    env = server_environment(db_url)
    targets, token, finish = prepare(env)
    print(
        f"Bench employee: {targets.open_count} open of {len(targets.request_ids)} requests, "
        f"{targets.messages_per_request} messages each. CPUs: {os.cpu_count()}, "
        f"load average: {load_average()}."
    )
    selected = [s for s in scenarios(targets) if s.key in args.only]
    outcomes: list[Outcome] = []
    sse_result = None
    try:
        if selected:
            print(f"Starting uvicorn, {args.workers} workers, DEBUG off ...", flush=True)
            with Server(env, workers=args.workers) as server:
                print(f"Serving on {server.base_url}.")
                outcomes = asyncio.run(run_all(server.base_url, token, selected, db_url, args))
        if SSE in args.only and not sse_problem:
            sse_result = run_sse(env, redis, token, targets, args)
    finally:
        finish()
    report(outcomes, args)
    if sse_result is not None:
        sse_report(sse_result, redis, args)
    if sse_problem:
        print(f"! SSE reply latency skipped: {sse_problem}.")
    print(
        f"Load average at the end: {load_average()} (other work on this machine skews the figures)."
    )
    return 1 if sse_problem else 0
