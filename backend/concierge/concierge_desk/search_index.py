"""The full-text index the desk's search reads, kept up to date by the database on every write.

PostgreSQL: migration 0002's GIN indexes on `to_tsvector('english', ...)` expressions, which
0003 replaces by stored, GIN-indexed vectors (concierge.common.text_search.StoredVector).
SQLite: one FTS5 table, `desk_search`, filled by triggers on the three tables. SQLite rebuilds a
table when a later migration alters it, which drops that table's triggers, so they are put back
after every `migrate` (`sqlite_triggers_ensure`, connected to post_migrate).
"""

from __future__ import annotations

from collections.abc import Iterator

PG_INDEXES = [
    (
        "desk_fts_request",
        "servicerequests_servicerequest",
        "(setweight(to_tsvector('english'::regconfig, name), 'A') || "
        "setweight(to_tsvector('english'::regconfig, details), 'B'))",
    ),
    (
        "desk_fts_message",
        "servicerequests_message",
        "(to_tsvector('english'::regconfig, body_html))",
    ),
    ("desk_fts_note", "concierge_desk_internalnote", "(to_tsvector('english'::regconfig, body))"),
]

SQLITE_TABLE = (
    "CREATE VIRTUAL TABLE IF NOT EXISTS desk_search USING fts5("
    "kind UNINDEXED, source_id UNINDEXED, request_id UNINDEXED, title, body, "
    "tokenize = 'porter unicode61 remove_diacritics 2')"
)


def _sqlite_message_text(body_html: str) -> str:
    """A message's words for FTS5, which indexes whatever it is given: its stored HTML (the
    sanitiser's `<br>`, its links' tags and attributes, escaped `&`, `<`, `>`; servicerequests
    html.text_to_html) made the text the employee wrote, so that 'amp' or 'nofollow' finds
    nothing and a snippet is plain text. PostgreSQL's parser leaves tags and entities out."""
    text = body_html
    for markup, words in (
        ("<br>", " "),
        ('" target="_blank" rel="noopener noreferrer nofollow">', " "),
        ('<a href="', " "),
        ("</a>", " "),
        ("&lt;", "<"),
        ("&gt;", ">"),
        ("&amp;", "&"),  # last: '&amp;lt;' is what '&lt;' typed as text became
    ):
        text = f"replace({text}, '{markup}', '{words}')"
    return text


# (source table, kind, request id column, title expression, body expression)
SQLITE_SOURCES = [
    ("servicerequests_servicerequest", "request", "id", "{row}.name", "{row}.details"),
    (
        "servicerequests_message",
        "message",
        "request_id",
        "''",
        _sqlite_message_text("{row}.body_html"),
    ),
    ("concierge_desk_internalnote", "note", "request_id", "''", "{row}.body"),
]


# The columns each kind's text comes from: an update of any other column (a status, a
# request's last message) leaves the index alone instead of deleting and adding the row again.
SQLITE_INDEXED_COLUMNS = {
    "request": "name, details",
    "message": "request_id, body_html",
    "note": "request_id, body",
}

# The statements below are built from the constants above only, never from input (S608).


def sqlite_triggers() -> Iterator[str]:
    """CREATE TRIGGER statements (idempotent) keeping `desk_search` in step with its sources."""
    for table, kind, request_col, title, body in SQLITE_SOURCES:
        insert = (
            "INSERT INTO desk_search (kind, source_id, request_id, title, body) "  # noqa: S608
            f"VALUES ('{kind}', NEW.id, NEW.{request_col}, {title.format(row='NEW')}, "
            f"{body.format(row='NEW')});"
        )
        delete = f"DELETE FROM desk_search WHERE kind = '{kind}' AND source_id = OLD.id;"  # noqa: S608
        create = "CREATE TRIGGER IF NOT EXISTS"
        yield f"{create} desk_search_{kind}_ai AFTER INSERT ON {table} BEGIN {insert} END"
        yield f"{create} desk_search_{kind}_ad AFTER DELETE ON {table} BEGIN {delete} END"
        yield (
            f"{create} desk_search_{kind}_au AFTER UPDATE OF {SQLITE_INDEXED_COLUMNS[kind]} "
            f"ON {table} BEGIN {delete} {insert} END"
        )


def sqlite_backfill(kinds: tuple[str, ...] = ("request", "message", "note")) -> Iterator[str]:
    """INSERT statements indexing the rows already there (of these kinds)."""
    for table, kind, request_col, title, body in SQLITE_SOURCES:
        if kind not in kinds:
            continue
        yield (
            "INSERT INTO desk_search (kind, source_id, request_id, title, body) "  # noqa: S608
            f"SELECT '{kind}', id, {request_col}, {title.format(row=table)}, "
            f"{body.format(row=table)} FROM {table}"
        )


def sqlite_triggers_ensure(*, using: str = "default", **_kwargs: object) -> None:
    """post_migrate: put back the triggers a table rebuild dropped (SQLite only)."""
    from django.db import connections

    connection = connections[using]
    if connection.vendor != "sqlite":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'desk_search'")
        if cursor.fetchone() is None:  # before this app's migration ran
            return
        for statement in sqlite_triggers():
            cursor.execute(statement)
