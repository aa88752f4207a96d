# ruff: noqa: S608 (trigger DDL built from our own table names, never from input)
"""The desk's queue served by indexes: each request carries its reply-time clock's `due_at`
and its newest message's id, kept by triggers on the clock and message tables in the same
transaction as the write, whatever makes it; the queue's orders and tab counts read indexes
instead of sorting or counting every request, and its rows read their last message by id."""

import django.db.models.deletion
import django.db.models.functions.comparison
import django.db.models.lookups
from django.conf import settings
from django.db import migrations, models

REQUESTS = "servicerequests_servicerequest"
CLOCKS = "service_levels_requestclock"
MESSAGES = "servicerequests_message"


def _newest_message(request_id: str) -> str:
    return (
        f"(SELECT m.id FROM {MESSAGES} m WHERE m.request_id = {request_id} "
        "ORDER BY m.external_created_at DESC, m.id DESC LIMIT 1)"
    )


def _set_last_message(request_id: str, differs: str = "IS DISTINCT FROM") -> str:
    """SQL: the request's `last_message_id` becomes its newest message's (`differs`: SQLite
    says IS NOT)."""
    newest = _newest_message(request_id)
    return (
        f"UPDATE {REQUESTS} SET last_message_id = {newest} "
        f"WHERE id = {request_id} AND last_message_id {differs} {newest};"
    )


POSTGRESQL_INSTALL = [
    f"""
CREATE OR REPLACE FUNCTION desk_due_at_copy() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE {REQUESTS} SET due_at = NULL WHERE due_at IS NOT NULL;
    RETURN NULL;
  END IF;
  IF TG_OP = 'DELETE' OR (TG_OP = 'UPDATE' AND OLD.request_id <> NEW.request_id) THEN
    UPDATE {REQUESTS} SET due_at = NULL WHERE id = OLD.request_id AND due_at IS NOT NULL;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    UPDATE {REQUESTS} SET due_at = NEW.due_at
    WHERE id = NEW.request_id AND due_at IS DISTINCT FROM NEW.due_at;
  END IF;
  RETURN NULL;
END $$;
""",
    f"DROP TRIGGER IF EXISTS desk_due_at_copy ON {CLOCKS};",
    f"CREATE TRIGGER desk_due_at_copy AFTER INSERT OR UPDATE OF due_at, request_id OR DELETE "
    f"ON {CLOCKS} FOR EACH ROW EXECUTE FUNCTION desk_due_at_copy();",
    f"DROP TRIGGER IF EXISTS desk_due_at_copy_truncate ON {CLOCKS};",
    f"CREATE TRIGGER desk_due_at_copy_truncate AFTER TRUNCATE ON {CLOCKS} "
    f"FOR EACH STATEMENT EXECUTE FUNCTION desk_due_at_copy();",
    f"""
CREATE OR REPLACE FUNCTION desk_last_message() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE {REQUESTS} SET last_message_id = NULL WHERE last_message_id IS NOT NULL;
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    {_set_last_message("OLD.request_id")}
  END IF;
  IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND OLD.request_id <> NEW.request_id) THEN
    {_set_last_message("NEW.request_id")}
  END IF;
  RETURN NULL;
END $$;
""",
    f"DROP TRIGGER IF EXISTS desk_last_message ON {MESSAGES};",
    f"CREATE TRIGGER desk_last_message AFTER INSERT OR UPDATE OF request_id, external_created_at "
    f"OR DELETE ON {MESSAGES} FOR EACH ROW EXECUTE FUNCTION desk_last_message();",
    f"DROP TRIGGER IF EXISTS desk_last_message_truncate ON {MESSAGES};",
    f"CREATE TRIGGER desk_last_message_truncate AFTER TRUNCATE ON {MESSAGES} "
    f"FOR EACH STATEMENT EXECUTE FUNCTION desk_last_message();",
]
POSTGRESQL_UNINSTALL = [
    f"DROP TRIGGER IF EXISTS desk_due_at_copy ON {CLOCKS};",
    f"DROP TRIGGER IF EXISTS desk_due_at_copy_truncate ON {CLOCKS};",
    "DROP FUNCTION IF EXISTS desk_due_at_copy();",
    f"DROP TRIGGER IF EXISTS desk_last_message ON {MESSAGES};",
    f"DROP TRIGGER IF EXISTS desk_last_message_truncate ON {MESSAGES};",
    "DROP FUNCTION IF EXISTS desk_last_message();",
]
SQLITE_INSTALL = [
    f"""
CREATE TRIGGER IF NOT EXISTS desk_due_at_copy_insert AFTER INSERT ON {CLOCKS}
BEGIN
  UPDATE {REQUESTS} SET due_at = NEW.due_at WHERE id = NEW.request_id AND due_at IS NOT NEW.due_at;
END;
""",
    f"""
CREATE TRIGGER IF NOT EXISTS desk_due_at_copy_update AFTER UPDATE OF due_at, request_id
ON {CLOCKS}
BEGIN
  UPDATE {REQUESTS} SET due_at = NULL
  WHERE id = OLD.request_id AND OLD.request_id IS NOT NEW.request_id;
  UPDATE {REQUESTS} SET due_at = NEW.due_at WHERE id = NEW.request_id AND due_at IS NOT NEW.due_at;
END;
""",
    f"""
CREATE TRIGGER IF NOT EXISTS desk_due_at_copy_delete AFTER DELETE ON {CLOCKS}
BEGIN
  UPDATE {REQUESTS} SET due_at = NULL WHERE id = OLD.request_id AND due_at IS NOT NULL;
END;
""",
    f"""
CREATE TRIGGER IF NOT EXISTS desk_last_message_insert AFTER INSERT ON {MESSAGES}
BEGIN
  {_set_last_message("NEW.request_id", "IS NOT")}
END;
""",
    f"""
CREATE TRIGGER IF NOT EXISTS desk_last_message_update
AFTER UPDATE OF request_id, external_created_at ON {MESSAGES}
BEGIN
  {_set_last_message("OLD.request_id", "IS NOT")}
  {_set_last_message("NEW.request_id", "IS NOT")}
END;
""",
    f"""
CREATE TRIGGER IF NOT EXISTS desk_last_message_delete AFTER DELETE ON {MESSAGES}
BEGIN
  {_set_last_message("OLD.request_id", "IS NOT")}
END;
""",
]
SQLITE_UNINSTALL = [
    f"DROP TRIGGER IF EXISTS desk_{column}_{operation};"
    for column in ("due_at_copy", "last_message")
    for operation in ("insert", "update", "delete")
]
BACKFILL = [
    f"UPDATE {REQUESTS} SET due_at = "
    f"(SELECT c.due_at FROM {CLOCKS} c WHERE c.request_id = {REQUESTS}.id) "
    f"WHERE EXISTS (SELECT 1 FROM {CLOCKS} c WHERE c.request_id = {REQUESTS}.id "
    f"AND c.due_at IS NOT NULL)",
    f"UPDATE {REQUESTS} SET last_message_id = {_newest_message(f'{REQUESTS}.id')} "
    f"WHERE EXISTS (SELECT 1 FROM {MESSAGES} m WHERE m.request_id = {REQUESTS}.id)",
]


def _run(schema_editor, statements):
    for statement in statements:
        schema_editor.execute(statement, params=None)


def install(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    _run(schema_editor, POSTGRESQL_INSTALL if vendor == "postgresql" else SQLITE_INSTALL)
    _run(schema_editor, BACKFILL)


def uninstall(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    _run(schema_editor, POSTGRESQL_UNINSTALL if vendor == "postgresql" else SQLITE_UNINSTALL)


class Migration(migrations.Migration):
    dependencies = [
        ("servicerequests", "0007_search_vectors"),
        ("service_levels", "0001_initial"),
        ("surveys", "0004_open_run_constraint_on_every_database"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveIndex(model_name="servicerequest", name="request_status_idx"),
        migrations.AddField(
            model_name="servicerequest",
            name="due_at",
            field=models.DateTimeField(
                blank=True,
                editable=False,
                help_text="The reply-time clock's next deadline while it runs (null while "
                "paused or stopped): the clock's own, copied by a database trigger for the "
                "desk's order.",
                null=True,
            ),
        ),
        migrations.AddField(
            model_name="servicerequest",
            name="last_message",
            field=models.ForeignKey(
                blank=True,
                db_constraint=False,
                db_index=False,
                editable=False,
                help_text="The newest message of the thread, kept by a database trigger (the "
                "desk's queue shows it).",
                null=True,
                on_delete=django.db.models.deletion.DO_NOTHING,
                related_name="+",
                to="servicerequests.message",
            ),
        ),
        migrations.AddIndex(
            model_name="servicerequest",
            index=models.Index(
                fields=["status", "issued_at", "id"], name="request_status_issued_idx"
            ),
        ),
        migrations.AddIndex(
            model_name="servicerequest",
            index=models.Index(
                models.F("status"),
                django.db.models.lookups.IsNull(models.F("due_at"), True),
                django.db.models.functions.comparison.Coalesce(
                    models.F("due_at"), models.F("issued_at")
                ),
                models.F("issued_at"),
                models.F("id"),
                name="request_desk_due_idx",
            ),
        ),
        migrations.AddIndex(
            model_name="servicerequest",
            index=models.Index(
                models.F("assignee"),
                models.F("status"),
                django.db.models.lookups.IsNull(models.F("due_at"), True),
                django.db.models.functions.comparison.Coalesce(
                    models.F("due_at"), models.F("issued_at")
                ),
                models.F("issued_at"),
                models.F("id"),
                name="request_desk_assignee_due_idx",
            ),
        ),
        migrations.RunPython(install, uninstall),
    ]
