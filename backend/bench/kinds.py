"""`python -m bench.kinds`: the server's CPU for each kind of the mixed scenario's requests, in
this process, as a multiple of the floor's request.

The requests go through the whole Django stack (middlewares, routing, authentication, the view)
as a server calls it, one kind after the other in turn, so that a machine whose speed drifts
(a shared 2-core VM moves by 20 % within minutes) slows every kind alike: the multiples stay
comparable between runs and between versions of the code where `make bench`'s capacities do
not. Also prints the CPU of the PostgreSQL backend serving them (one pooled connection, read
from /proc: the database must run on this machine) and counts each kind's SQL statements. Run it after `make bench` has seeded the
bench database (BENCH_DATABASE_URL); it signs its own sessions in, and out again, and removes
the messages it wrote, as the bench's cleanup does.

    python -m bench.kinds [--requests 400] [--kinds health,list,thread,message,reply]
                          [--statements]

`--statements` also times each statement on its own (its Python and its PostgreSQL backend's
CPU, the statements named by their first words): where a kind's cost goes. Reading the clocks
around every statement costs CPU of its own, so the kinds' figures of such a run are a little
higher than without it.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import re
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field

from bench.environment import database_url, redis_url, server_environment

KINDS = ("health", "list", "thread", "message", "reply")
WARM_UP = 10


@dataclass
class Tally:
    cpu: float = 0.0
    database_cpu: float = 0.0
    statements: int = 0
    statuses: set[str] = field(default_factory=set)


@dataclass
class StatementTally:
    """One statement of a kind: how often it ran, its Python's CPU and its backend's CPU."""

    count: int = 0
    cpu: float = 0.0
    database_cpu: float = 0.0


# Savepoints are named per use: one line for all of them.
_SAVEPOINT_NAME = re.compile(r'"s\d+_x\d+"')


def statement_name(sql: str, width: int = 70) -> str:
    """A statement named by its first words, whitespace collapsed."""
    return _SAVEPOINT_NAME.sub('"s…"', " ".join(sql.split()))[:width]


class Caller:
    """Calls the WSGI application as a server would, with a bearer token and a JSON body."""

    def __init__(self) -> None:
        from django.core.handlers.wsgi import WSGIHandler

        self.handler = WSGIHandler()

    def __call__(self, method: str, path: str, token: str, body: object = None) -> str:
        data = json.dumps(body).encode() if body is not None else b""
        environ = {
            "REQUEST_METHOD": method,
            "PATH_INFO": path,
            "QUERY_STRING": "",
            "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": "80",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "HTTP_HOST": "127.0.0.1",
            "HTTP_AUTHORIZATION": f"Bearer {token}",
            "CONTENT_TYPE": "application/json",
            "CONTENT_LENGTH": str(len(data)),
            "REMOTE_ADDR": "127.0.0.1",
            "wsgi.input": io.BytesIO(data),
            "wsgi.errors": sys.stderr,
            "wsgi.url_scheme": "http",
        }
        statuses: list[str] = []

        def start_response(status: str, headers: object, *_: object) -> Callable[[bytes], None]:
            statuses.append(status)
            return lambda _data: None

        response = self.handler(environ, start_response)  # type: ignore[arg-type]
        b"".join(response)
        response.close()  # type: ignore[attr-defined]
        return statuses[0]


def draws(seed: int) -> dict[str, Callable[[], tuple[str, str, str, object]]]:
    """Each kind's next request (method, path, token, body), drawn as the mixed scenario draws."""
    from bench.mixed import BUCKETS, MIXED_MESSAGE, RECENT_COMPLETED, REPLY
    from bench.seed import BENCH_PASSWORD, CONCIERGE_EMAIL, employee_sessions
    from concierge.accounts.services.identity import user_sign_in

    rng = random.Random(seed)  # noqa: S311 (the same draws every run)
    sessions = employee_sessions()
    concierge = user_sign_in(email=CONCIERGE_EMAIL, password=BENCH_PASSWORD).token

    def session() -> tuple[str, dict[str, list[int]]]:
        chosen = rng.choice(sessions)
        return str(chosen["token"]), chosen["requests"]  # type: ignore[return-value]

    def health() -> tuple[str, str, str, object]:
        return "GET", "/api/v1/health", session()[0], None

    def list_read() -> tuple[str, str, str, object]:
        bucket = rng.choices(list(BUCKETS), weights=list(BUCKETS.values()))[0]
        return "GET", f"/api/v1/requests/{bucket}", session()[0], None

    def thread() -> tuple[str, str, str, object]:
        token, ids = session()
        threads = ids["open"] + ids["in_progress"] + ids["closed"][:RECENT_COMPLETED]
        return "GET", f"/api/v1/requests/{rng.choice(threads)}", token, None

    def message() -> tuple[str, str, str, object]:
        token, ids = session()
        body = {"message": {"body": MIXED_MESSAGE}}
        return "POST", f"/api/v1/requests/{rng.choice(ids['open'])}/messages", token, body

    def reply() -> tuple[str, str, str, object]:
        ids = session()[1]
        path = f"/api/v1/concierge/requests/{rng.choice(ids['in_progress'])}/messages"
        return "POST", path, concierge, {"message": {"body": REPLY}}

    return {
        "health": health,
        "list": list_read,
        "thread": thread,
        "message": message,
        "reply": reply,
    }


class BackendClock:
    """The CPU time of this process's PostgreSQL backend (same machine), in nanoseconds, from
    /proc's scheduler statistics: fine-grained enough to time one request's statements."""

    def __init__(self) -> None:
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            self.path = f"/proc/{cursor.fetchone()[0]}/schedstat"

    def seconds(self) -> float:
        with open(self.path) as stat:
            return int(stat.read().split()[0]) / 1e9


def measure(
    kinds: list[str], requests: int, statements: dict[str, dict[str, StatementTally]] | None = None
) -> dict[str, Tally]:
    """Each kind's tally; with `statements`, each of its statements' too (kind -> name)."""
    from django.db import connection

    call, draw = Caller(), draws(seed=1)
    for kind in kinds:
        for _ in range(WARM_UP):
            call(*draw[kind]())
    backend = BackendClock()
    tallies = {kind: Tally() for kind in kinds}
    counted: list[str] = []
    current = [kinds[0]]

    def count(execute, sql, params, many, context):  # type: ignore[no-untyped-def]
        counted.append(sql)
        if statements is None:
            return execute(sql, params, many, context)
        started, database_started = time.process_time(), backend.seconds()
        try:
            return execute(sql, params, many, context)
        finally:
            tally = statements[current[0]][statement_name(sql)]
            tally.count += 1
            tally.cpu += time.process_time() - started
            tally.database_cpu += backend.seconds() - database_started

    with connection.execute_wrapper(count):
        for _ in range(requests):
            for kind in kinds:
                request = draw[kind]()
                counted.clear()
                current[0] = kind
                started, database_started = time.process_time(), backend.seconds()
                status = call(*request)
                tally = tallies[kind]
                tally.cpu += time.process_time() - started
                tally.database_cpu += backend.seconds() - database_started
                tally.statements += len(counted)
                tally.statuses.add(status.split()[0])
    return tallies


def print_statements(statements: dict[str, dict[str, StatementTally]], requests: int) -> None:
    """Per kind, its statements in the order of their cost, per request of the kind."""
    print(f"\n{'kind':<8} {'runs':>5} {'Python us':>9} {'DB us':>7}  statement")
    for kind, named in statements.items():
        ranked = sorted(named.items(), key=lambda item: -(item[1].cpu + item[1].database_cpu))
        for name, tally in ranked:
            print(
                f"{kind:<8} {tally.count / requests:5.2f} {1e6 * tally.cpu / requests:9.0f} "
                f"{1e6 * tally.database_cpu / requests:7.0f}  {name}"
            )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=400, help="of each kind (400)")
    parser.add_argument("--kinds", default=",".join(KINDS), help="comma-separated, in turn")
    parser.add_argument(
        "--statements", action="store_true", help="also time each statement of each kind"
    )
    args = parser.parse_args()
    kinds = [kind for kind in args.kinds.split(",") if kind]
    unknown = set(kinds) - set(KINDS)
    if unknown:
        raise SystemExit(f"Unknown kinds: {', '.join(sorted(unknown))} (known: {KINDS})")
    os.environ.update(server_environment(database_url()))
    # One pooled connection, so that one PostgreSQL backend serves every request (BackendClock).
    os.environ.update({"REDIS_URL": redis_url(), "TASKS_IN_PROCESS": "false", "DB_POOL_MAX": "1"})
    import django

    django.setup()
    from bench.prepare import cleanup

    statements: dict[str, dict[str, StatementTally]] | None = (
        {kind: defaultdict(StatementTally) for kind in kinds} if args.statements else None
    )
    try:
        tallies = measure(kinds, args.requests, statements)
    finally:
        cleanup()
    floor = tallies["health"].cpu if "health" in tallies else 0.0
    print(f"{'kind':<8} {'CPU ms':>7} {'x floor':>7} {'DB ms':>7} {'statements':>10}  answers")
    for kind, tally in tallies.items():
        multiple = f"{tally.cpu / floor:7.2f}" if floor else f"{'-':>7}"
        print(
            f"{kind:<8} {1000 * tally.cpu / args.requests:7.2f} {multiple} "
            f"{1000 * tally.database_cpu / args.requests:7.2f} "
            f"{tally.statements / args.requests:10.2f}  {', '.join(sorted(tally.statuses))}"
        )
    if statements is not None:
        print_statements(statements, args.requests)
    print(f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
