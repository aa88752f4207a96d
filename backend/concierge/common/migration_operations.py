"""Migration operations that leave a large table writable while they run (docs/operations/
upgrades.md): an index built or dropped CONCURRENTLY on PostgreSQL, plainly on SQLite (one
process, nobody else writing). A migration using them sets `atomic = False`: PostgreSQL builds
an index concurrently only outside a transaction."""

from __future__ import annotations

from typing import Any

from django.contrib.postgres.operations import AddIndexConcurrently, RemoveIndexConcurrently
from django.db.migrations.operations import AddIndex, RemoveIndex

_INVALID_INDEX = """
SELECT 1 FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
WHERE c.relname = %s AND NOT i.indisvalid AND pg_table_is_visible(c.oid)
"""


def index_drop_if_invalid(schema_editor: Any, name: str) -> None:
    """A concurrent build that was interrupted leaves an INVALID index behind, which would
    make the next attempt fail: it goes first."""
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(_INVALID_INDEX, [name])
        invalid = cursor.fetchone() is not None
    if invalid:
        schema_editor.execute(f"DROP INDEX CONCURRENTLY IF EXISTS {schema_editor.quote_name(name)}")


class AddIndexOnline(AddIndexConcurrently):
    """AddIndex that never blocks writes: `CREATE INDEX CONCURRENTLY` on PostgreSQL (after
    dropping an invalid leftover of an interrupted attempt), a plain index elsewhere."""

    def database_forwards(self, app_label, schema_editor, from_state, to_state):  # type: ignore[no-untyped-def]
        if schema_editor.connection.vendor != "postgresql":
            AddIndex.database_forwards(self, app_label, schema_editor, from_state, to_state)
            return
        index_drop_if_invalid(schema_editor, self.index.name)
        super().database_forwards(app_label, schema_editor, from_state, to_state)

    def database_backwards(self, app_label, schema_editor, from_state, to_state):  # type: ignore[no-untyped-def]
        if schema_editor.connection.vendor != "postgresql":
            AddIndex.database_backwards(self, app_label, schema_editor, from_state, to_state)
            return
        super().database_backwards(app_label, schema_editor, from_state, to_state)


class RemoveIndexOnline(RemoveIndexConcurrently):
    """RemoveIndex that never waits for an exclusive lock: `DROP INDEX CONCURRENTLY` on
    PostgreSQL, a plain drop elsewhere."""

    def database_forwards(self, app_label, schema_editor, from_state, to_state):  # type: ignore[no-untyped-def]
        if schema_editor.connection.vendor != "postgresql":
            RemoveIndex.database_forwards(self, app_label, schema_editor, from_state, to_state)
            return
        super().database_forwards(app_label, schema_editor, from_state, to_state)

    def database_backwards(self, app_label, schema_editor, from_state, to_state):  # type: ignore[no-untyped-def]
        if schema_editor.connection.vendor != "postgresql":
            RemoveIndex.database_backwards(self, app_label, schema_editor, from_state, to_state)
            return
        to_model_state = to_state.models[app_label, self.model_name_lower]
        index_drop_if_invalid(schema_editor, to_model_state.get_index_by_name(self.name).name)
        super().database_backwards(app_label, schema_editor, from_state, to_state)
