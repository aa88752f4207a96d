"""`manage.py daily_jobs`: the installation's scheduled work, once a day.

systemd runs it from deploy/systemd/concierge-daily.timer; the Procfile's `scheduler` keeps it
running with `--every 86400`. Each job is safe to run on several nodes at once and again at
any time; one that fails is logged and the others still run (exit status 1).
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser

logger = logging.getLogger("concierge.daily_jobs")

# (command, arguments): what each deletes is in its own help.
DAILY_JOBS: tuple[tuple[str, tuple[str, ...]], ...] = (
    # Finished background tasks (emails, text messages) older than two weeks (django-tasks-db).
    ("prune_db_task_results", ("--queue-name", "*", "--min-age-days", "14")),
    # Uploads never completed or never attached to a message or answer, a day old.
    ("prune_uploads", ()),
    # Django admin's expired sessions.
    ("clearsessions", ()),
    # Companies' retention windows: completed requests' content erased; expired exports.
    ("privacy_retention", ()),
    # Audit events older than AUDIT_RETENTION_DAYS (default 400); the run is itself recorded.
    ("audit_prune", ()),
)


class Command(BaseCommand):
    help = (
        "Runs the daily jobs: prune_db_task_results (finished tasks older than 14 days), "
        "prune_uploads (abandoned uploads), clearsessions (expired admin sessions), "
        "privacy_retention (companies' retention windows, expired data exports) and audit_prune "
        "(audit events past AUDIT_RETENTION_DAYS). With "
        "--every SECONDS it keeps running and runs them again at that interval."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--every",
            type=int,
            default=0,
            help="keep running: the jobs now, then every this many seconds (e.g. 86400)",
        )

    def handle(self, *args: Any, every: int, **options: Any) -> None:
        if every < 0:
            raise CommandError("--every must be 0 (once) or more seconds")
        while True:
            failed = self.run_jobs()
            if not every:
                if failed:
                    raise CommandError(f"Failed: {', '.join(failed)} (see the log)")
                return
            time.sleep(every)

    def run_jobs(self) -> list[str]:
        """Runs every job; the names of those that failed."""
        failed = []
        for name, arguments in DAILY_JOBS:
            try:
                call_command(name, *arguments, stdout=self.stdout, stderr=self.stderr)
            except Exception:
                logger.exception("Daily job %s failed", name)
                failed.append(name)
        return failed
