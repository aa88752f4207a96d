"""`manage.py prune_uploads`: deletes uploads never completed or never attached."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from concierge.uploads.services import uploads_prune_abandoned


class Command(BaseCommand):
    help = (
        "Deletes uploads (the stored file and its row) older than --min-age-hours (default 24) "
        "that were never completed or never attached to a message or a survey answer. "
        "Run it hourly or daily."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--min-age-hours", type=int, default=24)

    def handle(self, *args: Any, min_age_hours: int, **options: Any) -> None:
        if min_age_hours < 1:
            raise CommandError("--min-age-hours must be at least 1")
        count = uploads_prune_abandoned(older_than=timedelta(hours=min_age_hours))
        self.stdout.write(f"Deleted {count} abandoned upload{'s' if count != 1 else ''}.")
