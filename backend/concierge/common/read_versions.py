# ruff: noqa: S608 (trigger DDL built from our own table names, never from input)
"""Database triggers that give an owner's cached reads a new version (models.ReadVersion) in
the same transaction as any write to the rows those reads show.

Each watched table names, in SQL, the owner a row belongs to (`{row}` stands for the trigger's
NEW or OLD row); an update bumps the owners of both the old and the new row, so a request moved
to another employee leaves its former owner's reads too. Versions are random, never counted:
one set by a transaction that rolled back never comes back.

The triggers live in the migrations of the app that owns the cached read (it knows what its
read shows); `read_version_triggers(...)` is the migration operation.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import migrations

SHARED_OWNER = 0
VERSION_TABLE = "common_readversion"

# PL/pgSQL rather than SQL: PostgreSQL keeps a PL/pgSQL function's plans for the session, where
# it plans an SQL function's INSERT again on every call (most of a bump's cost, and a write
# bumps several times).
_PG_BUMP_FUNCTION = f"""
CREATE OR REPLACE FUNCTION common_read_version_bump(owner bigint) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF owner IS NULL THEN RETURN; END IF;
  INSERT INTO {VERSION_TABLE} (owner_id, version)
  VALUES (owner, md5(random()::text || clock_timestamp()::text))
  ON CONFLICT (owner_id) DO UPDATE SET version = EXCLUDED.version;
END $$;
"""


ALL_OPERATIONS = ("INSERT", "UPDATE", "DELETE")


@dataclass(frozen=True)
class Watched:
    """A table whose rows cached reads show, and the SQL of the owner id of a row `{row}`;
    `operations`: the writes that bump (an owner's first version: INSERT alone)."""

    table: str
    owner_sql: str
    operations: tuple[str, ...] = ALL_OPERATIONS

    def owner(self, row: str) -> str:
        return self.owner_sql.format(row=row)

    @property
    def trigger(self) -> str:
        return f"read_version_{self.table}"


def _postgresql_install(watched: Watched) -> list[str]:
    name = watched.trigger
    operations = " OR ".join(watched.operations)
    truncate = [
        f"DROP TRIGGER IF EXISTS {name}_truncate ON {watched.table};",
        f"CREATE TRIGGER {name}_truncate AFTER TRUNCATE ON {watched.table} "
        f"FOR EACH STATEMENT EXECUTE FUNCTION {name}();",
    ]
    return [
        f"""
CREATE OR REPLACE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  old_owner bigint;
  new_owner bigint;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE {VERSION_TABLE} SET version = md5(random()::text || owner_id::text);
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN old_owner := {watched.owner("OLD")}; END IF;
  IF TG_OP <> 'DELETE' THEN new_owner := {watched.owner("NEW")}; END IF;
  -- An update that keeps the row's owner bumps that owner once.
  IF old_owner IS DISTINCT FROM new_owner THEN PERFORM common_read_version_bump(old_owner); END IF;
  PERFORM common_read_version_bump(new_owner);
  RETURN NULL;
END $$;
""",
        f"DROP TRIGGER IF EXISTS {name} ON {watched.table};",
        f"CREATE TRIGGER {name} AFTER {operations} ON {watched.table} "
        f"FOR EACH ROW EXECUTE FUNCTION {name}();",
    ] + (truncate if "DELETE" in watched.operations else [])


def _postgresql_uninstall(watched: Watched) -> list[str]:
    name = watched.trigger
    return [
        f"DROP TRIGGER IF EXISTS {name} ON {watched.table};",
        f"DROP TRIGGER IF EXISTS {name}_truncate ON {watched.table};",
        f"DROP FUNCTION IF EXISTS {name}();",
    ]


_SQLITE_ROWS = {"INSERT": ("NEW",), "UPDATE": ("OLD", "NEW"), "DELETE": ("OLD",)}


def _sqlite_install(watched: Watched) -> list[str]:
    statements = []
    for operation in watched.operations:
        rows = _SQLITE_ROWS[operation]
        owners = " UNION ".join(f"SELECT {watched.owner(row)} AS owner" for row in rows)
        statements += [
            f"DROP TRIGGER IF EXISTS {watched.trigger}_{operation.lower()};",
            f"""
CREATE TRIGGER {watched.trigger}_{operation.lower()} AFTER {operation} ON {watched.table}
BEGIN
  INSERT INTO {VERSION_TABLE} (owner_id, version)
  SELECT owner, lower(hex(randomblob(16))) FROM ({owners}) WHERE owner IS NOT NULL
  ON CONFLICT (owner_id) DO UPDATE SET version = excluded.version;
END;
""",
        ]
    return statements


def _sqlite_uninstall(watched: Watched) -> list[str]:
    return [
        f"DROP TRIGGER IF EXISTS {watched.trigger}_{operation.lower()};"
        for operation in _SQLITE_ROWS
    ]


def install_statements(vendor: str, watched: list[Watched]) -> list[str]:
    if vendor == "postgresql":
        return [_PG_BUMP_FUNCTION] + [s for w in watched for s in _postgresql_install(w)]
    if vendor == "sqlite":
        return [s for w in watched for s in _sqlite_install(w)]
    raise NotImplementedError(f"Cached reads need version triggers on {vendor}.")


def uninstall_statements(vendor: str, watched: list[Watched]) -> list[str]:
    if vendor == "postgresql":
        return [s for w in watched for s in _postgresql_uninstall(w)]
    return [s for w in watched for s in _sqlite_uninstall(w)]


def read_version_triggers(*watched: Watched) -> migrations.RunPython:
    """The migration operation that installs (and, backwards, removes) these triggers."""

    def install(apps, schema_editor) -> None:  # type: ignore[no-untyped-def]
        for statement in install_statements(schema_editor.connection.vendor, list(watched)):
            schema_editor.execute(statement, params=None)

    def uninstall(apps, schema_editor) -> None:  # type: ignore[no-untyped-def]
        for statement in uninstall_statements(schema_editor.connection.vendor, list(watched)):
            schema_editor.execute(statement, params=None)

    return migrations.RunPython(install, uninstall)


def read_version_functions_replaced(*watched: Watched) -> migrations.RunPython:
    """The migration operation that replaces the functions of installed PostgreSQL triggers
    with this module's (`CREATE OR REPLACE FUNCTION` alone: the triggers, and SQLite's, which
    have no functions, stay as they are, so no table is locked). Backwards it leaves them, as
    they bump the same owners."""

    def replace(apps, schema_editor) -> None:  # type: ignore[no-untyped-def]
        if schema_editor.connection.vendor != "postgresql":
            return
        for statement in install_statements("postgresql", list(watched)):
            if statement.lstrip().startswith("CREATE OR REPLACE FUNCTION"):
                schema_editor.execute(statement, params=None)

    return migrations.RunPython(replace, migrations.RunPython.noop)


def installed_triggers(connection) -> set[str]:  # type: ignore[no-untyped-def]
    """The names of the read-version triggers in the database (for tests and checks)."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT tgname FROM pg_trigger WHERE tgname LIKE 'read_version_%%'")
        else:
            cursor.execute(
                "SELECT name FROM sqlite_master WHERE type = 'trigger' "
                "AND name LIKE 'read_version_%'"
            )
        return {row[0] for row in cursor.fetchall()}
