"""The bench's database and the environment shared by this process and the server."""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path
from urllib.parse import urlsplit

import psycopg
from psycopg import sql

_CLOCK_TICKS = os.sysconf("SC_CLK_TCK")

# Its own variable, so a DATABASE_URL exported for development is never seeded by mistake.
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/bench"
# The SSE scenario's server publishes live events through Redis (BENCH_REDIS_URL).
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
# The embedded default's SQLite file (BENCH_SQLITE_PATH), seeded like the PostgreSQL database.
DEFAULT_SQLITE_PATH = str(Path(__file__).resolve().parents[2] / "var" / "bench.sqlite3")


def database_url() -> str:
    url = os.environ.get("BENCH_DATABASE_URL", DEFAULT_DATABASE_URL)
    if urlsplit(url).scheme not in ("postgres", "postgresql"):
        raise SystemExit(f"BENCH_DATABASE_URL must be a PostgreSQL URL, got {url!r}")
    return url


def database_ensure(url: str) -> None:
    """Create the database named in `url` if it does not exist yet (via the `postgres` db)."""
    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    if not name:
        raise SystemExit("BENCH_DATABASE_URL must name a database")
    admin_url = parts._replace(path="/postgres").geturl()
    try:
        with psycopg.connect(admin_url, autocommit=True, connect_timeout=5) as conn:
            exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
            if not exists:
                conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
                print(f"Created database {name!r}.")
    except psycopg.OperationalError as exc:
        raise SystemExit(
            f"Cannot reach PostgreSQL at {parts.hostname}:{parts.port}: {exc}"
        ) from exc


def server_environment(url: str) -> dict[str, str]:
    """The production profile (DEBUG off) on plain HTTP, without rate limits."""
    return {
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": url,
        "DEBUG": "false",
        "SECRET_KEY": os.environ.get("SECRET_KEY") or secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1",
        "RATE_LIMITS": "off",
        "SECURE_SSL_REDIRECT": "false",
        "LOG_LEVEL": "WARNING",
    }


def embedded_environment(env: dict[str, str], path: str) -> dict[str, str]:
    """The embedded default (`make run`): SQLite, one process, live events and the task queue
    in that process, no Redis; DEBUG off like the PostgreSQL layouts."""
    return {**env, "DATABASE_URL": f"sqlite:///{path}", "REDIS_URL": "", "TASKS_IN_PROCESS": "true"}


def redis_url() -> str:
    url = os.environ.get("BENCH_REDIS_URL", DEFAULT_REDIS_URL)
    if urlsplit(url).scheme not in ("redis", "rediss"):
        raise SystemExit(f"BENCH_REDIS_URL must be a Redis URL, got {url!r}")
    return url


def redis_problem(url: str) -> str | None:
    """Why Redis at `url` cannot be used, or None when it answers PING."""
    import redis

    try:
        with redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2) as client:
            client.ping()
    except redis.RedisError as exc:
        return f"no Redis at {url} ({exc})"
    return None


def production_environment(env: dict[str, str], redis: str) -> dict[str, str]:
    """The PostgreSQL layouts: live events between the processes through Redis pub/sub (as in
    production with several processes), and the task queue left to a worker that does not
    run, so the replies' notification emails are only queued (and deleted afterwards)."""
    return {**env, "REDIS_URL": redis, "TASKS_IN_PROCESS": "false"}


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
