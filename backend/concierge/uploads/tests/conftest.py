"""Upload test fixtures: a per-test MEDIA_ROOT, and a local S3-compatible server (moto)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import boto3
import pytest

from config.settings import upload_storage_config


@pytest.fixture(autouse=True)
def _media_root(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture(scope="session")
def moto_endpoint() -> Iterator[str]:
    """moto's S3 in server mode on 127.0.0.1, on a free port, for the whole session."""
    from moto.server import ThreadedMotoServer

    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    yield f"http://{host}:{port}"
    server.stop()


@pytest.fixture
def s3_storage(settings, moto_endpoint):
    """Switch the uploads to STORAGE=s3 against moto, with a fresh bucket; yields a client."""
    bucket = f"uploads-{uuid.uuid4().hex[:12]}"
    uploads = upload_storage_config(
        "s3",
        bucket=bucket,
        endpoint_url=moto_endpoint,
        access_key="testing",
        secret_key="testing",
        region="us-east-1",
    )
    settings.STORAGES = {**settings.STORAGES, "uploads": uploads}
    client = boto3.client(
        "s3",
        endpoint_url=moto_endpoint,
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
        region_name="us-east-1",
    )
    client.create_bucket(Bucket=bucket)
    client.bucket = bucket  # type: ignore[attr-defined]
    return client
