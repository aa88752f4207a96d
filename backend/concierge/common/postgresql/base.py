"""Django's PostgreSQL backend, with one change: `timestamptz` values are parsed by psycopg's
C loader instead of Django's, which parses them in Python (about seven times slower, and
every session row, request and message carries several).

Django's loader parses in the connection's time zone and then names it UTC. Django sets the
connection's time zone to its own, so while that is UTC (USE_TZ with the database's TIME_ZONE
unset, as here) the C loader, which returns values in the connection's time zone, gives the
same datetimes with the same `datetime.timezone.utc`.
"""

from __future__ import annotations

import datetime
from typing import Any, cast

from django.db.backends.postgresql import base
from psycopg import adapters
from psycopg.adapt import Loader
from psycopg.pq import Format

# psycopg's default text loader: its C one when psycopg's binary package is installed.
_C_TIMESTAMPTZ_LOADER = cast(
    "type[Loader]", adapters.get_loader(adapters.types["timestamptz"].oid, Format.TEXT)
)


class UtcTimestamptzLoader(Loader):
    """psycopg's own text loader behind the `timezone` attribute Django's cursors check
    (`create_cursor` registers its loader again when it differs). psycopg's C loader classes
    cannot be subclassed, so this one hands each value to one."""

    timezone = datetime.UTC

    def __init__(self, oid: int, context: Any = None) -> None:
        super().__init__(oid, context)
        self._loader = _C_TIMESTAMPTZ_LOADER(oid, context)

    def load(self, data: Any) -> datetime.datetime:
        return self._loader.load(data)  # type: ignore[no-any-return]


class DatabaseWrapper(base.DatabaseWrapper):
    def get_connection_params(self) -> dict[str, Any]:
        params: dict[str, Any] = super().get_connection_params()
        if self.timezone is datetime.UTC and "context" in params:
            params["context"].register_loader("timestamptz", UtcTimestamptzLoader)
        return params
