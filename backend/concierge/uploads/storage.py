"""Where upload bytes live: local disk under MEDIA_ROOT (`STORAGE=local`, the default) or an
S3-compatible bucket (`STORAGE=s3` with the `S3_*` settings).

`upload_storage()` reads the settings on every call (instances are cached per configuration),
so a test can switch to S3 with a settings override.
"""

from __future__ import annotations

from functools import lru_cache
from typing import IO, Any

from django.conf import settings
from django.core.files import File
from django.core.files.storage import FileSystemStorage, Storage

from concierge.uploads.files import content_disposition


def storage_is_s3() -> bool:
    return settings.STORAGE == "s3"


def upload_storage() -> Storage:
    if storage_is_s3():
        return _s3_storage(
            settings.S3_BUCKET,
            settings.S3_ENDPOINT_URL,
            settings.S3_ACCESS_KEY_ID,
            settings.S3_SECRET_ACCESS_KEY,
            settings.S3_REGION,
        )
    return _local_storage(str(settings.MEDIA_ROOT))


@lru_cache(maxsize=8)
def _local_storage(location: str) -> FileSystemStorage:
    return FileSystemStorage(location=location)


@lru_cache(maxsize=8)
def _s3_storage(
    bucket: str, endpoint_url: str, access_key: str, secret_key: str, region: str
) -> Storage:
    from storages.backends.s3 import S3Storage

    return S3Storage(
        bucket_name=bucket,
        endpoint_url=endpoint_url or None,
        access_key=access_key or None,
        secret_key=secret_key or None,
        region_name=region or None,
        default_acl=None,
        file_overwrite=True,
        querystring_auth=True,
        signature_version="s3v4",
        # S3-compatible servers (MinIO, moto, ...) at a custom endpoint expect path-style URLs.
        addressing_style="path" if endpoint_url else None,
    )


def _s3_client_and_bucket() -> tuple[Any, str]:
    storage: Any = upload_storage()
    return storage.connection.meta.client, storage.bucket_name


def object_presigned_put_url(key: str, *, expires: int) -> str:
    client, bucket = _s3_client_and_bucket()
    url: str = client.generate_presigned_url(
        "put_object", Params={"Bucket": bucket, "Key": key}, ExpiresIn=expires, HttpMethod="PUT"
    )
    return url


def object_presigned_get_url(key: str, *, filename: str, content_type: str, expires: int) -> str:
    client, bucket = _s3_client_and_bucket()
    url: str = client.generate_presigned_url(
        "get_object",
        Params={
            "Bucket": bucket,
            "Key": key,
            "ResponseContentDisposition": content_disposition(filename),
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
