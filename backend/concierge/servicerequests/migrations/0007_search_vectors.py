"""Stored full-text vectors of requests (name, then the survey's answers summary) and messages,
GIN-indexed and kept up to date by the database on every write (PostgreSQL only; SQLite
searches its FTS5 table, concierge_desk 0002). The desk's search and the queue's search box
read them instead of computing `to_tsvector` for every row they look at.

Each table is rewritten with its vectors under an exclusive lock, in a transaction of its own;
the GIN indexes are then built concurrently, outside a transaction, while the tables take
writes (docs/operations/upgrades.md)."""

from django.db import migrations, transaction

from concierge.common.migration_operations import index_drop_if_invalid
from concierge.common.text_search import StoredVector

VECTORS = [
    StoredVector(
        table="servicerequests_servicerequest",
        expression="(setweight(to_tsvector('english'::regconfig, {row}name), 'A') || "
        "setweight(to_tsvector('english'::regconfig, {row}details), 'B'))",
        columns=("name", "details"),
        index="request_search",
    ),
    StoredVector(
        table="servicerequests_message",
        expression="to_tsvector('english'::regconfig, {row}body_html)",
        columns=("body_html",),
        index="message_search",
    ),
]


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for vector in VECTORS:
            with transaction.atomic(using=schema_editor.connection.alias):
                for statement in vector.install():
                    schema_editor.execute(statement)
            index_drop_if_invalid(schema_editor, vector.index)
            schema_editor.execute(vector.install_index())


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for vector in VECTORS:
            with transaction.atomic(using=schema_editor.connection.alias):
                for statement in vector.uninstall():
                    schema_editor.execute(statement)


class Migration(migrations.Migration):
    atomic = False

    dependencies = [("servicerequests", "0006_read_versions")]

    operations = [migrations.RunPython(forwards, backwards, elidable=False)]
