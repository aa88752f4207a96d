"""Full-text search over requests (name and the survey's answers summary), messages and
internal notes, kept up to date by the database on every write.

PostgreSQL: GIN indexes on the same `to_tsvector('english', ...)` expressions the search uses.
SQLite: one FTS5 table filled by triggers on the three tables (and from the rows already there).
"""

from django.db import migrations

from concierge.concierge_desk.search_index import (
    PG_INDEXES,
    SQLITE_SOURCES,
    SQLITE_TABLE,
    sqlite_backfill,
    sqlite_triggers,
)


def forwards(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        for name, table, expression in PG_INDEXES:
            schema_editor.execute(
                f"CREATE INDEX IF NOT EXISTS {name} ON {table} USING gin ({expression})"
            )
    elif vendor == "sqlite":
        for statement in (SQLITE_TABLE, *sqlite_triggers(), *sqlite_backfill()):
            schema_editor.execute(statement)


def backwards(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        for name, _table, _expression in PG_INDEXES:
            schema_editor.execute(f"DROP INDEX IF EXISTS {name}")
    elif vendor == "sqlite":
        for _table, kind, *_ in SQLITE_SOURCES:
            for suffix in ("ai", "ad", "au"):
                schema_editor.execute(f"DROP TRIGGER IF EXISTS desk_search_{kind}_{suffix}")
        schema_editor.execute("DROP TABLE IF EXISTS desk_search")


class Migration(migrations.Migration):
    dependencies = [
        ("concierge_desk", "0001_initial"),
        ("servicerequests", "0003_seen_and_notified"),
    ]

    operations = [migrations.RunPython(forwards, backwards, elidable=False)]
