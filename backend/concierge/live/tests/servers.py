"""Real servers for the live stream's tests: an events process on the test database (the
production command, see bench.layouts), and a reader of its Server-Sent Events over httpx.

The servers read what the test has committed, so tests using them run with
`django_db(transaction=True)`.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import quote

import httpx
from django.db import connection

from bench.layouts import HOST, Layout, LayoutSpec

# One uvicorn process serving config.asgi: the stream, and the API through Django's WSGI
# handler (the embedded layout of `make run`, here on the test database).
ONE_PROCESS = LayoutSpec("events-test", "uvicorn, one process", "uvicorn", 1)


def server_database_url() -> str:
    """The test database (pytest-django's, created for this session) as a DATABASE_URL."""
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    user = quote(db["USER"] or "", safe="")
    password = f":{quote(db['PASSWORD'], safe='')}" if db["PASSWORD"] else ""
    return f"postgres://{user}{password}@{db['HOST'] or HOST}:{db['PORT'] or 5432}/{db['NAME']}"


def server_environment(**overrides: str) -> dict[str, str]:
    """A production-profile server on the test database, events in process, no cached reads
    (the test process writes to the same database)."""
    return {
        "DJANGO_SETTINGS_MODULE": "config.settings_test",
        "DATABASE_URL": server_database_url(),
        "REDIS_URL": "",
        "CACHED_READS": "false",
        "DEBUG": "false",
        "ALLOWED_HOSTS": HOST,
        "SECURE_SSL_REDIRECT": "false",
        "PUBLIC_URL": f"http://{HOST}",
        "TASKS_IN_PROCESS": "false",
        "LOG_LEVEL": "WARNING",
        **overrides,
    }


@contextmanager
def events_server(spec: LayoutSpec = ONE_PROCESS, **env: str) -> Iterator[Layout]:
    with Layout(spec, server_environment(**env)) as layout:
        yield layout


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class EventStream:
    """One open stream, read line by line."""

    def __init__(self, response: httpx.Response) -> None:
        self.response = response
        self.lines = response.aiter_lines()
        self.seen: list[str] = []

    @classmethod
    async def open(cls, client: httpx.AsyncClient, url: str) -> EventStream:
        """Opens `url` and reads up to `: connected` (from then on, events are delivered)."""
        response = await client.send(client.build_request("GET", url), stream=True)
        if response.status_code != 200:
            await response.aread()
            raise AssertionError(f"stream open: {response.status_code} {response.text}")
        stream = cls(response)
        await stream.line_where(lambda line: line == ": connected")
        return stream

    async def line_where(self, wanted, timeout: float = 10) -> str:  # noqa: ANN001 (predicate)
        async def read() -> str:
            async for line in self.lines:
                self.seen.append(line)
                if wanted(line):
                    return line
            raise AssertionError(f"the stream ended first: {self.seen}")

        return await asyncio.wait_for(read(), timeout)

    async def event_where(self, **fields: object) -> dict:
        """The next data event that has these fields."""
        while True:
            line = await self.line_where(lambda line: line.startswith("data: "))
            data = json.loads(line.removeprefix("data: "))
            if all(data.get(key) == value for key, value in fields.items()):
                return data

    async def rest(self, timeout: float = 10) -> list[str]:
        """Every line up to the end of the stream; raises if the server cut it off."""

        async def read() -> list[str]:
            rest = [line async for line in self.lines]
            self.seen.extend(rest)
            return rest

        return await asyncio.wait_for(read(), timeout)

    async def close(self) -> None:
        await self.response.aclose()
