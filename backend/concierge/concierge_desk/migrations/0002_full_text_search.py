"""Full-text search over requests (name and the survey's answers summary), messages and
internal notes, kept up to date by the database on every write.

PostgreSQL: GIN indexes on the same `to_tsvector('english', ...)` expressions the search uses.
SQLite: one FTS5 table filled by triggers on the three tables (and from the rows already there).
"""

from django.db import migrations

PG_INDEXES = [
    (
        "desk_fts_request",
        "servicerequests_servicerequest",
        "(setweight(to_tsvector('english'::regconfig, name), 'A') || "
        "setweight(to_tsvector('english'::regconfig, details), 'B'))",
    ),
    ("desk_fts_message", "servicerequests_message", "(to_tsvector('english'::regconfig, body_html))"),
    ("desk_fts_note", "concierge_desk_internalnote", "(to_tsvector('english'::regconfig, body))"),
]

SQLITE_TABLE = (
    "CREATE VIRTUAL TABLE IF NOT EXISTS desk_search USING fts5("
    "kind UNINDEXED, source_id UNINDEXED, request_id UNINDEXED, title, body, "
    "tokenize = 'porter unicode61 remove_diacritics 2')"
)
# (source table, kind, request id column, title expression, body expression)
SQLITE_SOURCES = [
    ("servicerequests_servicerequest", "request", "id", "{row}.name", "{row}.details"),
    ("servicerequests_message", "message", "request_id", "''", "{row}.body_html"),
    ("concierge_desk_internalnote", "note", "request_id", "''", "{row}.body"),
]


def _sqlite_statements():
    yield SQLITE_TABLE
    for table, kind, request_col, title, body in SQLITE_SOURCES:
        insert = (
            "INSERT INTO desk_search (kind, source_id, request_id, title, body) "
            f"VALUES ('{kind}', NEW.id, NEW.{request_col}, {title.format(row='NEW')}, "
            f"{body.format(row='NEW')});"
        )
        delete = f"DELETE FROM desk_search WHERE kind = '{kind}' AND source_id = OLD.id;"
        yield f"CREATE TRIGGER desk_search_{kind}_ai AFTER INSERT ON {table} BEGIN {insert} END"
        yield f"CREATE TRIGGER desk_search_{kind}_ad AFTER DELETE ON {table} BEGIN {delete} END"
        yield (
            f"CREATE TRIGGER desk_search_{kind}_au AFTER UPDATE ON {table} "
            f"BEGIN {delete} {insert} END"
        )
        yield (
            "INSERT INTO desk_search (kind, source_id, request_id, title, body) "
            f"SELECT '{kind}', id, {request_col}, {title.format(row=table)}, "
            f"{body.format(row=table)} FROM {table}"
        )


def forwards(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        for name, table, expression in PG_INDEXES:
            schema_editor.execute(
                f"CREATE INDEX IF NOT EXISTS {name} ON {table} USING gin ({expression})"
            )
    elif vendor == "sqlite":
        for statement in _sqlite_statements():
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
