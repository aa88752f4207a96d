"""Hand-written SQL for the hottest reads and writes, written once per database vendor.

Every API request runs the session query, and the employee's lists and threads are the most
read endpoints: compiling their SQL through the ORM costs several times what the database
spends answering it. These helpers keep such SQL built from the models' own metadata (table
and column names, the backend's value converters), so a renamed column still reads right.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Generic, TypeVar

from django.db import connection
from django.db.models import Model
from django.db.models.signals import post_save, pre_save

M = TypeVar("M", bound=Model)

# A time column as the API's JSON writes it (DjangoJSONEncoder: milliseconds, cut rather than
# rounded, left out when they are zero; 'Z' for UTC), written by the database; NULL stays NULL.
# SQLite keeps Django's datetimes as UTC text, 'YYYY-MM-DD HH:MM:SS[.ffffff]'.
_API_TIME = {
    "postgresql": (
        "to_char({0} AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS') || CASE WHEN "
        "date_trunc('second', {0}) = {0} THEN 'Z' ELSE to_char({0} AT TIME ZONE 'UTC', "
        "'.MS\"Z\"') END"
    ),
    "sqlite": "replace(substr({0}, 1, 23), ' ', 'T') || 'Z'",
}


def api_time_sql(column: str, vendor: str | None = None) -> str:
    """SQL for `column` (a timestamp) as the API's JSON text of it."""
    return _API_TIME[vendor or connection.vendor].format(column)


def uuid_text_sql(column: str, vendor: str | None = None) -> str:
    """SQL for `column` (a UUIDField) as text with dashes: SQLite keeps it as 32 hex digits."""
    if (vendor or connection.vendor) == "postgresql":
        return f"{column}::text"
    parts = ((1, 8), (9, 4), (13, 4), (17, 4), (21, 12))
    return " || '-' || ".join(f"substr({column}, {start}, {length})" for start, length in parts)


def row_split(row: Sequence[Any], parts: Sequence[ModelColumns]) -> list[Sequence[Any]]:
    """A row of several models' columns, cut into each one's values."""
    cut, start = [], 0
    for part in parts:
        cut.append(row[start : start + len(part)])
        start += len(part)
    return cut


class ModelColumns(Generic[M]):
    """A model's concrete columns under a table alias: `sql` selects them, `instance` makes
    the model instance of their values in a row, as the ORM would (the backend's and the
    fields' converters applied: SQLite's text times become aware datetimes)."""

    def __init__(self, model: type[M], alias: str) -> None:
        self.model = model
        self.fields = list(model._meta.concrete_fields)
        self.names = [f.attname for f in self.fields]
        quote = connection.ops.quote_name
        self.sql = ", ".join(f"{alias}.{quote(str(f.column))}" for f in self.fields)
        self._converters: dict[str, list[tuple[int, list[Any], Any]]] = {}

    def __len__(self) -> int:
        return len(self.fields)

    def _converters_for(self) -> list[tuple[int, list[Any], Any]]:
        vendor = connection.vendor
        if vendor not in self._converters:
            found = []
            for position, field in enumerate(self.fields):
                column = field.get_col(self.model._meta.db_table)
                converters = connection.ops.get_db_converters(column) + column.get_db_converters(
                    connection
                )
                if converters:
                    found.append((position, converters, column))
            self._converters[vendor] = found
        return self._converters[vendor]

    def instance(self, values: Sequence[Any]) -> M:
        row = list(values)
        for position, converters, column in self._converters_for():
            for convert in converters:
                row[position] = convert(row[position], column, connection)
        return self.model.from_db(connection.alias, self.names, row)


class ModelInsert(Generic[M]):
    """`Model.objects.create` for a hot write, its INSERT written once: each field's `pre_save`
    and database value as the ORM writes them, and the new primary key set on the instance.
    Models with a save signal go through the ORM's save, so no receiver is ever skipped."""

    def __init__(self, model: type[M]) -> None:
        meta = model._meta
        if meta.pk is None or meta.pk is not meta.auto_field:
            raise TypeError(f"{model.__name__} needs an auto-incremented primary key")
        self.model = model
        self.fields = [f for f in meta.concrete_fields if f is not meta.pk]
        self._sql: dict[str, str] = {}

    def _sql_for(self) -> str:
        vendor = connection.vendor
        if vendor not in self._sql:
            quote = connection.ops.quote_name
            meta = self.model._meta
            columns = ", ".join(quote(str(f.column)) for f in self.fields)
            values = ", ".join(["%s"] * len(self.fields))
            pk_column = quote(str(meta.pk.column))  # type: ignore[union-attr]
            self._sql[vendor] = (
                f"INSERT INTO {quote(meta.db_table)} ({columns}) VALUES ({values}) "  # noqa: S608 (model table)
                f"RETURNING {pk_column}"
            )
        return self._sql[vendor]

    def save(self, instance: M) -> M:
        if pre_save.has_listeners(self.model) or post_save.has_listeners(self.model):
            instance.save(force_insert=True)
            return instance
        values = [f.get_db_prep_save(f.pre_save(instance, True), connection) for f in self.fields]
        with connection.cursor() as cursor:
            cursor.execute(self._sql_for(), values)
            (instance.pk,) = cursor.fetchone()
        instance._state.adding = False
        instance._state.db = connection.alias
        return instance
