"""`manage.py privacy_retention`: the daily run of the companies' retention windows (part of
`daily_jobs`)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from concierge.privacy.services.retention import retention_run


class Command(BaseCommand):
    help = (
        "Erases the content of requests completed longer ago than their company's retention "
        "window, deletes expired data-export zips, and records a 'retention.run' audit event."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        summary = retention_run()
        self.stdout.write(
            f"Retention: erased {summary['requests']} requests of {summary['companies']} "
            f"companies; deleted {summary['exports_pruned']} expired exports."
        )
