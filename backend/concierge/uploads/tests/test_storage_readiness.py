"""Issue 25 'Readiness that tells the truth': the uploads storage is a required dependency.
With STORAGE=s3 the bucket is asked (a probe object written and deleted) on a local
S3-compatible server (moto, started by the `moto_endpoint` fixture on 127.0.0.1); with the
local disk, the folder is written to. While the storage is down, readiness is `unavailable`
(503) and the upload endpoint answers 503 instead of handing out an address that would fail."""

from __future__ import annotations

import socket
import time

import pytest
from django.test import Client

from concierge.common import readiness
from concierge.uploads.models import Upload
from concierge.uploads.services import STORAGE_UNAVAILABLE
from concierge.uploads.storage import PROBE_PREFIX
from concierge.uploads.tests.samples import presign

pytestmark = pytest.mark.django_db


def ready():
    response = Client().get("/api/v1/health/ready")
    return response.status_code, response.json()


def probe_objects(client) -> list[str]:
    listing = client.list_objects_v2(Bucket=client.bucket, Prefix=PROBE_PREFIX)
    return [item["Key"] for item in listing.get("Contents", [])]


def test_issue_25_readiness_a_writable_bucket_is_ok(s3_storage):
    """Issue 25 readiness: with the bucket there and writable, storage is ok and the probe
    object is gone again"""
    status, body = ready()

    assert status == 200
    assert body["status"] == "ok"
    assert body["checks"]["storage"] == "ok"
    assert probe_objects(s3_storage) == []


def test_issue_25_readiness_a_missing_bucket_makes_the_node_unavailable_until_it_is_back(
    s3_storage, signed_in_api
):
    """Issue 25 readiness: a missing bucket makes the node unavailable (503) and presigned_url
    a 503 JSON error (no upload recorded); once the bucket is back, both are ok again"""
    s3_storage.delete_bucket(Bucket=s3_storage.bucket)

    status, body = ready()
    assert status == 503
    # The cache is 'ok' or 'not configured', as REDIS_URL says: optional either way.
    assert body["status"] == "unavailable"
    assert {k: v for k, v in body["checks"].items() if k != "cache"} == {
        "database": "ok",
        "mail": "not configured",
        "storage": "unavailable",
    }
    refused = presign(signed_in_api, "lease.pdf")
    assert refused.status_code == 503
    assert refused.json() == {"success": False, "error": STORAGE_UNAVAILABLE}
    assert not Upload.objects.exists()

    s3_storage.create_bucket(Bucket=s3_storage.bucket)

    status, body = ready()
    assert (status, body["status"], body["checks"]["storage"]) == (200, "ok", "ok")
    answered = presign(signed_in_api, "lease.pdf")
    assert answered.status_code == 200, answered.content
    assert answered.json()["presigned_url"].startswith("http://127.0.0.1:")
    assert Upload.objects.count() == 1


def test_issue_25_readiness_the_storage_answer_is_kept_for_a_few_seconds(
    s3_storage, settings, monkeypatch
):
    """Issue 25 readiness: the bucket is asked at most once per READINESS_CACHE_SECONDS, so
    frequent health checks cannot hammer it; after that the next question sees the change"""
    settings.READINESS_CACHE_SECONDS = 10
    readiness.forget()
    now = [1000.0]
    monkeypatch.setattr(readiness.time, "monotonic", lambda: now[0])
    assert ready()[1]["checks"]["storage"] == "ok"

    s3_storage.delete_bucket(Bucket=s3_storage.bucket)
    now[0] += 9
    assert ready()[1]["checks"]["storage"] == "ok"  # the kept answer

    now[0] += 1
    assert ready() == (503, ready()[1])
    assert ready()[1]["checks"]["storage"] == "unavailable"
    readiness.forget()


def test_issue_25_readiness_a_bucket_server_that_does_not_answer_is_given_up_on(
    s3_storage, settings
):
    """Issue 25 readiness: an S3 endpoint that accepts connections and never answers makes
    storage unavailable after READINESS_TIMEOUT_SECONDS, not after boto's minute of retries"""
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)  # connections wait in the backlog, never answered
    try:
        uploads = settings.STORAGES["uploads"]
        host, port = silent.getsockname()
        options = {**uploads["OPTIONS"], "endpoint_url": f"http://{host}:{port}"}
        settings.STORAGES = {**settings.STORAGES, "uploads": {**uploads, "OPTIONS": options}}
        settings.READINESS_TIMEOUT_SECONDS = 0.5

        started = time.monotonic()
        status, body = ready()
        elapsed = time.monotonic() - started
    finally:
        silent.close()

    assert (status, body["checks"]["storage"]) == (503, "unavailable")
    # Seconds, not boto's minute: the probe's client is built anew each time (loading boto's
    # service model takes seconds of its own on a loaded machine).
    assert elapsed < 10


def test_issue_25_readiness_local_storage_that_cannot_be_written_is_unavailable(
    settings, tmp_path, signed_in_api
):
    """Issue 25 readiness: with STORAGE=local, a MEDIA_ROOT that cannot be written to (here a
    file where the folder should be) makes storage unavailable and presigned_url a 503"""
    assert ready()[1]["checks"]["storage"] == "ok"
    assert not list((settings.MEDIA_ROOT / PROBE_PREFIX).iterdir())  # the probe is gone

    blocked = tmp_path / "not-a-folder"
    blocked.write_bytes(b"")
    settings.MEDIA_ROOT = blocked

    status, body = ready()
    assert (status, body["status"], body["checks"]["storage"]) == (
        503,
        "unavailable",
        "unavailable",
    )
    refused = presign(signed_in_api, "lease.pdf")
    assert refused.status_code == 503
    assert refused.json()["error"] == STORAGE_UNAVAILABLE
