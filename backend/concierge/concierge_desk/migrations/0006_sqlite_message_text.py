"""SQLite: the full-text index holds a message's text rather than its stored HTML
(search_index._sqlite_message_text), so the markup's words ('br', 'amp', 'nofollow') find
nothing and snippets are plain text. The message triggers go, the messages are indexed again,
and post_migrate puts the new triggers back (search_index.sqlite_triggers_ensure)."""

from django.db import migrations

from concierge.concierge_desk.search_index import sqlite_backfill


# upgrade-safe: RunPython reindex_messages: SQLite only, the one-process embedded layout
# (`make run`), never a production deployment (PostgreSQL, where it does nothing).
def reindex_messages(apps, schema_editor):
    if schema_editor.connection.vendor != "sqlite":
        return
    for suffix in ("ai", "ad", "au"):
        schema_editor.execute(f"DROP TRIGGER IF EXISTS desk_search_message_{suffix}")
    schema_editor.execute("DELETE FROM desk_search WHERE kind = 'message'")
    for statement in sqlite_backfill(kinds=("message",)):
        schema_editor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [("concierge_desk", "0005_request_name_trigrams")]

    operations = [migrations.RunPython(reindex_messages, migrations.RunPython.noop)]
