"""`manage.py audit_verify`: checks the audit trail's hash chain; exit status 1 on a break."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from concierge.audit.models import AuditEvent
from concierge.audit.selectors import first_broken_link


class Command(BaseCommand):
    help = (
        "Checks the audit trail's hash chain from the oldest kept entry and reports the first "
        "broken link (exit status 1)."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        broken = first_broken_link()
        if broken is not None:
            raise CommandError(f"Broken link at audit event {broken.event_id}: {broken.reason}")
        self.stdout.write(f"The audit trail is intact ({AuditEvent.objects.count()} entries).")
