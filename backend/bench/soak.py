"""The soak: the production layout under a mixed fixed rate for minutes (reads, messages by the
employee and concierge replies, sign-ins), with a task worker running the reply emails they
queue. It watches for server errors and for memory that keeps growing: the resident memory
(VmRSS) of every process of the layout is sampled every 10 s once the warm-up is over, and each
process's growth runs from the end of the warm-up to the end of the run.
"""

from __future__ import annotations

import json
import random
import secrets
import sys
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from bench.layouts import Layout
from bench.load import Result, Run, Stream, http_request, open_loop

SOAK_KEY_PREFIX = "bench-soak-"  # the Idempotency-Key of the soak's messages (bench.seed)
SAMPLE_SECONDS = 10
MAX_RSS_GROWTH = 0.10
# Per second: the list and a thread, the employee's messages, concierge replies, sign-ins.
RATES = {"list": 20.0, "thread": 20.0, "message": 2.0, "reply": 2.0, "signin": 1.0}


@dataclass
class RssSampler:
    """Samples every process's RSS every SAMPLE_SECONDS in a thread, from `warmup` seconds on."""

    layout: Layout
    warmup: float
    samples: list[dict[str, int]] = field(default_factory=list)
    stopped: threading.Event = field(default_factory=threading.Event)

    def __post_init__(self) -> None:
        self.thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        wait = self.warmup
        while not self.stopped.wait(wait):
            self.samples.append(self.layout.rss_kib())
            wait = SAMPLE_SECONDS


@dataclass
class SoakFigures:
    run: Run
    rss: dict[str, tuple[int, int, int]]  # process → (KiB at the warm-up's end, peak, at the end)
    trend: dict[str, list[int]]  # process → KiB every minute from the warm-up's end
    load: tuple[str, str]  # load average at the start and at the end
    tasks: dict[str, int]  # background tasks queued during the soak, by status
    problems: list[str]


def streams(
    host: str,
    auth: dict[str, str],
    concierge_auth: dict[str, str],
    targets: dict,
    list_path: str,
    sign_in_path: str,
) -> list[Stream]:
    """The employee reads every thread but those the concierge replies to, so each reply's
    email task runs in full when it falls due (and sends unless a later reply followed: one
    email per burst of replies)."""
    rng = random.Random(7)  # noqa: S311 (the same choices every run)
    run_id = secrets.token_hex(4)
    counter = iter(range(1, 10**9))
    text = "The plumber can come on Thursday, 9-11 am; shall I book it?"
    json_type = {"Content-Type": "application/json"}
    replied = set(targets["reply_request_ids"])
    threads = [f"/api/v1/requests/{i}" for i in targets["request_ids"] if i not in replied]

    def get(paths: list[str]) -> Callable[[], bytes]:
        payloads = [http_request("GET", p, host, auth) for p in paths]
        return lambda: payloads[rng.randrange(len(payloads))]

    def post(path_template: str, ids: list[int], headers: dict[str, str]) -> Callable[[], bytes]:
        def payload() -> bytes:
            n = next(counter)
            body = json.dumps({"message": {"body": f"Soak message {n}. {text}"}}).encode()
            key = {"Idempotency-Key": f"{SOAK_KEY_PREFIX}{run_id}-{n}"}
            path = path_template.format(ids[n % len(ids)])
            return http_request("POST", path, host, {**headers, **json_type, **key}, body)

        return payload

    sign_in = json.dumps(
        {"user": {"email": targets["email"], "password": targets["password"]}}
    ).encode()
    sign_in_payload = http_request("POST", sign_in_path, host, json_type, sign_in)
    return [
        Stream("list", RATES["list"], get([list_path])),
        Stream("thread", RATES["thread"], get(threads)),
        Stream(
            "message",
            RATES["message"],
            post("/api/v1/requests/{}/messages", targets["message_request_ids"], auth),
            expect=201,
        ),
        Stream(
            "reply",
            RATES["reply"],
            post(
                "/api/v1/concierge/requests/{}/messages",
                targets["reply_request_ids"],
                concierge_auth,
            ),
            expect=201,
        ),
        Stream("signin", RATES["signin"], lambda: sign_in_payload),
    ]


def soak(
    layout: Layout,
    stream_list: list[Stream],
    *,
    seconds: float,
    warmup: float,
    timeout: float,
    max_in_flight: int,
    load_average: Callable[[], str],
) -> SoakFigures:
    """Runs the mixed rate for `seconds` (the first `warmup` of them unmeasured for memory)
    with a task worker beside the servers; it stays running until the layout stops."""
    with tempfile.TemporaryDirectory(prefix="bench-outbox-") as outbox:
        if "tasks" not in layout.names.values():
            command = [sys.executable, "manage.py", "task_worker"]
            layout.start("tasks", command, OUTBOX_DIR=outbox)
        sampler = RssSampler(layout, warmup)
        started_at = datetime.now(UTC)
        load_start = load_average()
        sampler.thread.start()
        try:
            run = open_loop(
                layout.api_url,
                stream_list,
                seconds=seconds,
                timeout=timeout,
                max_in_flight=max_in_flight,
            )
        finally:
            sampler.stopped.set()
            sampler.thread.join()
        end = layout.rss_kib()
        load_end = load_average()
        emails = sum(1 for path in Path(outbox).rglob("*") if path.is_file())
    tasks = _tasks(layout.env["DATABASE_URL"], started_at)
    figures = SoakFigures(
        run, {}, {}, (load_start, load_end), {**tasks, "outbox files": emails}, []
    )
    _memory(figures, sampler.samples, end)
    _errors(figures, run.results)
    if tasks.get("FAILED"):
        figures.problems.append(f"{tasks['FAILED']} background tasks failed")
    return figures


def _tasks(database_url: str, since: datetime) -> dict[str, int]:
    """The background tasks queued since `since`, by status (READY, SUCCESSFUL, FAILED, ...).
    A reply's email falls due REPLY_NOTIFICATION_DELAY_SECONDS (300) after it."""
    import psycopg

    with psycopg.connect(database_url) as conn:
        rows = conn.execute(
            "SELECT status, count(*) FROM django_tasks_database_dbtaskresult"
            " WHERE enqueued_at >= %s GROUP BY status ORDER BY status",
            [since],
        ).fetchall()
    return {str(status): int(count) for status, count in rows}


def _memory(figures: SoakFigures, samples: list[dict[str, int]], end: dict[str, int]) -> None:
    if not samples:
        figures.problems.append("no RSS sample after the warm-up (a longer --soak-seconds?)")
        return
    first = samples[0]
    for name in sorted(first.keys() | end.keys()):
        if name not in end:
            figures.problems.append(f"{name}: exited during the soak")
        elif name not in first:
            figures.problems.append(f"{name}: started after the warm-up (a worker restarted?)")
        else:
            peak = max(s.get(name, 0) for s in [*samples, end])
            figures.rss[name] = (first[name], peak, end[name])
            figures.trend[name] = [s.get(name, 0) for s in samples[:: 60 // SAMPLE_SECONDS]]
            if end[name] >= first[name] * (1 + MAX_RSS_GROWTH):
                growth = 100 * (end[name] / first[name] - 1)
                figures.problems.append(f"{name}: RSS grew {growth:.1f} % (limit 10 %)")


def _errors(figures: SoakFigures, results: dict[str, Result]) -> None:
    for name, result in results.items():
        server = {k: n for k, n in result.errors.items() if k.startswith("HTTP 5")}
        others = {k: n for k, n in result.errors.items() if k not in server and k != "timeout"}
        if server:
            figures.problems.append(f"{name}: server errors {server}")
        if others:
            figures.problems.append(f"{name}: other errors {others}")


def report(figures: SoakFigures, seconds: float, warmup: float) -> None:
    print(
        f"\n== soak: {seconds:g} s at {sum(RATES.values()):g} req/s "
        f"({', '.join(f'{k} {v:g}' for k, v in RATES.items())}); load average "
        f"{figures.load[0]} at the start, {figures.load[1]} at the end"
    )
    header = (
        f"{'stream':<8} {'sent':>6} {'ok':>6} {'5xx':>5} {'timeouts':>8} {'other':>5} {'p99 ms':>7}"
    )
    print(header)
    print("-" * len(header))
    for name, r in figures.run.results.items():
        server = sum(n for k, n in r.errors.items() if k.startswith("HTTP 5"))
        timeouts = r.errors.get("timeout", 0)
        other = r.error_count - server - timeouts
        print(
            f"{name:<8} {r.sent:>6} {r.ok:>6} {server:>5} {timeouts:>8} {other:>5} "
            f"{r.percentile_ms(99):>7.0f}"
        )
    header = (
        f"{'process (RSS in MiB)':<30} {f'at {warmup:g} s':>9} {'peak':>7} {'end':>7} {'growth':>7}"
    )
    print(f"\n{header}")
    print("-" * len(header))
    for name, (first, peak, end) in figures.rss.items():
        print(
            f"{name:<30} {first / 1024:>9.1f} {peak / 1024:>7.1f} {end / 1024:>7.1f} "
            f"{100 * (end / first - 1):>6.1f}%"
        )
    print("\nRSS every minute from the warm-up's end (MiB):")
    for name, sizes in figures.trend.items():
        print(f"{name:<30} " + " ".join(f"{kib / 1024:.0f}" for kib in sizes))
    print("\nbackground tasks queued: " + ", ".join(f"{k} {v}" for k, v in figures.tasks.items()))
    for problem in figures.problems:
        print(f"! {problem}")
    print(
        "Soak: "
        + ("FAILED" if figures.problems else "passed")
        + " (goal: 0 server errors, RSS growth under 10 % for each process)."
    )
