"""Desk search's answer to a mistyped word: request names by trigram likeness (PostgreSQL's
pg_trgm, a trusted extension the database's owner may install) through a GIN index of their
trigrams. PostgreSQL only; SQLite's search matches words and their beginnings."""

from django.db import migrations

INDEX = "request_name_trigrams"


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
        schema_editor.execute(
            f"CREATE INDEX IF NOT EXISTS {INDEX} ON servicerequests_servicerequest "
            "USING gin (name gin_trgm_ops)"
        )


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP INDEX IF EXISTS {INDEX}")


class Migration(migrations.Migration):
    dependencies = [
        ("concierge_desk", "0004_search_index_update_columns"),
        ("servicerequests", "0008_desk_queue"),
    ]

    operations = [migrations.RunPython(forwards, backwards, elidable=False)]
