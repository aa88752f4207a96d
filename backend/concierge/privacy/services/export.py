"""'Download my data' for the signed-in employee: asking for it (one at a time) and taking
the zip with the emailed link (once, before it expires, as its owner)."""

from __future__ import annotations

import re
import shutil
import tempfile
from datetime import timedelta
from typing import IO, Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from concierge.audit import actions
from concierge.audit.services import audit_record
from concierge.common.errors import ApiError, NotFound
from concierge.notifications.background import enqueue_on_commit
from concierge.privacy.export_build import token_hash
from concierge.privacy.models import DataExport
from concierge.privacy.tasks import data_export_build_task
from concierge.uploads.personal_data import export_file_delete, export_file_open

# A build still unfinished after this long lost its worker: a new request may start.
BUILD_STALE_AFTER = timedelta(hours=1)
RUNNING = (DataExport.Status.PENDING, DataExport.Status.RUNNING)
TOKEN_FORMAT = re.compile(r"[A-Za-z0-9_\-]{20,100}")

ALREADY_RUNNING = "We're already preparing your data. We'll email you a link as soon as it's ready."
LINK_INVALID = "This download link is not valid. Ask for your data again on the Account page."
LINK_USED = "This download link was already used. Ask for your data again on the Account page."
LINK_EXPIRED = "This download link has expired. Ask for your data again on the Account page."


class ExportRunning(ApiError):
    status_code = 409


STORAGE_UNREACHABLE = "We couldn't fetch your data just now. Please try again in a few minutes."


class StorageUnreachable(ApiError):
    status_code = 503


class LinkGone(ApiError):
    status_code = 410


@transaction.atomic
def data_export_start(*, user: Any, client_ip: str = "") -> DataExport:
    """Starts building the person's export in the background; refused (409) while one is
    being built."""
    stale_before = timezone.now() - BUILD_STALE_AFTER
    running = DataExport.objects.select_for_update().filter(user=user, status__in=RUNNING)
    for export in running:
        if export.created_at >= stale_before:
            raise ExportRunning(ALREADY_RUNNING)
        DataExport.objects.filter(pk=export.pk).update(status=DataExport.Status.FAILED)
    try:
        with transaction.atomic():
            export = DataExport.objects.create(user=user)
    except IntegrityError as error:  # another request started one at the same moment
        raise ExportRunning(ALREADY_RUNNING) from error
    enqueue_on_commit(data_export_build_task, export_id=export.pk)
    audit_record(
        action=actions.DATA_EXPORT_REQUESTED,
        actor=user,
        target_type="user",
        target_id=user.pk,
        client_ip=client_ip,
        details={"export_id": export.pk},
    )
    return export


def data_export_latest(*, user: Any) -> DataExport | None:
    return DataExport.objects.filter(user=user).order_by("-created_at", "-id").first()


def data_export_status(export: DataExport) -> str:
    """The export's status as the Account page shows it: a build unfinished after
    BUILD_STALE_AFTER (its worker lost, or every retry failed) failed, and the page offers to
    ask again, as `data_export_start` allows."""
    stale = export.created_at < timezone.now() - BUILD_STALE_AFTER
    return DataExport.Status.FAILED if export.status in RUNNING and stale else export.status


@transaction.atomic
def data_export_take(*, user: Any, token: str, client_ip: str = "") -> IO[bytes]:
    """The zip of the link's export, as a rewound temporary file: only for its owner, once,
    before it expires. The stored zip is deleted once this commits."""
    if not TOKEN_FORMAT.fullmatch(token):
        raise NotFound(LINK_INVALID)
    export = DataExport.objects.select_for_update().filter(token_hash=token_hash(token)).first()
    if export is None or export.user_id != user.pk:
        raise NotFound(LINK_INVALID)
    if export.downloaded_at is not None or not export.file_key:
        raise LinkGone(LINK_USED)
    if export.expires_at is None or export.expires_at <= timezone.now():
        raise LinkGone(LINK_EXPIRED)
    copy = tempfile.TemporaryFile()  # noqa: SIM115 (returned to the response)
    try:
        with export_file_open(key=export.file_key) as stored:
            shutil.copyfileobj(stored, copy)
    except Exception as error:  # storage unreachable: the link stays usable
        copy.close()
        raise StorageUnreachable(STORAGE_UNREACHABLE) from error
    copy.seek(0)
    key = export.file_key
    DataExport.objects.filter(pk=export.pk).update(
        status=DataExport.Status.DOWNLOADED, downloaded_at=timezone.now(), file_key=""
    )
    transaction.on_commit(lambda: export_file_delete(key=key))
    audit_record(
        action=actions.DATA_EXPORT_DOWNLOADED,
        actor=user,
        target_type="user",
        target_id=user.pk,
        client_ip=client_ip,
        details={"export_id": export.pk},
    )
    return copy  # type: ignore[return-value]


def data_exports_prune(*, now: Any = None) -> int:
    """Deletes the zips of links that expired unused; the number deleted."""
    now = now or timezone.now()
    expired = DataExport.objects.filter(expires_at__lte=now).exclude(file_key="")
    pruned = 0
    for export in expired:
        export_file_delete(key=export.file_key)
        DataExport.objects.filter(pk=export.pk).update(file_key="", token_hash="")
        pruned += 1
    return pruned


def _export_files_delete(keys: list[str]) -> None:
    for key in keys:
        export_file_delete(key=key)


def data_exports_erase(*, user: Any) -> int:
    """The person's exports, their zips included (an erasure)."""
    # Locked: a build finishing now stores its key first, or finds its row gone.
    keys = [
        e.file_key for e in DataExport.objects.select_for_update().filter(user=user) if e.file_key
    ]
    transaction.on_commit(lambda: _export_files_delete(keys))
    return DataExport.objects.filter(user=user).delete()[0]
