# ruff: noqa: S608 (trigger DDL built from our own table names, never from input)
"""ServiceRequest.last_reply_at: the time of the thread's newest message that is not the
employee's, kept by the database in the write's own transaction (0008's trigger on the messages,
which already sets the newest message, now sets both in one UPDATE). The lists' unread marks and
the unread count compare it with `seen_by_employee_at` on the request's own row instead of
probing the replies' index once a request.

Not atomic, so that no step holds a lock on the large tables for longer than a moment: the
column is added (nullable: no rewrite on PostgreSQL, in place on SQLite), then the trigger
replaced, so that every message written from then on keeps the column; then the requests that
already have replies are backfilled in batches of BATCH, each its own transaction, only where
the column is still empty (a reply written meanwhile has set it, and PostgreSQL re-checks that
condition on a row a concurrent write changed)."""

import importlib

from django.db import migrations, models

REQUESTS = "servicerequests_servicerequest"
MESSAGES = "servicerequests_message"
EMPLOYEE = "user"  # Message.Source.USER, as in the replies' index condition (0009)
BATCH = 1000

desk_queue = importlib.import_module("concierge.servicerequests.migrations.0008_desk_queue")


def _newest_reply(request_id: str) -> str:
    """The newest reply's time: one probe of the replies' index (0009), whose condition this
    repeats."""
    return (
        f"(SELECT MAX(m.external_created_at) FROM {MESSAGES} m "
        f"WHERE m.request_id = {request_id} AND NOT (m.source = '{EMPLOYEE}'))"
    )


def _set_thread_ends(request_id: str, differs: str = "IS DISTINCT FROM") -> str:
    """SQL: the request's `last_message_id` and `last_reply_at` become its newest message's id
    and its newest reply's time (`differs`: SQLite says IS NOT)."""
    newest, reply = desk_queue._newest_message(request_id), _newest_reply(request_id)
    return (
        f"UPDATE {REQUESTS} SET last_message_id = {newest}, last_reply_at = {reply} "
        f"WHERE id = {request_id} "
        f"AND (last_message_id {differs} {newest} OR last_reply_at {differs} {reply});"
    )


POSTGRESQL_INSTALL = [
    f"""
CREATE OR REPLACE FUNCTION desk_last_message() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE {REQUESTS} SET last_message_id = NULL, last_reply_at = NULL
    WHERE last_message_id IS NOT NULL OR last_reply_at IS NOT NULL;
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    {_set_thread_ends("OLD.request_id")}
  END IF;
  IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND OLD.request_id <> NEW.request_id) THEN
    {_set_thread_ends("NEW.request_id")}
  END IF;
  RETURN NULL;
END $$;
""",
    f"DROP TRIGGER IF EXISTS desk_last_message ON {MESSAGES};",
    f"CREATE TRIGGER desk_last_message AFTER INSERT "
    f"OR UPDATE OF request_id, external_created_at, source "
    f"OR DELETE ON {MESSAGES} FOR EACH ROW EXECUTE FUNCTION desk_last_message();",
]
SQLITE_TRIGGERS = (
    "desk_last_message_insert",
    "desk_last_message_update",
    "desk_last_message_delete",
)
SQLITE_INSTALL = [
    *(f"DROP TRIGGER IF EXISTS {name};" for name in SQLITE_TRIGGERS),
    f"""
CREATE TRIGGER desk_last_message_insert AFTER INSERT ON {MESSAGES}
BEGIN
  {_set_thread_ends("NEW.request_id", "IS NOT")}
END;
""",
    f"""
CREATE TRIGGER desk_last_message_update
AFTER UPDATE OF request_id, external_created_at, source ON {MESSAGES}
BEGIN
  {_set_thread_ends("OLD.request_id", "IS NOT")}
  {_set_thread_ends("NEW.request_id", "IS NOT")}
END;
""",
    f"""
CREATE TRIGGER desk_last_message_delete AFTER DELETE ON {MESSAGES}
BEGIN
  {_set_thread_ends("OLD.request_id", "IS NOT")}
END;
""",
]


def install(apps, schema_editor):
    postgresql = schema_editor.connection.vendor == "postgresql"
    for statement in POSTGRESQL_INSTALL if postgresql else SQLITE_INSTALL:
        schema_editor.execute(statement, params=None)


def backfill(apps, schema_editor):
    """Each batch of request ids in its own transaction (the migration is not atomic)."""
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(f"SELECT MAX(id) FROM {REQUESTS}")
        (last,) = cursor.fetchone()
        for start in range(0, (last or 0) + 1, BATCH):
            cursor.execute(
                f"UPDATE {REQUESTS} SET last_reply_at = {_newest_reply(f'{REQUESTS}.id')} "
                f"WHERE id >= %s AND id < %s AND last_reply_at IS NULL "
                f"AND {_newest_reply(f'{REQUESTS}.id')} IS NOT NULL",
                [start, start + BATCH],
            )


def uninstall(apps, schema_editor):
    """0008's newest-message trigger again (the column goes with the field's removal)."""
    postgresql = schema_editor.connection.vendor == "postgresql"
    installed = desk_queue.POSTGRESQL_INSTALL if postgresql else desk_queue.SQLITE_INSTALL
    ours = [statement for statement in installed if "desk_last_message" in statement]
    drops = [] if postgresql else [f"DROP TRIGGER IF EXISTS {name};" for name in SQLITE_TRIGGERS]
    for statement in drops + ours:
        schema_editor.execute(statement, params=None)


class Migration(migrations.Migration):
    atomic = False

    dependencies = [
        ("servicerequests", "0012_read_version_bump_plans"),
    ]

    operations = [
        migrations.AddField(
            model_name="servicerequest",
            name="last_reply_at",
            field=models.DateTimeField(
                blank=True,
                editable=False,
                help_text="When the newest message not the employee's was written, kept by a "
                "database trigger (the unread marks compare it with seen_by_employee_at).",
                null=True,
            ),
        ),
        # upgrade-safe: RunPython install: replaces the trigger function on the messages and
        # re-creates its trigger (a moment's lock, no row touched)
        migrations.RunPython(install, uninstall),
        # upgrade-safe: RunPython backfill: batches of 1,000 requests, each its own transaction,
        # only rows still empty
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]
