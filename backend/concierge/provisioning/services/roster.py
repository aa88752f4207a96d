"""The roster import: a company admin's CSV of the staff list (email, employee id, first and
last name, status), previewed row by row, then applied through the same record services as
SCIM. Applying reads and checks the file again, so what is applied is what the rules allow
now; applying the same file twice changes nothing the second time. People the file does not
list are left as they are (a roster is not a list of leavers)."""

from __future__ import annotations

import csv
import io
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime

from django.db import connection, transaction
from django.utils import timezone

from concierge.accounts.models import Company, EmployeeRecord, User
from concierge.audit import actions as audit_actions
from concierge.audit.middleware import acting_as, request_actor
from concierge.audit.services import audit_record
from concierge.provisioning.selectors import company_records_by_email
from concierge.provisioning.services.records import (
    EMPLOYEE_ID_MAX,
    NAME_MAX,
    RecordFields,
    RecordInvalid,
    email_clean,
    record_account_link,
    record_fields_assign,
    record_update,
    text_clean,
)

ROSTER_MAX_BYTES = 5 * 1024 * 1024
ROSTER_MAX_ROWS = 50_000
LISTED_MAX = 2_000  # rows listed in a preview or result (all are counted)

# Header names (lower-case, without spaces, '_', '-' or '.') and the column they name.
HEADERS = {
    "email": {"email", "emailaddress", "workemail", "mail", "e-mail", "username"},
    "employee_id": {
        "employeeid",
        "employeenumber",
        "employeeno",
        "staffid",
        "staffnumber",
        "personnelnumber",
        "id",
        "workerid",
    },
    "first_name": {"firstname", "givenname", "forename", "first"},
    "last_name": {"lastname", "surname", "familyname", "last"},
    "status": {"status", "active", "state", "employmentstatus"},
}
ACTIVE_WORDS = {"active", "yes", "y", "true", "1", "employed"}
INACTIVE_WORDS = {
    "inactive",
    "no",
    "n",
    "false",
    "0",
    "terminated",
    "left",
    "leaver",
    "deactivated",
}


NOT_YOURSELF = "You can't deactivate yourself: this row is skipped."


class RosterUnreadable(ValueError):
    """The file as a whole cannot be read (not CSV text, no email column, too big)."""


@dataclass
class RosterRow:
    row: int  # the line in the file; the header is row 1
    email: str
    action: str  # create, update, deactivate, reactivate, unchanged, error
    changes: list[str] = field(default_factory=list)
    reason: str = ""
    fields: RecordFields | None = None


@dataclass
class RosterPlan:
    rows: list[RosterRow]

    @property
    def counts(self) -> dict[str, int]:
        counted = Counter(r.action for r in self.rows)
        actions = ("create", "update", "deactivate", "reactivate", "unchanged", "error")
        return {action: counted.get(action, 0) for action in actions}


def roster_plan(*, company: Company, content: bytes, admin: User | None = None) -> RosterPlan:
    """What applying the file would do, row by row (nothing is written). The `admin` who
    imports it cannot deactivate themselves, as on the members page."""
    existing = company_records_by_email(company=company)
    seen: dict[str, int] = {}
    rows = []
    for number, values in _rows(content):
        row = _row_plan(number, values, existing, seen)
        if row.action == "deactivate" and admin and existing[row.email].user_id == admin.pk:
            row = RosterRow(row=number, email=row.email, action="error", reason=NOT_YOURSELF)
        rows.append(row)
    return RosterPlan(rows=rows)


def _normalise_header(name: str) -> str:
    return "".join(ch for ch in name.strip().lower() if ch not in " _-.")


def _rows(content: bytes) -> list[tuple[int, dict[str, str]]]:
    if len(content) > ROSTER_MAX_BYTES:
        raise RosterUnreadable(f"The file is larger than {ROSTER_MAX_BYTES // (1024 * 1024)} MB.")
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise RosterUnreadable("The file is not UTF-8 text: save it as 'CSV UTF-8'.") from None
    if "\x00" in text:
        raise RosterUnreadable("The file is not a CSV text file.")
    first_line = text.split("\n", 1)[0]
    delimiter = max((";", ",", "\t"), key=first_line.count)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        header = next(reader, None)
        if header is None:
            raise RosterUnreadable("The file is empty.")
        columns = _columns(header)
        rows: list[tuple[int, dict[str, str]]] = []
        for values in reader:
            if not any(v.strip() for v in values):
                continue
            if len(rows) >= ROSTER_MAX_ROWS:
                raise RosterUnreadable(f"The file has more than {ROSTER_MAX_ROWS:,} rows.")
            named = {
                key: values[index] if index < len(values) else "" for key, index in columns.items()
            }
            rows.append((reader.line_num, named))
    except csv.Error as exc:
        raise RosterUnreadable(f"The file could not be read as CSV: {exc}.") from None
    return rows


def _columns(header: list[str]) -> dict[str, int]:
    columns: dict[str, int] = {}
    for index, name in enumerate(header):
        normalised = _normalise_header(name)
        for key, names in HEADERS.items():
            if normalised in names and key not in columns:
                columns[key] = index
    if "email" not in columns:
        raise RosterUnreadable(
            "The file needs a header row with an 'email' column (and optionally 'employee id', "
            "'first name', 'last name' and 'status')."
        )
    return columns


def _status(value: str) -> bool | None:
    """True (active), False (inactive), or None when the file says nothing (no status column
    or an empty cell): a new person is then active and a known one keeps their status, so a
    file without statuses never brings back someone the employer deactivated."""
    word = value.strip().lower()
    if not word:
        return None
    if word in ACTIVE_WORDS:
        return True
    if word in INACTIVE_WORDS:
        return False
    raise RecordInvalid("status", f"Unknown status '{value.strip()[:40]}': use active or inactive.")


def _row_fields(values: dict[str, str]) -> RecordFields:
    def optional(key: str, label: str, limit: int) -> str | None:
        return text_clean(label, values[key], limit) if key in values else None

    return RecordFields(
        email=email_clean(values.get("email", "")),
        employee_id=optional("employee_id", "employee id", EMPLOYEE_ID_MAX),
        first_name=optional("first_name", "first name", NAME_MAX),
        last_name=optional("last_name", "last name", NAME_MAX),
        active=_status(values.get("status", "")),
    )


def _row_plan(
    number: int, values: dict[str, str], existing: dict[str, EmployeeRecord], seen: dict[str, int]
) -> RosterRow:
    email_text = values.get("email", "").strip()[:254]
    try:
        fields = _row_fields(values)
    except RecordInvalid as exc:
        return RosterRow(row=number, email=email_text, action="error", reason=exc.message)
    if fields.email in seen:
        return RosterRow(
            row=number,
            email=fields.email,
            action="error",
            reason=f"Duplicate row: the same email as row {seen[fields.email]}.",
        )
    seen[fields.email] = number
    record = existing.get(fields.email)
    if record is None:
        return RosterRow(row=number, email=fields.email, action="create", fields=fields)
    changes = [
        name
        for name in ("employee_id", "first_name", "last_name")
        if getattr(fields, name) is not None and getattr(fields, name) != getattr(record, name)
    ]
    if record.active and fields.active is False:
        action = "deactivate"
    elif not record.active and fields.active:
        action = "reactivate"
    else:
        action = "update" if changes else "unchanged"
    return RosterRow(row=number, email=fields.email, action=action, changes=changes, fields=fields)


@transaction.atomic
def roster_apply(*, company: Company, content: bytes, admin: User | None = None) -> RosterPlan:
    """Plans the file again and applies its valid rows; rows in error are skipped. Rows that
    touch no account are written in bulk; the others go one by one through the record
    services (a membership to end or start, sessions to sign out).

    One import of a company at a time: another one waits here, then plans against what this
    one wrote (planning first, both would create the same records)."""
    Company.objects.select_for_update(no_key=True).filter(pk=company.pk).first()
    plan = roster_plan(company=company, content=content, admin=admin)
    creates = [r.fields for r in plan.rows if r.action == "create" and r.fields is not None]
    changes = [
        r for r in plan.rows if r.action in ("update", "deactivate", "reactivate") and r.fields
    ]
    with_accounts = _emails_with_accounts([f.email for f in creates] + [r.email for r in changes])
    with acting_as(role=audit_actions.COMPANY_ADMIN_ROLE, via="roster"):
        _records_create(company, creates, with_accounts)
        _records_change(company, changes, with_accounts)
    audit_record(
        action=audit_actions.ROSTER_IMPORTED,
        actor=request_actor(),
        actor_role=audit_actions.COMPANY_ADMIN_ROLE,
        target_type="company",
        target_id=company.pk,
        company_id=company.pk,
        details=plan.counts,
    )
    return plan


def _emails_with_accounts(emails: list[str]) -> set[str]:
    found: set[str] = set()
    for start in range(0, len(emails), 5000):
        chunk = emails[start : start + 5000]
        found.update(
            e.lower() for e in User.objects.filter(email__in=chunk).values_list("email", flat=True)
        )
    return found


def _records_change(company: Company, rows: list[RosterRow], with_accounts: set[str]) -> None:
    """Names and employee ids in one bulk update; then each change of status: in bulk for
    records that concern no account, through `record_update` for the others."""
    existing = company_records_by_email(company=company)
    now = timezone.now()
    named = []
    for row in rows:
        record = existing[row.email]
        fields = RecordFields(
            email=record.email,
            first_name=row.fields.first_name if row.fields else None,
            last_name=row.fields.last_name if row.fields else None,
            employee_id=row.fields.employee_id if row.fields else None,
        )
        if record_fields_assign(record, fields):
            record.updated_at = now
            named.append(record)
    _names_write(named, now)
    for action, active in (("deactivate", False), ("reactivate", True)):
        records = [existing[r.email] for r in rows if r.action == action]
        alone = {r.pk for r in records if r.user_id is None and r.email not in with_accounts}
        EmployeeRecord.objects.filter(pk__in=alone).update(
            active=active, deactivated_at=None if active else now, updated_at=now
        )
        for record in records:
            if record.pk not in alone:
                record_update(record=record, fields=RecordFields(email=record.email, active=active))
    for row in rows:
        record = existing[row.email]
        if row.action == "update" and record.user_id is None and record.email in with_accounts:
            record_account_link(record)


def _names_write(records: list[EmployeeRecord], now: datetime) -> None:
    """One UPDATE ... FROM (VALUES ...) per 1,000 records: Django's bulk_update builds a CASE
    per field and row, which takes tens of seconds for 10,000 rows."""
    table = connection.ops.quote_name(EmployeeRecord._meta.db_table)
    for start in range(0, len(records), 1000):
        batch = records[start : start + 1000]
        rows = ", ".join(["(%s::bigint, %s, %s, %s)"] * len(batch))
        params: list[int | str | datetime] = [now]
        for r in batch:
            params += [r.pk, r.first_name, r.last_name, r.employee_id]
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {table} AS r SET first_name = v.first_name, last_name = v.last_name, "  # noqa: S608 (our table's name; values are parameters)
                f"employee_id = v.employee_id, updated_at = %s "
                f"FROM (VALUES {rows}) AS v(id, first_name, last_name, employee_id) "
                f"WHERE r.id = v.id",
                params,
            )


def _records_create(company: Company, rows: list[RecordFields], with_accounts: set[str]) -> None:
    """New records in one insert; those whose person already has an account are linked and
    join the company through the record services."""
    now = timezone.now()
    records = [
        EmployeeRecord(
            company=company,
            email=f.email,
            employee_id=f.employee_id or "",
            first_name=f.first_name or "",
            last_name=f.last_name or "",
            active=f.active is not False,
            deactivated_at=None if f.active is not False else now,
            source=EmployeeRecord.Source.ROSTER,
            created_at=now,
            updated_at=now,
        )
        for f in rows
    ]
    EmployeeRecord.objects.bulk_create(records, batch_size=1000)
    linking = [f.email for f in rows if f.email in with_accounts]
    if linking:
        linked = EmployeeRecord.objects.filter(company=company, email__in=linking)
        for record in linked.select_related("company"):
            record_account_link(record)
