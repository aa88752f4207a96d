"""Issue 27, the audit trail: tamper evidence (`manage.py audit_verify`) and retention (the
daily prune that leaves an entry itself)."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.utils import timezone

from concierge.audit import actions
from concierge.audit.models import AuditEvent
from concierge.audit.services import audit_record

pytestmark = pytest.mark.django_db


def _write(count: int) -> list[AuditEvent]:
    for n in range(count):
        audit_record(action=actions.SIGN_IN_SUCCEEDED, actor_role="member", details={"n": n})
    return list(AuditEvent.objects.order_by("id"))


def _delete_in_the_database(event: AuditEvent) -> None:
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM audit_auditevent WHERE id = %s", [event.id])


def _verify_finds(message: str) -> None:
    """`manage.py audit_verify` fails, saying `message` (the start of its reason)."""
    with pytest.raises(CommandError, match=message):
        call_command("audit_verify")


def test_an_intact_chain_verifies():
    """issue 27 audit trail: `manage.py audit_verify` passes an untouched chain."""
    _write(3)
    out = StringIO()
    call_command("audit_verify", stdout=out)
    assert "intact (3 entries)" in out.getvalue()


def test_a_row_edited_in_the_database_is_found():
    """issue 27 audit trail: a test edits a row in the database and the check finds it."""
    events = _write(4)
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE audit_auditevent SET action = %s WHERE id = %s",
            [actions.SIGN_IN_FAILED, events[1].id],
        )
    _verify_finds(f"audit event {events[1].id}: its fields")


def test_a_row_deleted_in_the_middle_is_found():
    """issue 27 audit trail: deleting an entry breaks the next entry's link."""
    events = _write(4)
    _delete_in_the_database(events[2])
    _verify_finds(f"audit event {events[3].id}: its previous hash")


def test_an_entry_is_never_updated_through_the_orm():
    """issue 27 audit trail: append-only."""
    event = _write(1)[0]
    event.action = "changed"
    with pytest.raises(ValueError):
        event.save()


def test_the_daily_prune_keeps_the_window_and_records_itself(settings):
    """issue 27 audit trail: kept AUDIT_RETENTION_DAYS, pruned by a daily job that leaves an
    entry; the kept entries still verify from the oldest kept."""
    settings.AUDIT_RETENTION_DAYS = 400
    events = _write(4)
    old = timezone.now() - timedelta(days=401)
    with connection.cursor() as cursor:  # age the first two (their hashes no longer matter)
        cursor.execute(
            "UPDATE audit_auditevent SET occurred_at = %s WHERE id IN (%s, %s)",
            [old, events[0].id, events[1].id],
        )
    call_command("daily_jobs", stdout=StringIO())
    kept = list(AuditEvent.objects.order_by("id"))
    assert [e.id for e in kept[:2]] == [events[2].id, events[3].id]
    pruned = AuditEvent.objects.get(action=actions.AUDIT_PRUNED)
    assert pruned.details["deleted"] == 2 and pruned.details["retention_days"] == 400
    assert pruned.details["last_deleted"] == events[1].hash
    call_command("audit_verify", stdout=StringIO())


def _prune_the_first(events: list[AuditEvent], count: int) -> None:
    """Ages the first `count` entries past the window (their hashes no longer matter) and runs
    the daily prune."""
    old = timezone.now() - timedelta(days=401)
    with connection.cursor() as cursor:
        for event in events[:count]:
            cursor.execute(
                "UPDATE audit_auditevent SET occurred_at = %s WHERE id = %s", [old, event.id]
            )
    call_command("audit_prune", stdout=StringIO())


def test_after_a_prune_an_edited_row_is_found():
    """issue 27 audit trail: after the daily prune, a row edited in the database is still
    found (the oldest kept entry first of all)."""
    events = _write(4)
    _prune_the_first(events, 2)
    call_command("audit_verify", stdout=StringIO())
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE audit_auditevent SET actor_role = %s WHERE id = %s", ["staff", events[2].id]
        )
    _verify_finds(f"audit event {events[2].id}: its fields")


def test_after_a_prune_deleting_the_oldest_kept_row_is_found():
    """issue 27 audit trail: the prune records the hash of the last entry it deleted, and the
    check holds the oldest kept entry to it: deleting the first surviving row is found."""
    events = _write(4)
    _prune_the_first(events, 2)
    _delete_in_the_database(events[2])
    _verify_finds(f"audit event {events[3].id}: its previous hash is not the hash the last prune")


def test_without_a_prune_deleting_the_first_row_is_found():
    """issue 27 audit trail: before any prune the chain starts from nothing, so deleting its
    first entry is found too."""
    events = _write(3)
    _delete_in_the_database(events[0])
    _verify_finds(f"audit event {events[1].id}: its previous hash")


def test_a_prune_that_deletes_every_entry_still_verifies():
    """issue 27 audit trail: a prune that leaves only its own entry chains it to the last entry
    it deleted."""
    events = _write(2)
    _prune_the_first(events, 2)
    [pruned] = AuditEvent.objects.all()
    assert pruned.previous_hash == pruned.details["last_deleted"] == events[1].hash
    call_command("audit_verify", stdout=StringIO())
