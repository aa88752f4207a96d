"""The uploads' part of a person's data (issue 27): the files of 'Download my data', the
export's own zip in storage, and the files an erasure or a retention window deletes (rows and
bytes, local disk or S3). Called by `concierge.privacy` only."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Sequence
from typing import IO, Any

from django.db import transaction
from django.db.models import Q

from concierge.uploads.models import Upload
from concierge.uploads.storage import object_delete, object_open, object_save

logger = logging.getLogger(__name__)

# Where the exports' zips live, beside the uploads (`uploads/...`) in the same storage.
EXPORT_PREFIX = "exports/"


def upload_bytes(*, key: str) -> bytes:
    """The stored bytes of an uploaded file."""
    with object_open(key) as handle:
        return handle.read()  # type: ignore[no-any-return]


def export_file_save(*, key: str, content: IO[bytes]) -> None:
    if not key.startswith(EXPORT_PREFIX):
        raise ValueError(f"an export's key starts with {EXPORT_PREFIX!r}")
    object_save(key, content)


def export_file_open(*, key: str) -> IO[bytes]:
    return object_open(key)


def export_file_delete(*, key: str) -> None:
    if key.startswith(EXPORT_PREFIX):
        _delete_stored(key)


def _delete_stored(key: str) -> None:
    with contextlib.suppress(FileNotFoundError):  # already gone
        object_delete(key)


def _delete_all_stored(keys: list[str]) -> None:
    for key in keys:
        _delete_stored(key)


def _uploads_delete(uploads: Any) -> int:
    """Deletes the uploads' bytes once the rows' deletion commits (a rolled-back erasure
    keeps its files)."""
    keys = sorted(set(uploads.values_list("key", flat=True)))
    Upload.objects.filter(key__in=keys).delete()
    transaction.on_commit(lambda: _delete_all_stored(keys))
    return len(keys)


@transaction.atomic
def uploads_erase_for_owner(*, owner: Any, request_ids: Sequence[int]) -> int:
    """Every file the person uploaded (attachments, survey answers, abandoned ones) and the
    attachments on their requests; the number of files deleted."""
    return _uploads_delete(Upload.objects.filter(Q(owner=owner) | Q(request_id__in=request_ids)))


@transaction.atomic
def uploads_erase_for_requests(*, request_ids: Sequence[int]) -> int:
    """The attachments of the requests (a retention window's erasure)."""
    linked = (
        Q(request_id__in=request_ids)
        | Q(message_link__message__request_id__in=request_ids)
        | Q(survey_answers__user_request_survey__service_request_id__in=request_ids)
    )
    return _uploads_delete(Upload.objects.filter(linked))
