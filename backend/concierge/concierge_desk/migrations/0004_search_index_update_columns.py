"""SQLite: the full-text index's update triggers fire only when an indexed column changes
(search_index.SQLITE_INDEXED_COLUMNS). Each one deletes by a column FTS5 does not index, a
scan of the whole index, and a request's row is updated with every message it gets. The old
triggers go here; post_migrate puts back the new ones (search_index.sqlite_triggers_ensure)."""

from django.db import migrations

from concierge.concierge_desk.search_index import SQLITE_SOURCES


def drop_update_triggers(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        for _table, kind, *_ in SQLITE_SOURCES:
            schema_editor.execute(f"DROP TRIGGER IF EXISTS desk_search_{kind}_au")


class Migration(migrations.Migration):
    dependencies = [("concierge_desk", "0003_stored_search_vectors")]

    operations = [migrations.RunPython(drop_update_triggers, drop_update_triggers)]
