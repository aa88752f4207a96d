"""Upload writes: hand out presigned URLs, receive local PUTs, verify what landed in storage."""

from __future__ import annotations

import io
import logging
import tempfile
import uuid
from collections.abc import Iterable
from datetime import timedelta
from typing import IO, TYPE_CHECKING

from django.conf import settings
from django.core import signing
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from concierge.accounts.selectors.concierges import audit_role
from concierge.audit import actions as audit_actions
from concierge.audit.services import audit_record_opening
from concierge.common import readiness
from concierge.common.errors import ApiError, NotFound, ValidationFailed
from concierge.common.file_types import SNIFF_BYTES
from concierge.uploads import storage
from concierge.uploads.files import (
    display_filename,
    empty_file_message,
    guess_content_type,
    invalid_type_message,
    key_filename,
    sniff_attachment_type,
    too_large_message,
    viewable_inline,
)
from concierge.uploads.models import Upload

if TYPE_CHECKING:
    from django.http import HttpRequest

    from concierge.accounts.models import User

logger = logging.getLogger(__name__)

PUT_SALT = "concierge.uploads.put"
GET_SALT = "concierge.uploads.get"
INLINE_SUFFIX = ":inline"
CHUNK_BYTES = 64 * 1024
FILENAME_REQUIRED = "Please choose a file to upload."
LINK_EXPIRED = "This upload link is invalid or has expired. Please try again."
DOWNLOAD_LINK_EXPIRED = "This download link is invalid or has expired. Please open the file again."
ALREADY_UPLOADED = "This file has already been uploaded. Please choose the file again."
NOT_UPLOADED = "'{filename}' hasn't finished uploading. Please try again."
ATTACHMENT_NOT_FOUND = "We couldn't find that attachment. Please upload the file again."
TOO_MANY_ATTACHMENTS = "Only one file can be attached to a message."
STORAGE_UNAVAILABLE = "File storage is unavailable right now. Please try again in a few minutes."


class StorageUnavailable(ApiError):
    status_code = 503


def storage_require_ready() -> None:
    """Raises a 503 while the uploads storage's readiness check fails (its answer is kept for
    READINESS_CACHE_SECONDS), rather than handing out an address the browser's PUT would
    fail on."""
    if readiness.check_status("storage") != "ok":
        raise StorageUnavailable(STORAGE_UNAVAILABLE)


def max_upload_bytes() -> int:
    return int(settings.UPLOAD_MAX_BYTES)


def upload_create(*, owner: User, filename: str, request_id: int | None = None) -> Upload:
    """A pending upload with a server-generated key. The caller has checked that `request_id`
    (a message attachment) is a request `owner` may write to."""
    display = display_filename(filename)
    if not display:
        raise ValidationFailed.for_field("filename", FILENAME_REQUIRED)
    key = f"uploads/{uuid.uuid4().hex}/{key_filename(display)}"
    return Upload.objects.create(key=key, owner=owner, request_id=request_id, filename=display)


def upload_put_url(*, upload: Upload, base_url: str) -> str:
    """Where the browser PUTs the raw file: S3 itself, or our own signed, expiring endpoint."""
    ttl = int(settings.UPLOAD_PUT_URL_TTL_SECONDS)
    if storage.storage_is_s3():
        return storage.object_presigned_put_url(upload.key, expires=ttl)
    token = signing.TimestampSigner(salt=PUT_SALT).sign(str(upload.pk))
    return base_url + reverse("api:upload_put", kwargs={"token": token})


def upload_download_url(*, upload: Upload, base_url: str, inline: bool = False) -> str:
    """A short-lived download address that answers with `Content-Disposition: attachment`,
    or with `inline` when asked and the file is an image or a PDF (`viewable_inline`), so the
    browser shows it (a thumbnail, the image viewer, its PDF viewer) instead of saving it."""
    ttl = int(settings.UPLOAD_GET_URL_TTL_SECONDS)
    inline = inline and viewable_inline(upload.content_type)
    if storage.storage_is_s3():
        return storage.object_presigned_get_url(
            upload.key,
            filename=upload.filename,
            content_type=upload.content_type,
            expires=ttl,
            inline=inline,
        )
    value = f"{upload.pk}{INLINE_SUFFIX}" if inline else str(upload.pk)
    token = signing.TimestampSigner(salt=GET_SALT).sign(value)
    return base_url + reverse("api:upload_get", kwargs={"token": token})


def _token_value(token: str, *, salt: str, max_age: int, message: str) -> str:
    try:
        return signing.TimestampSigner(salt=salt).unsign(token, max_age=max_age)
    except signing.BadSignature as exc:  # SignatureExpired is a BadSignature
        raise ApiError(message, status_code=403) from exc


def _upload_by_id(upload_id: str) -> Upload:
    upload = Upload.objects.filter(pk=int(upload_id)).first()
    if upload is None:
        raise NotFound()
    return upload


def _upload_from_token(token: str, *, salt: str, max_age: int, message: str) -> Upload:
    return _upload_by_id(_token_value(token, salt=salt, max_age=max_age, message=message))


def upload_for_download_token(*, token: str) -> tuple[Upload, bool]:
    """The upload a signed download address names, and whether it is shown inline."""
    if storage.storage_is_s3():
        raise NotFound()
    value = _token_value(
        token,
        salt=GET_SALT,
        max_age=int(settings.UPLOAD_GET_URL_TTL_SECONDS),
        message=DOWNLOAD_LINK_EXPIRED,
    )
    inline = value.endswith(INLINE_SUFFIX)
    upload = _upload_by_id(value.removesuffix(INLINE_SUFFIX))
    if upload.status != Upload.Status.UPLOADED:
        raise NotFound()
    return upload, inline and viewable_inline(upload.content_type)


def upload_receive(
    *, token: str, body: IO[bytes], content_length: int | None, content_type: str = ""
) -> Upload:
    """Store the raw body PUT to our own signed URL (STORAGE=local).

    Refuses, storing nothing: an expired or forged token (403), a file already received (409),
    more than 25 MB (413, the spec §5 text), an empty file, and for a message attachment
    anything that is not really an image or a PDF by its first bytes (422, the §5 text).
    """
    if storage.storage_is_s3():
        raise NotFound()
    upload = _upload_from_token(
        token,
        salt=PUT_SALT,
        max_age=int(settings.UPLOAD_PUT_URL_TTL_SECONDS),
        message=LINK_EXPIRED,
    )
    if upload.status != Upload.Status.PENDING:
        raise ApiError(ALREADY_UPLOADED, status_code=409)
    limit = max_upload_bytes()
    if content_length is not None and content_length > limit:
        raise ApiError(too_large_message(limit), status_code=413)

    with tempfile.SpooledTemporaryFile(max_size=1024 * 1024) as spool:
        size = 0
        while chunk := body.read(CHUNK_BYTES):
            size += len(chunk)
            if size > limit:
                raise ApiError(too_large_message(limit), status_code=413)
            spool.write(chunk)
        spool.seek(0)
        head = spool.read(SNIFF_BYTES)
        stored_type = _check_content(upload, size=size, head=head, declared_type=content_type)
        spool.seek(0)
        with transaction.atomic():
            locked = Upload.objects.select_for_update().get(pk=upload.pk)
            if locked.status != Upload.Status.PENDING:
                raise ApiError(ALREADY_UPLOADED, status_code=409)
            storage.object_save(upload.key, spool)  # type: ignore[arg-type]
            _mark_uploaded(locked, size=size, content_type=stored_type)
    return locked


def upload_from_bytes(
    *, owner: User, filename: str, request_id: int | None, content: bytes
) -> Upload:
    """A file that reached the server by another way than the browser's upload (an email's
    attachment, reply by email), checked as an upload to our own URL is (size, and for a
    message attachment its type by its first bytes), stored and marked uploaded. A file that
    breaks a rule raises the same ApiError (413, 422) and leaves nothing behind."""
    upload = upload_create(owner=owner, filename=filename, request_id=request_id)
    try:
        limit = max_upload_bytes()
        if len(content) > limit:
            raise ApiError(too_large_message(limit), status_code=413)
        stored_type = _check_content(
            upload, size=len(content), head=content[:SNIFF_BYTES], declared_type=""
        )
        storage.object_save(upload.key, io.BytesIO(content))
    except BaseException:
        upload.delete()
        raise
    _mark_uploaded(upload, size=len(content), content_type=stored_type)
    return upload


def upload_verify(*, upload: Upload) -> Upload:
    """Make sure an upload is really in storage and within the rules, marking it uploaded.

    Uploads to S3 go straight from the browser to the bucket, where a presigned PUT cannot
    limit the size, so this is where they are checked: a HEAD for the size, a ranged GET of
    the first bytes for the type. An object that breaks a rule is deleted (422, spec §5 text).
    Already-verified uploads are returned as they are.
    """
    if upload.status == Upload.Status.UPLOADED:
        return upload
    size = storage.object_size(upload.key)
    if size is None:
        raise ValidationFailed.for_field("file", NOT_UPLOADED.format(filename=upload.filename))
    limit = max_upload_bytes()
    head = storage.object_head(upload.key, SNIFF_BYTES) if 0 < size <= limit else b""
    try:
        content_type = _check_content(upload, size=size, head=head, declared_type="")
    except ApiError:
        storage.object_delete(upload.key)
        raise
    with transaction.atomic():
        locked = Upload.objects.select_for_update().get(pk=upload.pk)
        if locked.status == Upload.Status.PENDING:
            _mark_uploaded(locked, size=size, content_type=content_type)
    return locked


def uploads_for_message(
    *, keys: Iterable[str], owner: User, request_id: int, max_count: int
) -> list[Upload]:
    """The uploads named by `keys`, checked for a message: each is `owner`'s, made for this
    request, and verified in storage. Anything else is a 422 (nothing is attached)."""
    unique_keys = list(dict.fromkeys(k for k in keys if k))
    if len(unique_keys) > max_count:
        raise ValidationFailed.for_field("attachment_keys", TOO_MANY_ATTACHMENTS)
    if not unique_keys:
        return []
    found = {
        u.key: u
        for u in Upload.objects.filter(key__in=unique_keys, owner=owner, request_id=request_id)
    }
    if len(found) != len(unique_keys):
        raise ValidationFailed.for_field("attachment_keys", ATTACHMENT_NOT_FOUND)
    return [upload_verify(upload=found[key]) for key in unique_keys]


def upload_require_uploaded(*, owner: User, key: str) -> Upload:
    """For other apps (a survey's file answer): `owner`'s upload by key, verified in storage."""
    upload = Upload.objects.filter(key=key, owner=owner).first()
    if upload is None:
        raise NotFound()
    return upload_verify(upload=upload)


def _check_content(upload: Upload, *, size: int, head: bytes, declared_type: str) -> str:
    """The content type to store, or an ApiError when the bytes break a rule."""
    limit = max_upload_bytes()
    if size > limit:
        raise ValidationFailed.for_field("file", too_large_message(limit))
    if upload.request_id is not None:
        sniffed = sniff_attachment_type(head)
        if sniffed is None:
            raise ValidationFailed.for_field("file", invalid_type_message(upload.filename))
        return sniffed
    if size == 0:
        raise ValidationFailed.for_field("file", empty_file_message(upload.filename))
    return sniff_attachment_type(head) or guess_content_type(upload.filename, declared_type)


def _mark_uploaded(upload: Upload, *, size: int, content_type: str) -> None:
    upload.size = size
    upload.content_type = content_type
    upload.status = Upload.Status.UPLOADED
    upload.uploaded_at = timezone.now()
    upload.save(update_fields=["size", "content_type", "status", "uploaded_at"])


def uploads_abandoned(*, older_than: timedelta):
    """Uploads made more than `older_than` ago that were never completed (still pending) or
    never attached: on no message and the answer of no survey."""
    cutoff = timezone.now() - older_than
    return Upload.objects.filter(created_at__lt=cutoff).filter(
        Q(status=Upload.Status.PENDING) | Q(message_link__isnull=True, survey_answers__isnull=True)
    )


def uploads_prune_abandoned(*, older_than: timedelta = timedelta(days=1)) -> int:
    """Delete abandoned uploads, their stored bytes first; the number deleted. An upload whose
    bytes cannot be deleted now stays for the next run."""
    deleted = 0
    for upload in uploads_abandoned(older_than=older_than).distinct().iterator():
        try:
            storage.object_delete(upload.key)
        except Exception:
            logger.exception("Could not delete the stored file of upload %s", upload.pk)
            continue
        deleted += Upload.objects.filter(pk=upload.pk).delete()[0]
    return deleted


def upload_opening_record(*, http_request: HttpRequest, user: User, upload: Upload) -> None:
    """A concierge (or admin) opening a request's attachment, in the audit trail: once per
    person and file per window, only for someone other than the file's owner and the request's
    employee."""
    if upload.request_id is None or upload.owner_id == user.pk:
        return
    if upload.request is not None and upload.request.user_id == user.pk:
        return
    audit_record_opening(
        http_request,
        action=audit_actions.ATTACHMENT_OPENED,
        actor_role=audit_role(user),
        target_type="request",
        target_id=upload.request_id,
        details={"attachment_id": upload.pk},
    )
