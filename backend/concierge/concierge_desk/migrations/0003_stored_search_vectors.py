"""The desk's search reads stored vectors (servicerequests 0007, and internal notes' here)
instead of the `to_tsvector(...)` expression indexes of 0002, which ranking could not use: it
computed every matching row's vector again. PostgreSQL only; SQLite keeps its FTS5 table.

The notes' table is rewritten with its vectors under an exclusive lock, in a transaction of its
own; the indexes are then built and dropped concurrently, outside a transaction, while the
tables take writes (docs/operations/upgrades.md)."""

from django.db import migrations, transaction

from concierge.common.migration_operations import index_drop_if_invalid
from concierge.common.text_search import StoredVector
from concierge.concierge_desk.search_index import PG_INDEXES

NOTE_VECTOR = StoredVector(
    table="concierge_desk_internalnote",
    expression="to_tsvector('english'::regconfig, {row}body)",
    columns=("body",),
    index="note_search",
)


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        with transaction.atomic(using=schema_editor.connection.alias):
            for statement in NOTE_VECTOR.install():
                schema_editor.execute(statement)
        index_drop_if_invalid(schema_editor, NOTE_VECTOR.index)
        schema_editor.execute(NOTE_VECTOR.install_index())
        for name, _table, _expression in PG_INDEXES:
            schema_editor.execute(f"DROP INDEX CONCURRENTLY IF EXISTS {name}")


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for name, table, expression in PG_INDEXES:
            index_drop_if_invalid(schema_editor, name)
            schema_editor.execute(
                f"CREATE INDEX CONCURRENTLY IF NOT EXISTS {name} ON {table} USING gin ({expression})"
            )
        with transaction.atomic(using=schema_editor.connection.alias):
            for statement in NOTE_VECTOR.uninstall():
                schema_editor.execute(statement)


class Migration(migrations.Migration):
    atomic = False

    dependencies = [
        ("concierge_desk", "0002_full_text_search"),
        ("servicerequests", "0007_search_vectors"),
    ]

    operations = [migrations.RunPython(forwards, backwards, elidable=False)]
