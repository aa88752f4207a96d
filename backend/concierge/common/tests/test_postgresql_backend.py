"""Issue 30 (fast for a real day): the PostgreSQL backend reads timestamps with psycopg's C
loader, and they come back as Django's own loader gave them."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from psycopg.pq import Format

from concierge.common.postgresql.base import UtcTimestamptzLoader

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's loader"),
]

UTC = datetime.UTC


def test_issue_30_timestamps_come_back_as_the_same_utc_datetimes_through_the_c_loader():
    written = [
        datetime.datetime(2026, 11, 28, 9, 17, 39, 235253, tzinfo=UTC),
        datetime.datetime(1999, 12, 31, 23, 59, 59, tzinfo=UTC),
        datetime.datetime(2026, 6, 1, 10, 0, tzinfo=datetime.timezone(datetime.timedelta(hours=2))),
        datetime.datetime(1, 1, 1, tzinfo=UTC),
    ]
    with connection.cursor() as cursor:
        loader = cursor.cursor.adapters.get_loader(
            cursor.cursor.adapters.types["timestamptz"].oid, Format.TEXT
        )
        cursor.execute(
            "SELECT %s::timestamptz, %s::timestamptz, %s::timestamptz, %s::timestamptz, "
            "NULL::timestamptz",
            written,
        )
        row = cursor.fetchone()
    assert loader is UtcTimestamptzLoader
    assert list(row[:4]) == written
    assert all(value.tzinfo is UTC for value in row[:4])
    assert row[2] == datetime.datetime(2026, 6, 1, 8, 0, tzinfo=UTC)
    assert row[4] is None


def test_issue_30_a_model_read_back_keeps_its_timestamps():
    from concierge.accounts.models import User

    joined = datetime.datetime(2024, 2, 29, 12, 30, 45, 123456, tzinfo=UTC)
    user = User.objects.create_user(email="times@example.com", password="secret123")
    User.objects.filter(pk=user.pk).update(date_joined=joined)
    assert User.objects.get(pk=user.pk).date_joined == joined
    assert User.objects.get(pk=user.pk).date_joined.tzinfo is UTC
