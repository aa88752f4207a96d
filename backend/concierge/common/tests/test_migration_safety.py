"""Issue 25 'Upgrades' (docs/operations/upgrades.md): every migration after the last release
can run while the previous release serves (expand, then contract) and never stops writes to a
large table; `concierge.common.migration_safety` is the check, tested here on migrations made
up for the purpose, then run on the real ones."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, migrations, models
from django.db.migrations.loader import MigrationLoader

from concierge.common.migration_operations import AddIndexOnline, RemoveIndexOnline
from concierge.common.migration_safety import (
    RELEASED,
    migration_findings,
    our_apps,
    unreleased_findings,
    unreleased_migrations,
)
from concierge.servicerequests import services as request_services


@pytest.fixture(scope="module")
def state():
    """The schema as the newest migrations leave it."""
    return MigrationLoader(None, ignore_no_migrations=True).project_state()


def findings(state, *operations, label="servicerequests", atomic=True, source=""):
    migration = type("Migration", (migrations.Migration,), {"atomic": atomic})(
        "0999_made_up", label
    )
    migration.operations = list(operations)
    return migration_findings(label, migration, state, source)


def subjects(found) -> list[str]:
    return [finding.subject for finding in found]


def test_issue_25_upgrades_every_unreleased_migration_keeps_the_rules():
    """Issue 25 upgrades: the migrations after the release baseline (RELEASED) keep the
    expand/contract and no-long-lock rules, or say in a comment why an exception is safe"""
    found = unreleased_findings()

    assert not found, "\n\n" + "\n\n".join(str(finding) for finding in found)


def test_issue_25_upgrades_the_baseline_names_every_app_and_existing_migrations():
    """Issue 25 upgrades: the baseline names a migration that exists for each of our released
    apps; an app added since the release (not in the baseline) has every migration checked"""
    loader = MigrationLoader(None, ignore_no_migrations=True)
    assert set(RELEASED) <= set(our_apps())
    for label, name in RELEASED.items():
        assert (label, name) in loader.graph.nodes
    checked = set(unreleased_migrations(loader))
    for label in set(our_apps()) - set(RELEASED):
        assert {node for node in loader.graph.nodes if node[0] == label} <= checked


def test_issue_25_upgrades_an_index_on_a_large_table_must_be_built_concurrently(state):
    """Issue 25 upgrades: AddIndex on the messages table is refused with the way out named;
    AddIndexOnline passes only in a non-atomic migration; a small table or a table made in the
    same migration may take a plain index"""
    index = models.Index(fields=["source"], name="message_source_idx")

    (plain,) = findings(state, migrations.AddIndex("message", index))
    assert plain.subject == "AddIndex message.message_source_idx"
    assert "AddIndexOnline" in plain.problem and "atomic = False" in plain.problem
    assert str(plain).startswith("servicerequests.0999_made_up: AddIndex message.")
    assert "`# upgrade-safe: AddIndex message.message_source_idx: <why>`" in str(plain)

    assert subjects(findings(state, AddIndexOnline("message", index))) == ["AddIndexOnline message"]
    assert findings(state, AddIndexOnline("message", index), atomic=False) == []
    assert (
        findings(state, RemoveIndexOnline("message", "message_concierge_reply_idx"), atomic=False)
        == []
    )

    small = models.Index(fields=["title"], name="offering_title_idx")
    assert findings(state, migrations.AddIndex("offering", small), label="offerings") == []
    created = [
        migrations.CreateModel("Draft", [("id", models.BigAutoField(primary_key=True))]),
        migrations.AddIndex("draft", models.Index(fields=["id"], name="draft_idx")),
    ]
    assert findings(state, *created) == []


def test_issue_25_upgrades_columns_are_added_nullable_or_with_a_constant_db_default(state):
    """Issue 25 upgrades: a NOT NULL column without db_default (the previous release inserts
    without it), a per-row db_default (table rewrite) and a ForeignKey's own index on a large
    table are refused; nullable columns and constant db_defaults pass"""
    not_null = migrations.AddField(
        "message", "subject", models.CharField(max_length=50, default="")
    )
    volatile = migrations.AddField(
        "message",
        "token",
        models.UUIDField(null=True, db_default=models.Func(function="gen_random_uuid")),
    )
    foreign_key = migrations.AddField(
        "message",
        "editor",
        models.ForeignKey("accounts.user", null=True, on_delete=models.SET_NULL, related_name="+"),
    )

    assert subjects(findings(state, not_null, volatile, foreign_key)) == [
        "AddField message.subject",
        "AddField message.token",
        "AddField message.editor (index)",
    ]
    assert (
        findings(
            state,
            migrations.AddField("message", "note", models.TextField(null=True)),
            migrations.AddField("message", "flag", models.BooleanField(db_default=False)),
            migrations.AddField(
                "message",
                "reviewer",
                models.ForeignKey(
                    "accounts.user",
                    null=True,
                    db_index=False,
                    on_delete=models.SET_NULL,
                    related_name="+",
                ),
            ),
        )
        == []
    )


def test_issue_25_upgrades_contract_steps_wait_for_a_later_release(state):
    """Issue 25 upgrades: removing, renaming or making NOT NULL what the previous release
    uses is refused, unless the migration says why it is safe (`# upgrade-safe: ...`); removing
    a field from the model only (SeparateDatabaseAndState, state only) passes"""
    contract = [
        migrations.RemoveField("servicerequest", "completed_from"),
        migrations.RenameField("message", "source_name", "signature"),
        migrations.AlterField("servicerequest", "completed_at", models.DateTimeField()),
        migrations.DeleteModel("messageattachment"),
    ]
    assert subjects(findings(state, *contract)) == [
        "RemoveField servicerequest.completed_from",
        "RenameField message.source_name",
        "AlterField servicerequest.completed_at",
        "DeleteModel messageattachment",
    ]

    allowed = "# upgrade-safe: RemoveField servicerequest.completed_from: unused since 1.1.0\n"
    assert subjects(findings(state, contract[0], source=allowed)) == []
    assert subjects(
        findings(
            state, contract[0], source="# upgrade-safe: RemoveField servicerequest.completed_from:"
        )
    ) == [
        "RemoveField servicerequest.completed_from"  # a reason is required
    ]
    state_only = migrations.SeparateDatabaseAndState(state_operations=[contract[0]])
    assert findings(state, state_only) == []
    drop_later = migrations.SeparateDatabaseAndState(database_operations=[contract[0]])
    assert subjects(findings(state, drop_later)) == ["RemoveField servicerequest.completed_from"]


def test_issue_25_upgrades_column_type_changes_that_rewrite_the_table_are_refused(state):
    """Issue 25 upgrades: a type change rewrites the table and is refused; a longer varchar
    (no rewrite on PostgreSQL) and a new help text pass"""
    assert (
        subjects(
            findings(state, migrations.AlterField("servicerequest", "name", models.TextField()))
        )
        == []
    )
    assert subjects(
        findings(
            state,
            migrations.AlterField(
                "servicerequest", "completed_from", models.IntegerField(null=True)
            ),
        )
    ) == ["AlterField servicerequest.completed_from (type)"]
    assert (
        findings(
            state,
            migrations.AlterField(
                "servicerequest",
                "completed_from",
                models.CharField(max_length=40, null=True, blank=True, help_text="Longer"),
            ),
        )
        == []
    )


def test_issue_25_upgrades_sql_and_python_steps_need_a_reason(state):
    """Issue 25 upgrades: RunSQL and RunPython are refused until the migration says why they
    are safe; RunPython.noop passes"""

    def backfill(apps, schema_editor):  # pragma: no cover - never run
        pass

    steps = [
        migrations.RunSQL("UPDATE servicerequests_message SET body = body"),
        migrations.RunPython(backfill),
    ]
    assert subjects(findings(state, *steps)) == ["RunSQL 1", "RunPython backfill"]
    reasons = (
        "# upgrade-safe: RunSQL 1: touches ten rows\n"
        "# upgrade-safe: RunPython backfill: batches of 2,000 rows, atomic = False\n"
    )
    assert findings(state, *steps, source=reasons) == []
    assert findings(state, migrations.RunPython(migrations.RunPython.noop)) == []


def _index_valid(name: str) -> bool | None:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT i.indisvalid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
            "WHERE c.relname = %s",
            [name],
        )
        row = cursor.fetchone()
    return None if row is None else bool(row[0])


@pytest.mark.django_db(transaction=True)
def test_issue_25_upgrades_add_index_online_builds_concurrently_after_an_interrupted_attempt(
    state, user
):
    """Issue 25 upgrades: on PostgreSQL, AddIndexOnline replaces the INVALID index an
    interrupted concurrent build left behind, builds a valid one outside a transaction, and
    drops it again backwards"""
    if connection.vendor != "postgresql":
        pytest.skip("CREATE INDEX CONCURRENTLY is PostgreSQL's")
    service_request = request_services.request_create(user=user, name="Find a dog walker")
    for body in ("One", "Two"):
        request_services.message_create(request=service_request, author=user, body=body)
    name = "message_source_idx"
    # A unique build fails on the duplicates, leaving an invalid index.
    with connection.cursor() as cursor, pytest.raises(IntegrityError):
        cursor.execute(
            f"CREATE UNIQUE INDEX CONCURRENTLY {name} ON servicerequests_message (source)"
        )
    assert _index_valid(name) is False

    operation = AddIndexOnline("message", models.Index(fields=["source"], name=name))
    after = state.clone()
    operation.state_forwards("servicerequests", after)
    with connection.schema_editor(atomic=False) as editor:
        operation.database_forwards("servicerequests", editor, state, after)
    assert _index_valid(name) is True

    with connection.schema_editor(atomic=False) as editor:
        operation.database_backwards("servicerequests", editor, after, state)
    assert _index_valid(name) is None
