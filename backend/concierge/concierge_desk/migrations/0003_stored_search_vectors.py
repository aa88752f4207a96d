"""The desk's search reads stored vectors (servicerequests 0007, and internal notes' here)
instead of the `to_tsvector(...)` expression indexes of 0002, which ranking could not use: it
computed every matching row's vector again. PostgreSQL only; SQLite keeps its FTS5 table."""

from django.db import migrations

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
        for statement in NOTE_VECTOR.install():
            schema_editor.execute(statement)
        for name, _table, _expression in PG_INDEXES:
            schema_editor.execute(f"DROP INDEX IF EXISTS {name}")


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for name, table, expression in PG_INDEXES:
            schema_editor.execute(
                f"CREATE INDEX IF NOT EXISTS {name} ON {table} USING gin ({expression})"
            )
        for statement in NOTE_VECTOR.uninstall():
            schema_editor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [
        ("concierge_desk", "0002_full_text_search"),
        ("servicerequests", "0007_search_vectors"),
    ]

    operations = [migrations.RunPython(forwards, backwards, elidable=False)]
