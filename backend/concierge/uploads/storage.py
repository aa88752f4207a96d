"""Where upload bytes live: the `uploads` entry of STORAGES, which settings build from STORAGE:
local disk under MEDIA_ROOT (`STORAGE=local`, the default, behind our own signed URLs) or an
S3-compatible bucket (`STORAGE=s3` with the `S3_*` settings, presigned URLs).
"""

from __future__ import annotations

import os
import secrets
import socket
from typing import IO, Any

from django.conf import settings
from django.core.files import File
from django.core.files.base import ContentFile
from django.core.files.storage import FileSystemStorage, Storage, storages

from concierge.common.readiness import CheckStatus
from concierge.uploads.files import content_disposition


def upload_storage() -> Storage:
    return storages["uploads"]


def storage_is_s3() -> bool:
    return not isinstance(upload_storage(), FileSystemStorage)


def _s3_client_and_bucket() -> tuple[Any, str]:
    storage: Any = upload_storage()
    return storage.connection.meta.client, storage.bucket_name


# Where the readiness probe writes; never an upload's key (those start with `uploads/`), and
# left out of file backups.
PROBE_PREFIX = "_readiness/"


def _probe_key() -> str:
    return f"{PROBE_PREFIX}{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(6)}"


def _probe_s3_client() -> tuple[Any, str]:
    """A client of the uploads bucket that gives up after READINESS_TIMEOUT_SECONDS (the
    storage's own waits a minute and retries), with the storage's credentials and addressing."""
    from botocore.config import Config

    storage: Any = upload_storage()
    timeout = float(settings.READINESS_TIMEOUT_SECONDS)
    config = storage.client_config.merge(
        Config(
            connect_timeout=timeout,
            read_timeout=timeout,
            retries={"mode": "standard", "total_max_attempts": 1},
        )
    )
    client = storage._create_session().client(
        "s3",
        region_name=storage.region_name,
        use_ssl=storage.use_ssl,
        endpoint_url=storage.endpoint_url,
        config=config,
        verify=storage.verify,
    )
    return client, storage.bucket_name


def storage_probe() -> CheckStatus:
    """`ok` when a small object can be written to the uploads storage and deleted again (the
    bucket exists, the credentials may put and delete, the server answers in time; or the
    local folder is writable), else `unavailable`. Raises on failure (readiness logs it)."""
    key = _probe_key()
    if storage_is_s3():
        client, bucket = _probe_s3_client()
        client.put_object(Bucket=bucket, Key=key, Body=b"ok")
        client.delete_object(Bucket=bucket, Key=key)
        return "ok"
    storage = upload_storage()
    saved = storage.save(key, ContentFile(b"ok"))
    storage.delete(saved)
    return "ok"


def object_presigned_put_url(key: str, *, expires: int) -> str:
    client, bucket = _s3_client_and_bucket()
    url: str = client.generate_presigned_url(
        "put_object", Params={"Bucket": bucket, "Key": key}, ExpiresIn=expires, HttpMethod="PUT"
    )
    return url


def object_presigned_get_url(
    key: str, *, filename: str, content_type: str, expires: int, inline: bool = False
) -> str:
    client, bucket = _s3_client_and_bucket()
    url: str = client.generate_presigned_url(
        "get_object",
        Params={
            "Bucket": bucket,
            "Key": key,
            "ResponseContentDisposition": content_disposition(filename, inline=inline),
            "ResponseContentType": content_type or "application/octet-stream",
        },
        ExpiresIn=expires,
    )
    return url


def object_size(key: str) -> int | None:
    """The stored object's size in bytes, or None when there is none (a HEAD on S3)."""
    if storage_is_s3():
        from botocore.exceptions import ClientError

        client, bucket = _s3_client_and_bucket()
        try:
            head = client.head_object(Bucket=bucket, Key=key)
        except ClientError as exc:
            if str(exc.response.get("Error", {}).get("Code")) in ("404", "NoSuchKey", "NotFound"):
                return None
            raise
        return int(head["ContentLength"])
    storage = upload_storage()
    return storage.size(key) if storage.exists(key) else None


def object_head(key: str, length: int) -> bytes:
    """The first `length` bytes of a stored object (a ranged GET on S3)."""
    if storage_is_s3():
        client, bucket = _s3_client_and_bucket()
        response = client.get_object(Bucket=bucket, Key=key, Range=f"bytes=0-{length - 1}")
        data: bytes = response["Body"].read(length)
        return data
    with upload_storage().open(key, "rb") as handle:
        head: bytes = handle.read(length)
        return head


def object_save(key: str, content: IO[bytes]) -> None:
    storage = upload_storage()
    if storage.exists(key):  # a leftover from an interrupted attempt
        storage.delete(key)
    saved = storage.save(key, File(content))
    if saved != key:  # pragma: no cover - keys are unique, so storage never renames
        storage.delete(saved)
        raise RuntimeError(f"storage renamed {key!r} to {saved!r}")


def object_open(key: str) -> IO[bytes]:
    handle: Any = upload_storage().open(key, "rb")
    return handle  # type: ignore[no-any-return]


def object_delete(key: str) -> None:
    upload_storage().delete(key)
