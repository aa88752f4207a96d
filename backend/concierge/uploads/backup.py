"""Backing up and restoring the stored files (`manage.py backup_files`, `restore_files`), through
Django's storage API, so the same commands work for the local disk and an S3 bucket.

A backup is a folder:

    DIR/manifest.json      every file of the backup: its role, name, size and SHA-256
    DIR/uploads/<key>      the uploads storage's files (STORAGE: MEDIA_ROOT or the bucket):
                           attachments and survey answers, keys `uploads/...`
    DIR/media/<name>       the default storage's files (always MEDIA_ROOT): the pictures set in
                           Django admin (company logos, category images, partner logos)

Uploads are written once under a server-made key and never changed (only deleted, when
pruned), so backing up into the folder of an earlier backup copies only the files it does not
have yet (same name and size): a daily backup reads the whole listing but only the new bytes.
The manifest, written last, lists what the storage held at that backup; files deleted since an
earlier one stay in the folder and are not restored.

A restore writes every file of the manifest that the storage does not already hold with the
same size, after checking its SHA-256, so it can be run again after an interruption.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from django.core.files import File
from django.core.files.storage import FileSystemStorage, Storage, default_storage
from django.db.models import Q
from django.utils import timezone

from concierge.uploads.models import Upload
from concierge.uploads.storage import PROBE_PREFIX, upload_storage

MANIFEST = "manifest.json"
FORMAT = 1
UPLOAD_PREFIX = "uploads/"
CHUNK_BYTES = 1024 * 1024


@dataclass(frozen=True)
class Role:
    """One kind of stored file: where it lives and which of that storage's names are its own."""

    name: str
    storage: Callable[[], Storage]
    keeps: Callable[[str], bool]


ROLES = (
    Role("uploads", upload_storage, lambda name: name.startswith(UPLOAD_PREFIX)),
    # The default storage shares MEDIA_ROOT with the local uploads: their keys are left to
    # the uploads role (and the readiness probe's objects to nobody).
    Role(
        "media",
        lambda: default_storage,
        lambda name: not name.startswith((UPLOAD_PREFIX, PROBE_PREFIX)),
    ),
)


@dataclass
class Summary:
    files: int = 0
    bytes: int = 0
    copied: int = 0
    skipped: int = 0
    failed: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)


class BackupError(Exception):
    pass


def storage_files(storage: Storage) -> Iterator[tuple[str, int]]:
    """Every file of `storage` as (name, size): a walk of the folder on the local disk, the
    bucket's flat listing on S3 (a thousand keys a request, however deep the names)."""
    if isinstance(storage, FileSystemStorage):
        root = Path(storage.location)
        if not root.is_dir():
            return
        for folder, _dirs, files in os.walk(root):
            for filename in files:
                path = Path(folder) / filename
                yield path.relative_to(root).as_posix(), path.stat().st_size
        return
    bucket: Any = getattr(storage, "bucket", None)
    if bucket is None:  # pragma: no cover - the project's storages are the two above
        raise BackupError(f"Cannot list the files of {type(storage).__name__}")
    location = str(getattr(storage, "location", "") or "").strip("/")
    prefix = f"{location}/" if location else ""
    for item in bucket.objects.filter(Prefix=prefix):
        if not item.key.endswith("/"):
            yield item.key[len(prefix) :], int(item.size)


def _safe_relative(name: str) -> PurePosixPath:
    path = PurePosixPath(name)
    if not name or path.is_absolute() or ".." in path.parts or "\\" in name:
        raise BackupError(f"Refusing the file name {name!r}")
    return path


def _sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(CHUNK_BYTES):
            digest.update(chunk)
    return digest.hexdigest()


def _copy_out(storage: Storage, name: str, target: Path) -> tuple[int, str]:
    """Copies a stored file to `target` (through a temporary file beside it, renamed once
    complete); returns its size and SHA-256."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    digest, size = hashlib.sha256(), 0
    with storage.open(name, "rb") as source, partial.open("wb") as out:
        while chunk := source.read(CHUNK_BYTES):
            digest.update(chunk)
            size += len(chunk)
            out.write(chunk)
    partial.replace(target)
    return size, digest.hexdigest()


def _read_manifest(folder: Path) -> dict[str, Any] | None:
    path = folder / MANIFEST
    if not path.exists():
        return None
    manifest: dict[str, Any] = json.loads(path.read_text())
    if manifest.get("format") != FORMAT:
        raise BackupError(f"{path}: unknown backup format {manifest.get('format')!r}")
    return manifest


def files_backup(*, to: Path, log: Callable[[str], None] = lambda _: None) -> Summary:
    """Copies every stored file into the folder `to` (made if needed) and writes its manifest."""
    to.mkdir(parents=True, exist_ok=True)
    previous = _read_manifest(to) or {"files": {}}
    summary = Summary()
    files: dict[str, list[dict[str, Any]]] = {}
    for role in ROLES:
        known = {e["name"]: e for e in previous["files"].get(role.name, [])}
        storage = role.storage()
        entries: list[dict[str, Any]] = []
        for name, size in storage_files(storage):
            if not role.keeps(name):
                continue
            target = to / role.name / _safe_relative(name)
            if target.is_file() and target.stat().st_size == size:
                before = known.get(name)
                sha = before["sha256"] if before and before["size"] == size else None
                entries.append({"name": name, "size": size, "sha256": sha or _sha256_file(target)})
                summary.skipped += 1
            else:
                size, sha = _copy_out(storage, name, target)
                entries.append({"name": name, "size": size, "sha256": sha})
                summary.copied += 1
                log(f"{role.name}/{name}")
            summary.files += 1
            summary.bytes += size
        files[role.name] = sorted(entries, key=lambda e: e["name"])
    manifest = {"format": FORMAT, "created_at": timezone.now().isoformat(), "files": files}
    partial = to / (MANIFEST + ".partial")
    partial.write_text(json.dumps(manifest, indent=1) + "\n")
    partial.replace(to / MANIFEST)
    return summary


def _store(storage: Storage, name: str, path: Path) -> None:
    if storage.exists(name):  # a different or partial copy: replaced, never renamed beside it
        storage.delete(name)
    with path.open("rb") as handle:
        saved = storage.save(name, File(handle, name=PurePosixPath(name).name))
    if saved != name:  # pragma: no cover - the name was free
        storage.delete(saved)
        raise BackupError(f"The storage renamed {name!r} to {saved!r}")


def _attached_keys() -> Iterator[str]:
    """The keys of the files on a message or a survey answer: never pruned, so every one of
    them is in a backup made after the database's dump (an upload never attached may have been
    pruned in between)."""
    attached = Upload.objects.filter(status=Upload.Status.UPLOADED).filter(
        Q(message_link__isnull=False) | Q(survey_answers__isnull=False)
    )
    return attached.values_list("key", flat=True).distinct().iterator()


def files_restore(*, source: Path, log: Callable[[str], None] = lambda _: None) -> Summary:
    """Writes every file of the backup in `source` into its storage, unless the storage holds
    it already (same name and size). A file whose bytes do not match the manifest's SHA-256 is
    not written and listed in `failed`. Then lists in `missing` the attached files the database
    knows that the uploads storage does not hold (run it after restoring the database)."""
    manifest = _read_manifest(source)
    if manifest is None:
        raise BackupError(f"{source} holds no {MANIFEST}: not a backup made by backup_files")
    summary = Summary()
    for role in ROLES:
        storage = role.storage()
        present = dict(storage_files(storage))
        for entry in manifest["files"].get(role.name, []):
            name, size = entry["name"], int(entry["size"])
            path = source / role.name / _safe_relative(name)
            summary.files += 1
            summary.bytes += size
            if present.get(name) == size:
                summary.skipped += 1
                continue
            if not path.is_file() or _sha256_file(path) != entry["sha256"]:
                summary.failed.append(f"{role.name}/{name}")
                continue
            _store(storage, name, path)
            summary.copied += 1
            log(f"{role.name}/{name}")
    held = {name for name, _size in storage_files(upload_storage())}
    summary.missing = sorted(key for key in _attached_keys() if key not in held)
    return summary
