"""Issue 24 reads that cannot be stale: a cached read is served only under the version the
database gives now (common.read_cache), and the cache's faults only cost database reads."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.test import override_settings

from concierge.common import read_cache
from concierge.common.models import ReadVersion
from concierge.common.read_versions import SHARED_OWNER

ENTRY = "rc:test-entry"


@pytest.fixture(autouse=True)
def _cached_reads(settings):
    """These tests are about the cached reads (CACHED_READS, off by default): turned on."""
    settings.CACHED_READS = True


def _loader(values: list[bytes]):
    def load() -> bytes:
        return values.pop(0)

    return load


def test_a_value_is_served_only_under_the_version_it_was_stored_under(db):
    """Issue 24: the same version answers from the cache; any other version loads again."""
    load = _loader([b"first", b"second"])
    assert read_cache.read_through(ENTRY, "v1", 60, load) == b"first"
    assert read_cache.read_through(ENTRY, "v1", 60, load) == b"first"
    assert read_cache.read_through(ENTRY, "v2", 60, load) == b"second"


def test_without_a_version_nothing_is_cached(db):
    """Issue 24: an owner with no version yet (or a shared version missing) reads the
    database every time."""
    load = _loader([b"one", b"two"])
    assert read_cache.read_through(ENTRY, None, 60, load) == b"one"
    assert read_cache.read_through(ENTRY, None, 60, load) == b"two"


UNREACHABLE_REDIS = {
    "default": {
        "BACKEND": "concierge.common.cache.RedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",
        "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
    }
}


def test_reads_go_to_the_database_when_the_cache_is_down(db, caplog):
    """Hardening: with Redis unreachable every read loads, and says so in the log."""
    from concierge.common.cache import breaker

    load = _loader([b"one", b"two"])
    try:
        with override_settings(CACHES=UNREACHABLE_REDIS):
            assert read_cache.read_through(ENTRY, "v1", 60, load) == b"one"
            assert read_cache.read_through(ENTRY, "v1", 60, load) == b"two"
    finally:
        breaker.reset()
    assert "Cache unavailable, cached read skipped" in caplog.text


def test_cached_reads_can_be_turned_off(db, settings):
    """Configuration: CACHED_READS=false reads the database every time and stores nothing."""
    settings.CACHED_READS = False
    load = _loader([b"one", b"two"])
    assert read_cache.read_through(ENTRY, "v1", 60, load) == b"one"
    assert read_cache.read_through(ENTRY, "v1", 60, load) == b"two"


def _owner_version(owner_id: int) -> str | None:
    return ReadVersion.objects.filter(owner_id=owner_id).values_list("version", flat=True).first()


def test_a_write_gives_a_new_version_in_its_own_transaction(user, make_request):
    """Issue 24: the trigger's new version is part of the write's transaction: a rolled-back
    write leaves the version as it was, a committed one changes it."""
    make_request(user)
    before = _owner_version(user.pk)
    assert before
    with pytest.raises(RuntimeError), transaction.atomic():
        make_request(user)
        assert _owner_version(user.pk) != before
        raise RuntimeError("roll back")
    assert _owner_version(user.pk) == before
    make_request(user)
    assert _owner_version(user.pk) not in (None, before)


def test_a_request_moved_to_another_employee_renews_both_and_an_edit_its_owner(
    user, bob, make_request
):
    """Issue 24 (issue 30's cheaper triggers): a write that moves a request to another
    employee gives both a new version, so neither keeps a cached read that showed it; one that
    keeps its owner gives that owner a new version and nobody else's."""
    request = make_request(user)
    before = {owner: _owner_version(owner) for owner in (user.pk, bob.pk)}
    type(request).objects.filter(pk=request.pk).update(name="Renamed")
    assert _owner_version(user.pk) != before[user.pk]
    assert _owner_version(bob.pk) == before[bob.pk]
    before = {owner: _owner_version(owner) for owner in (user.pk, bob.pk)}
    type(request).objects.filter(pk=request.pk).update(user=bob)
    assert _owner_version(user.pk) != before[user.pk]
    assert _owner_version(bob.pk) != before[bob.pk]


def test_the_session_query_reads_the_shared_and_own_versions(user):
    """Issue 24: the version read with the session names both the shared data's and the
    owner's; without the owner's there is no cached read."""
    ReadVersion.objects.update_or_create(owner_id=SHARED_OWNER, defaults={"version": "s"})
    ReadVersion.objects.update_or_create(owner_id=user.pk, defaults={"version": "u"})
    sql = read_cache.owner_versions_sql("%s").sql % user.pk
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {sql}")
        assert cursor.fetchone()[0] == "s:u"
        ReadVersion.objects.filter(owner_id=user.pk).delete()
        cursor.execute(f"SELECT {sql}")
        assert cursor.fetchone()[0] is None


def test_every_new_user_starts_with_a_version(user_factory):
    """Issue 24: an account has a read version from its creation, so its reads are cached."""
    assert _owner_version(user_factory().pk)
