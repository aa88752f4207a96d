"""`manage.py restore_files --from DIR`: a backup_files folder back into the storages
(docs/operations/backup.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from concierge.uploads.backup import BackupError, files_restore
from concierge.uploads.files import file_size_label

SHOWN = 20


class Command(BaseCommand):
    help = (
        "Writes the files of a backup_files folder (--from) into the configured storages "
        "(the uploads storage, local disk or S3 bucket, and MEDIA_ROOT), skipping those "
        "already there with the same size and refusing any whose bytes do not match the "
        "manifest. Then checks that every file the database knows on a message or a survey "
        "answer is stored: restore the database first. Exits with an error when a file failed "
        "or is missing."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--from", dest="source", required=True, type=Path, help="the backup folder"
        )

    def handle(self, *args: Any, source: Path, verbosity: int, **options: Any) -> None:
        log = self.stdout.write if verbosity > 1 else (lambda _: None)
        try:
            summary = files_restore(source=source, log=log)
        except BackupError as error:
            raise CommandError(str(error)) from error
        not_restored = f", {len(summary.failed)} not restored" if summary.failed else ""
        self.stdout.write(
            f"{_files(summary.files)} in {source} ({file_size_label(summary.bytes)}): "
            f"{summary.copied} written, {summary.skipped} already there{not_restored}."
        )
        problems = []
        if summary.failed:
            problems.append(
                f"{_files(len(summary.failed))} not restored, not matching the manifest "
                f"(damaged or missing in the backup): {', '.join(summary.failed[:SHOWN])}"
            )
        if summary.missing:
            problems.append(
                f"{_files(len(summary.missing))} attached to messages or answers in the database "
                f"not in the storage: {', '.join(summary.missing[:SHOWN])}"
            )
        if problems:
            raise CommandError("\n".join(problems))


def _files(count: int) -> str:
    return f"{count} file" if count == 1 else f"{count} files"
