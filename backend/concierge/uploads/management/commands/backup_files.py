"""`manage.py backup_files --to DIR`: every stored file into a folder (docs/operations/backup.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from concierge.uploads.backup import BackupError, files_backup
from concierge.uploads.files import file_size_label


class Command(BaseCommand):
    help = (
        "Copies every stored file (the uploads storage, local disk or S3 bucket, and the "
        "pictures set in Django admin) into the folder --to, with a manifest of their sizes "
        "and SHA-256. Into the folder of an earlier backup, only new files are copied. Back up "
        "the database first, then the files."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--to", required=True, type=Path, help="the backup folder")

    def handle(self, *args: Any, to: Path, verbosity: int, **options: Any) -> None:
        log = self.stdout.write if verbosity > 1 else (lambda _: None)
        try:
            summary = files_backup(to=to, log=log)
        except BackupError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(
            f"Backed up {summary.files} files ({file_size_label(summary.bytes)}) to {to}: "
            f"{summary.copied} copied, {summary.skipped} already there."
        )
