"""API speed: cached reads are never served once a write has made them stale (common.read_cache)."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.test import override_settings

from concierge.common import read_cache

SCOPE = "rc:v:test-scope"
ENTRY = "rc:test-entry"


def test_a_value_is_served_until_its_scope_is_bumped(db):
    """API speed: a stored read is served while its scope's version holds, and not after."""
    lookup = read_cache.read(ENTRY, [SCOPE])
    assert lookup.value is None
    read_cache.store(ENTRY, lookup, b"first", ttl=60)
    assert read_cache.read(ENTRY, [SCOPE]).value == b"first"

    read_cache.bump([SCOPE])
    assert read_cache.read(ENTRY, [SCOPE]).value is None


def test_a_read_made_before_a_write_is_never_served_after_it(db):
    """API speed: a value read from the rows before a write, stored after it, is stale."""
    before_the_write = read_cache.read(ENTRY, [SCOPE])
    read_cache.bump([SCOPE])
    read_cache.store(ENTRY, before_the_write, b"stale", ttl=60)
    assert read_cache.read(ENTRY, [SCOPE]).value is None


@pytest.mark.django_db(transaction=True)
def test_the_commit_bumps_again_for_reads_of_the_uncommitted_rows():
    """API speed: another process reading between the write and its commit sees the old rows;
    what it stores then is stale once the write commits."""
    with transaction.atomic():
        read_cache.bump([SCOPE])
        during_the_transaction = read_cache.read(ENTRY, [SCOPE])
        read_cache.store(ENTRY, during_the_transaction, b"old rows", ttl=60)
        assert read_cache.read(ENTRY, [SCOPE]).value == b"old rows"
    assert read_cache.read(ENTRY, [SCOPE]).value is None


def test_reads_of_shared_data_are_stale_after_a_shared_change(db):
    """API speed: bump_shared makes every read that shows shared data stale (a category
    renamed), and no other."""
    shared = [read_cache.SHARED, SCOPE]
    read_cache.store(ENTRY, read_cache.read(ENTRY, shared), b"value", ttl=60)
    read_cache.store("rc:own", read_cache.read("rc:own", [SCOPE]), b"own", ttl=60)
    read_cache.bump_shared()
    assert read_cache.read(ENTRY, shared).value is None
    assert read_cache.read("rc:own", [SCOPE]).value == b"own"


UNREACHABLE_REDIS = {
    "default": {
        "BACKEND": "concierge.common.cache.RedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",
        "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
    }
}


def test_reads_go_to_the_database_when_the_cache_is_down(db, caplog):
    """API speed / hardening: with Redis unreachable every read loads, and a write's bump
    logs instead of failing the write."""
    loads: list[int] = []

    def load() -> bytes:
        loads.append(1)
        return b"fresh"

    with override_settings(CACHES=UNREACHABLE_REDIS):
        assert read_cache.read_through(ENTRY, [SCOPE], 60, load) == b"fresh"
        assert read_cache.read_through(ENTRY, [SCOPE], 60, load) == b"fresh"
        read_cache.bump([SCOPE])
    assert loads == [1, 1]
    assert "Cache unavailable, cached read invalidation skipped" in caplog.text


def test_cached_reads_can_be_turned_off(db, settings):
    """Configuration: CACHED_READS=false reads the database every time and stores nothing."""
    settings.CACHED_READS = False
    loads: list[int] = []

    def load() -> bytes:
        loads.append(1)
        return b"fresh"

    read_cache.read_through(ENTRY, [SCOPE], 60, load)
    read_cache.read_through(ENTRY, [SCOPE], 60, load)
    assert loads == [1, 1]
