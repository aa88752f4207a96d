"""Cached reads that a write makes stale at once (the hottest reads: a session by its token,
an employee's request lists and threads).

A cached value is stored with the versions of the scopes it was read under (say "this user's
requests"), and served only while every one of them is still current. A write bumps its
scopes' versions twice: at once, so this process never serves what it just changed, and again
when its transaction commits, so a read that another process made from the rows before the
commit is never served either. Entries also expire (`ttl`), which bounds what a missed bump
(the cache down during a write) can cost.

Reads and bumps are one round trip each (MGET / a pipelined SET); when the cache is down,
reads go to the database and nothing is stored (common.cache).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction

from concierge.common.cache import CACHE_ERRORS, cache_unavailable

VERSION_TTL_SECONDS = 24 * 3600  # longer than any entry's ttl
# The scope of data many cached reads show (a category's name): `bump_shared` resets it.
SHARED = "rc:v:shared"


@dataclass(frozen=True)
class Lookup:
    """A cached read: `value` when current (else None), and the versions a value read now
    from the database is to be stored under (None when the cache is unavailable)."""

    value: Any
    versions: tuple[str, ...] | None


def _new_version() -> str:
    return secrets.token_hex(6)


def read(entry_key: str, scopes: Iterable[str]) -> Lookup:
    """The entry, if it was stored under the scopes' current versions (one round trip)."""
    if not settings.CACHED_READS:
        return Lookup(None, None)
    version_keys = list(scopes)
    try:
        found = cache.get_many([entry_key, *version_keys])
    except CACHE_ERRORS as exc:
        cache_unavailable("cached read", exc)
        return Lookup(None, None)
    versions = tuple(found.get(key) or _versions_start(key) for key in version_keys)
    entry = found.get(entry_key)
    if isinstance(entry, tuple) and len(entry) == 2 and entry[0] == versions:
        return Lookup(entry[1], versions)
    return Lookup(None, versions)


def _versions_start(key: str) -> str:
    """A version for a scope that has none yet (or whose version expired). If another process
    starts it first, ours never matches and the value is read again next time."""
    version = _new_version()
    cache.add(key, version, VERSION_TTL_SECONDS)
    return version


def store(entry_key: str, lookup: Lookup, value: Any, ttl: int) -> None:
    if lookup.versions is None:
        return
    try:
        cache.set(entry_key, (lookup.versions, value), ttl)
    except CACHE_ERRORS as exc:
        cache_unavailable("cached read store", exc)


def read_through(entry_key: str, scopes: Iterable[str], ttl: int, load: Callable[[], Any]) -> Any:
    """The cached value, else `load()` stored for next time (None is never stored)."""
    lookup = read(entry_key, scopes)
    if lookup.value is not None:
        return lookup.value
    value = load()
    if value is not None:
        store(entry_key, lookup, value, ttl)
    return value


def bump(scopes: Iterable[str]) -> None:
    """Makes every cached read of these scopes stale: now, and again once the current
    transaction commits (see the module's docstring)."""
    keys = list(scopes)
    if not keys or not settings.CACHED_READS:
        return
    _bump_now(keys)
    transaction.on_commit(lambda: _bump_now(keys))


def _bump_now(keys: list[str]) -> None:
    try:
        cache.set_many({key: _new_version() for key in keys}, VERSION_TTL_SECONDS)
    except CACHE_ERRORS as exc:
        cache_unavailable("cached read invalidation", exc)


def bump_shared() -> None:
    bump([SHARED])
