"""The rules every migration after the last release keeps, so that an upgrade can migrate while
the previous release still serves, and never stops writes to a large table
(docs/operations/upgrades.md). `migration_findings()` lists what breaks them; a test fails on
any (concierge/common/tests/test_migration_safety.py).

1. Expand, then contract. The previous release's code runs against the migrated schema until
   every process has restarted, and its queries name every column of its models:
   - a new column is nullable or has a constant `db_default` (the old code inserts rows
     without it);
   - no column or table is removed or renamed, and no column made NOT NULL, in the release
     whose code stops using it (or starts always writing it): the code change ships first,
     the schema change in a later release.
2. Nothing locks a large table for longer than a moment: an index on an existing table is
   built with `AddIndexOnline` (CREATE INDEX CONCURRENTLY, in a migration with
   `atomic = False`); no column type change that rewrites the table; no constraint validated
   under a lock; no volatile default.
3. SQL and Python steps (`RunSQL`, `RunPython`) are read by a person, who writes why they are
   safe (a backfill works in batches, a trigger is created on a small table...).

A finding that is safe after all (a small table, the second step of an expand/contract, a
reviewed `RunPython`) is allowed by a comment in the migration's file naming it exactly:

    # upgrade-safe: RemoveField servicerequest.legacy_code: unused since 1.1.0

Only migrations after the release baseline `RELEASED` are checked: a migration that installs
have applied never changes. Each release moves `RELEASED` to its newest migrations.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Iterator
from dataclasses import dataclass

from django.apps import apps
from django.contrib.postgres.operations import AddIndexConcurrently, RemoveIndexConcurrently
from django.db import connection, models
from django.db.migrations import Migration
from django.db.migrations import operations as ops
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.operations.base import Operation
from django.db.migrations.state import ProjectState

# The newest migration of each app in release 1.0.0 (CHANGELOG.md): these and their ancestors
# are applied on installs and are never checked (nor changed).
RELEASED: dict[str, str] = {
    "accounts": "0005_email_change",
    "common": "0001_initial",
    "company_reports": "0001_initial",
    "concierge_desk": "0005_request_name_trigrams",
    "notifications": "0002_move_queued_tasks_to_django_tasks_db",
    "offerings": "0002_offering_request_survey_answer",
    "satisfaction": "0002_rating_invite",
    "saved_replies": "0001_initial",
    "service_levels": "0001_initial",
    "servicerequests": "0010_completed_from",
    "surveys": "0004_open_run_constraint_on_every_database",
    "uploads": "0001_initial",
}

# Tables that stay small whatever the number of employees and requests (set up by people in
# Django admin): an index or a constraint on them is built in a moment. Every other table
# (people, sessions, requests, messages, uploads, answers, tasks...) is treated as large.
SMALL_TABLES = frozenset(
    {
        "accounts.company",
        "accounts.companyinvite",
        "surveys.surveycategory",
        "surveys.requestsurvey",
        "surveys.question",
        "surveys.selectoption",
        "offerings.offeringcategory",
        "offerings.offering",
        "offerings.section",
        "offerings.sectionitem",
        "service_levels.servicelevel",
        "service_levels.holiday",
        "saved_replies.savedreply",
        "company_reports.companyadmin",
    }
)

MARKER = re.compile(r"#\s*upgrade-safe:\s*(?P<subject>[^:\n]+?)\s*:\s*(?P<reason>\S.*)$", re.M)
ONLINE_INDEX_OPERATIONS = (AddIndexConcurrently, RemoveIndexConcurrently)


@dataclass(frozen=True)
class Finding:
    migration: str  # "servicerequests.0011_message_subject"
    subject: str  # "AddField message.subject", the name an allowance comment gives
    problem: str

    def __str__(self) -> str:
        return (
            f"{self.migration}: {self.subject}: {self.problem} If it is safe here, say why in "
            f"the migration: `# upgrade-safe: {self.subject}: <why>`."
        )


def our_apps() -> list[str]:
    """Our apps that have migrations."""
    return [
        c.label
        for c in apps.get_app_configs()
        if c.name.startswith("concierge.") and c.models_module is not None
    ]


def unreleased_migrations(loader: MigrationLoader) -> list[tuple[str, str]]:
    """Our migrations after the baseline, in the order `migrate` applies them."""
    released: set[tuple[str, str]] = set()
    for label, name in RELEASED.items():
        released.update(loader.graph.forwards_plan((label, name)))
    ours = set(our_apps())
    plan: list[tuple[str, str]] = []
    for leaf in sorted(loader.graph.leaf_nodes()):
        for node in loader.graph.forwards_plan(leaf):
            if node[0] in ours and node not in released and node not in plan:
                plan.append(node)
    return plan


def _large(label: str, model: str, created: set[str]) -> bool:
    """Whether an operation on `model` can meet a large table: not when the table is new in
    this very migration, nor one of SMALL_TABLES."""
    return model not in created and f"{label}.{model}" not in SMALL_TABLES


def _has_index(field: models.Field) -> bool:
    return bool(getattr(field, "db_index", False) or field.unique) and not field.primary_key


def _constant_default(field: models.Field) -> bool:
    default = field.db_default
    return isinstance(default, models.Value) or not hasattr(default, "resolve_expression")


def _column_type(field: models.Field) -> str | None:
    return field.db_parameters(connection=connection)["type"]


def _widened_varchar(old: str | None, new: str | None) -> bool:
    """varchar(n) to a longer varchar (or text) changes no stored row on PostgreSQL."""
    match_old = re.fullmatch(r"varchar\((\d+)\)", old or "")
    if not match_old:
        return False
    if new == "text":
        return True
    match_new = re.fullmatch(r"varchar\((\d+)\)", new or "")
    return match_new is not None and int(match_new[1]) >= int(match_old[1])


def _operation_findings(
    label: str,
    migration: Migration,
    operation: Operation,
    state: ProjectState,
    created: set[str],
    position: int,
) -> Iterator[tuple[str, str]]:
    """(subject, problem) for each rule `operation` breaks, given the state before it."""
    if isinstance(operation, ops.SeparateDatabaseAndState):
        for inner in operation.database_operations:
            yield from _operation_findings(label, migration, inner, state, created, position)
        return
    if isinstance(operation, ONLINE_INDEX_OPERATIONS):
        if migration.atomic:
            yield (
                f"{type(operation).__name__} {operation.model_name_lower}",
                "Builds or drops an index concurrently, which PostgreSQL does only outside a "
                "transaction: set `atomic = False` on the migration.",
            )
        return
    if isinstance(operation, ops.CreateModel):
        created.add(operation.name_lower)
        return
    if isinstance(operation, ops.AddIndex):
        model = operation.model_name_lower
        if _large(label, model, created):
            yield (
                f"AddIndex {model}.{operation.index.name}",
                "Builds the index under a lock that stops every write to the table until it "
                "is built. Use AddIndexOnline (concierge.common.migration_operations) in a "
                "migration with `atomic = False`.",
            )
        return
    if isinstance(operation, ops.AddConstraint):
        model = operation.model_name_lower
        if _large(label, model, created):
            yield (
                f"AddConstraint {model}.{operation.constraint.name}",
                "Checks every row (and builds an index for a unique constraint) under a lock "
                "that stops writes to the table. Build a unique index with AddIndexOnline "
                "first, or add a check constraint NOT VALID and validate it in a later step.",
            )
        return
    if isinstance(operation, (ops.AlterUniqueTogether, ops.AlterIndexTogether)):
        model = operation.name_lower
        if _large(label, model, created) and operation.option_value:
            yield (
                f"{type(operation).__name__} {model}",
                "Builds an index under a lock that stops writes to the table. Use a "
                "constraint or index built with AddIndexOnline instead.",
            )
        return
    if isinstance(operation, ops.AddField):
        model, field = operation.model_name_lower, operation.field
        subject = f"AddField {model}.{operation.name}"
        if model in created or field.many_to_many:
            return
        if field.db_default is not models.NOT_PROVIDED and not _constant_default(field):
            yield (
                subject,
                "A db_default computed per row (not a constant) rewrites the whole table "
                "under an exclusive lock. Add the column nullable and fill it in batches.",
            )
        elif not field.null and field.db_default is models.NOT_PROVIDED:
            yield (
                subject,
                "A NOT NULL column without a db_default: the previous release, still serving "
                "while and after this migrates, inserts rows without it and fails. Make it "
                "`null=True`, or give it a constant `db_default`.",
            )
        if _has_index(field) and _large(label, model, created):
            yield (
                f"{subject} (index)",
                "Its index (db_index, unique, or a ForeignKey's own) is built under a lock "
                "that stops writes to the table. Add the field with `db_index=False` and the "
                "index with AddIndexOnline.",
            )
        return
    if isinstance(operation, ops.AlterField):
        model = operation.model_name_lower
        subject = f"AlterField {model}.{operation.name}"
        if model in created:
            return
        after = state.clone()
        operation.state_forwards(label, after)
        old = state.apps.get_model(label, model)._meta.get_field(operation.name)
        new = after.apps.get_model(label, model)._meta.get_field(operation.name)
        if old.null and not new.null:
            yield (
                subject,
                "Made NOT NULL: the previous release may still write NULL, and PostgreSQL "
                "checks every row under an exclusive lock. Ship the code that always writes "
                "it first; make the column NOT NULL in a later release.",
            )
        old_type, new_type = _column_type(old), _column_type(new)
        if old_type != new_type and not _widened_varchar(old_type, new_type):
            yield (
                f"{subject} (type)",
                f"Changes the column from {old_type} to {new_type}, which rewrites the table "
                "under an exclusive lock (and the previous release expects the old type). Add "
                "a new column, fill it in batches, then move the code to it.",
            )
        if _has_index(new) and not _has_index(old) and _large(label, model, created):
            yield (
                f"{subject} (index)",
                "Adds an index under a lock that stops writes to the table. Use "
                "AddIndexOnline instead.",
            )
        return
    if isinstance(operation, (ops.RemoveField, ops.DeleteModel)):
        name = (
            f"{operation.model_name_lower}.{operation.name_lower}"
            if isinstance(operation, ops.RemoveField)
            else operation.name_lower
        )
        yield (
            f"{type(operation).__name__} {name}",
            "The previous release still reads and writes it while this release migrates and "
            "starts. Stop using it first (remove it from the model with "
            "SeparateDatabaseAndState and state_operations only), and drop it in the next "
            "release's migration.",
        )
        return
    if isinstance(operation, (ops.RenameField, ops.RenameModel, ops.AlterModelTable)):
        name = (
            f"{operation.model_name_lower}.{operation.old_name_lower}"
            if isinstance(operation, ops.RenameField)
            else getattr(operation, "old_name_lower", None) or operation.name_lower
        )
        yield (
            f"{type(operation).__name__} {name}",
            "The previous release still uses the old name while this release migrates and "
            "starts. Add the new column or table, write both, move the readers, and remove "
            "the old one in a later release.",
        )
        return
    if isinstance(operation, ops.RunPython):
        if operation.code is ops.RunPython.noop:
            return
        yield (
            f"RunPython {getattr(operation.code, '__name__', 'code')}",
            "Python run by the migration must be read by a person: a backfill of a large "
            "table works in batches of a few thousand rows, each in its own transaction "
            "(`atomic = False`).",
        )
        return
    if isinstance(operation, ops.RunSQL):
        yield (
            f"RunSQL {position}",
            "SQL run by the migration must be read by a person: nothing that rewrites or "
            "locks a large table (an index: CREATE INDEX CONCURRENTLY in a migration with "
            "`atomic = False`).",
        )
        return
    if isinstance(
        operation,
        (
            ops.AlterModelOptions,
            ops.AlterModelManagers,
            ops.AlterOrderWithRespectTo,
            ops.RemoveIndex,
            ops.RenameIndex,
            ops.RemoveConstraint,
        ),
    ):
        return
    yield (
        f"{type(operation).__name__} {position}",
        "An operation this check does not know: say why it is safe.",
    )


def migration_findings(
    label: str, migration: Migration, state: ProjectState, source: str = ""
) -> list[Finding]:
    """What `migration` (of app `label`, run on `state`) breaks of the rules, less what the
    `# upgrade-safe: <subject>: <why>` comments of its `source` allow."""
    allowed = {m["subject"].strip() for m in MARKER.finditer(source)}
    state = state.clone()
    created: set[str] = set()
    findings = []
    for position, operation in enumerate(migration.operations, start=1):
        for subject, problem in _operation_findings(
            label, migration, operation, state, created, position
        ):
            if subject not in allowed:
                findings.append(Finding(f"{label}.{migration.name}", subject, problem))
        operation.state_forwards(label, state)
    return findings


def unreleased_findings() -> list[Finding]:
    """The findings of every migration after the release baseline."""
    loader = MigrationLoader(None, ignore_no_migrations=True)
    findings = []
    for label, name in unreleased_migrations(loader):
        migration = loader.graph.nodes[label, name]
        state = loader.project_state((label, name), at_end=False)
        source = inspect.getsource(inspect.getmodule(migration) or type(migration))
        findings += migration_findings(label, migration, state, source)
    return findings
