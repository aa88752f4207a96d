"""Desk search's answer to a mistyped word: request names by trigram likeness (PostgreSQL's
pg_trgm, a trusted extension the database's owner may install) through a GIN index of their
trigrams. PostgreSQL only; SQLite's search matches words and their beginnings.

The index is built concurrently, outside a transaction, so requests can be made and renamed
while it is built on a large table (an invalid leftover of an interrupted build goes first)."""

from django.db import migrations

INDEX = "request_name_trigrams"
INVALID = (
    "SELECT 1 FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
    "WHERE c.relname = %s AND NOT i.indisvalid AND pg_table_is_visible(c.oid)"
)


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
        with schema_editor.connection.cursor() as cursor:
            cursor.execute(INVALID, [INDEX])
            if cursor.fetchone():
                schema_editor.execute(f"DROP INDEX CONCURRENTLY IF EXISTS {INDEX}")
        schema_editor.execute(
            f"CREATE INDEX CONCURRENTLY IF NOT EXISTS {INDEX} ON servicerequests_servicerequest "
            "USING gin (name gin_trgm_ops)"
        )


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP INDEX CONCURRENTLY IF EXISTS {INDEX}")


class Migration(migrations.Migration):
    atomic = False

    dependencies = [
        ("concierge_desk", "0004_search_index_update_columns"),
        ("servicerequests", "0008_desk_queue"),
    ]

    operations = [migrations.RunPython(forwards, backwards, elidable=False)]
