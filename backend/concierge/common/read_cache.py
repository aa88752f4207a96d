"""Cached reads checked against the database: an employee's request lists and threads are
kept in the cache (Redis) under the versions they were read under, and served only while
those versions are still the database's (models.ReadVersion).

The versions come from the database, read with the session (one query the request makes
anyway) before the value is loaded, and database triggers set new ones in the same transaction
as any write to what the reads show (read_versions.py). So the cache can only make a read
faster: a lost or failed cache write, a Redis restart or an outage costs a database read,
never an old answer. A value loaded after the versions were read is at least as new as they
are; stored under them, it is never older than what they promise.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import models
from django.db.models.expressions import RawSQL

from concierge.common.cache import CACHE_ERRORS, cache_unavailable
from concierge.common.read_versions import SHARED_OWNER, VERSION_TABLE


def owner_versions_sql(owner_column: str) -> RawSQL:
    """SQL for a query's annotation: the version of the owner in `owner_column` (a column of
    the query's table) and the shared data's, as 'shared:own'; NULL (nothing cached) while the
    owner has none."""
    return RawSQL(  # noqa: S611 (table and column names of ours, no outside input)
        f"(SELECT COALESCE(s.version, '') || ':' || o.version FROM {VERSION_TABLE} o "  # noqa: S608
        f"LEFT JOIN {VERSION_TABLE} s ON s.owner_id = {SHARED_OWNER} "
        f"WHERE o.owner_id = {owner_column})",
        (),
        output_field=models.CharField(),
    )


def read_through(entry_key: str, version: str | None, ttl: int, load: Callable[[], Any]) -> Any:
    """The value cached under `version` (the database's, read before this call), else
    `load()`, stored under it for next time (None is never stored). Without a version, or
    with the cache unavailable, `load()` alone."""
    if version is None or not settings.CACHED_READS:
        return load()
    try:
        entry = cache.get(entry_key)
    except CACHE_ERRORS as exc:
        cache_unavailable("cached read", exc)
        return load()
    if isinstance(entry, tuple) and len(entry) == 2 and entry[0] == version:
        return entry[1]
    value = load()
    if value is not None:
        try:
            cache.set(entry_key, (version, value), ttl)
        except CACHE_ERRORS as exc:
            cache_unavailable("cached read store", exc)
    return value
