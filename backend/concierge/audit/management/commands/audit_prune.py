"""`manage.py audit_prune`: deletes audit events older than AUDIT_RETENTION_DAYS (one of the
daily jobs) and records that it did."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from concierge.audit.services import prune_expired


class Command(BaseCommand):
    help = (
        "Deletes audit events older than AUDIT_RETENTION_DAYS (default 400) and records the "
        "run in the audit trail; the kept entries still verify (audit_verify)."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        deleted = prune_expired()
        self.stdout.write(f"Pruned {deleted} audit events.")
