"""Samples how many connections the server holds open to its database during a scenario."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import psycopg

COUNT_CONNECTIONS = (
    "SELECT count(*) FROM pg_stat_activity "
    "WHERE datname = current_database() AND pid <> pg_backend_pid()"
)


class ConnectionPeak:
    def __init__(self) -> None:
        self.peak = 0


@contextlib.asynccontextmanager
async def database_connections(url: str, interval: float = 0.25) -> AsyncIterator[ConnectionPeak]:
    """`async with database_connections(url) as sample:` then `sample.peak` after the block."""
    sample = ConnectionPeak()
    conn = await psycopg.AsyncConnection.connect(url, autocommit=True)

    async def poll() -> None:
        while True:
            row = await (await conn.execute(COUNT_CONNECTIONS)).fetchone()
            sample.peak = max(sample.peak, int(row[0]) if row else 0)
            await asyncio.sleep(interval)

    task = asyncio.create_task(poll())
    try:
        yield sample
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await conn.close()
