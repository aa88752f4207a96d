"""ARCHITECTURE §5 Uploads with STORAGE=s3, end to end against a local S3-compatible server
(moto in server mode, started by the `moto_endpoint` fixture on 127.0.0.1)."""

from __future__ import annotations

import urllib.error
import urllib.request
from urllib.parse import urlparse

import pytest
from botocore.exceptions import ClientError

from concierge.servicerequests import services as request_services
from concierge.uploads.models import Upload
from concierge.uploads.storage import upload_storage
from concierge.uploads.tests.samples import FAKE_PNG, pdf_bytes, png_bytes, presign

pytestmark = pytest.mark.django_db


@pytest.fixture
def my_request(user):
    return request_services.request_create(user=user, name="Renew my passport")


def http(method: str, url: str, data: bytes | None = None, content_type: str = ""):
    """A plain HTTP call the way a browser makes it: no credentials, just the signed URL."""
    headers = {"Content-Type": content_type} if content_type else {}
    request = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def object_exists(client, key: str) -> bool:
    try:
        client.head_object(Bucket=client.bucket, Key=key)
    except ClientError:
        return False
    return True


def send(api, request_id, key, body="See attached"):
    return api.post(
        f"requests/{request_id}/messages", {"message": {"body": body, "attachment_keys": [key]}}
    )


def test_storage_switches_with_the_setting(s3_storage):
    assert type(upload_storage()).__name__ == "S3Storage"


def test_s3_round_trip_presign_put_attach_download(
    signed_in_api, s3_storage, moto_endpoint, my_request
):
    for filename, data, content_type in [
        ("scan.pdf", pdf_bytes(), "application/pdf"),
        ("photo.png", png_bytes(), "image/png"),
    ]:
        presigned = presign(signed_in_api, filename, my_request.pk).json()
        url = presigned["presigned_url"]
        assert url.startswith(f"{moto_endpoint}/{s3_storage.bucket}/{presigned['key']}?")
        assert "X-Amz-Signature=" in urlparse(url).query

        status, _, _ = http("PUT", url, data, content_type)
        assert status == 200
        assert object_exists(s3_storage, presigned["key"])
        assert Upload.objects.get(key=presigned["key"]).status == Upload.Status.PENDING

        # The server checks what landed in the bucket before accepting the attachment.
        sent = send(signed_in_api, my_request.pk, presigned["key"])
        assert sent.status_code == 201, sent.content
        assert sent.json()["request"]["messages"][-1]["attachment_keys"] == [presigned["key"]]
        upload = Upload.objects.get(key=presigned["key"])
        assert (upload.status, upload.size, upload.content_type) == (
            "uploaded",
            len(data),
            content_type,
        )

        expiring = signed_in_api.get("uploads/expiring_url", query={"key": presigned["key"]})
        assert expiring.status_code == 200
        download_url = expiring.json()["expiring_url"]
        assert download_url.startswith(f"{moto_endpoint}/{s3_storage.bucket}/")
        status, headers, content = http("GET", download_url)
        assert status == 200
        assert content == data
        assert headers["Content-Disposition"] == (
            f"attachment; filename=\"{filename}\"; filename*=UTF-8''{filename}"
        )


def test_s3_fake_image_is_refused_and_deleted(signed_in_api, s3_storage, my_request):
    presigned = presign(signed_in_api, "cat.png", my_request.pk).json()
    assert http("PUT", presigned["presigned_url"], FAKE_PNG, "image/png")[0] == 200

    response = send(signed_in_api, my_request.pk, presigned["key"])
    assert response.status_code == 422
    assert response.json()["error"] == (
        "'cat.png' has an invalid file type. Only images or PDFs are allowed."
    )
    assert not object_exists(s3_storage, presigned["key"])
    assert my_request.messages.count() == 0


def test_s3_oversize_file_is_refused_and_deleted(signed_in_api, settings, s3_storage, my_request):
    """A presigned PUT cannot cap the size, so the server checks it (HEAD) before attaching.
    The limit is lowered here so the test need not push 25 MB through the bucket."""
    settings.UPLOAD_MAX_BYTES = 1024
    presigned = presign(signed_in_api, "big.pdf", my_request.pk).json()
    data = pdf_bytes() + b"\0" * 2048
    assert http("PUT", presigned["presigned_url"], data, "application/pdf")[0] == 200

    response = send(signed_in_api, my_request.pk, presigned["key"])
    assert response.status_code == 422
    assert response.json()["error"] == "File size exceeds 1 KB, please upload a smaller file."
    assert not object_exists(s3_storage, presigned["key"])


def test_s3_file_never_uploaded_cannot_be_attached(signed_in_api, s3_storage, my_request):
    presigned = presign(signed_in_api, "missing.png", my_request.pk).json()
    response = send(signed_in_api, my_request.pk, presigned["key"])
    assert response.status_code == 422
    assert response.json()["error"] == "'missing.png' hasn't finished uploading. Please try again."


def test_s3_mode_has_no_local_put_endpoint(signed_in_api, s3_storage, my_request):
    presigned = presign(signed_in_api, "x.png", my_request.pk).json()
    upload = Upload.objects.get(key=presigned["key"])
    from django.core import signing

    token = signing.TimestampSigner(salt="concierge.uploads.put").sign(str(upload.pk))
    response = signed_in_api.client.put(
        f"/api/v1/uploads/put/{token}", png_bytes(), content_type="image/png"
    )
    assert response.status_code == 404


def test_s3_inline_address_shows_an_image_in_the_browser(
    signed_in_api, s3_storage, my_request, make_api, user_factory
):
    """Issue 10 'Attachments open inside the thread' with STORAGE=s3: `inline=true` gives a
    presigned address answering `Content-Disposition: inline`; another employee gets 404."""
    presigned = presign(signed_in_api, "gate.png", my_request.pk).json()
    assert http("PUT", presigned["presigned_url"], png_bytes(), "image/png")[0] == 200
    assert send(signed_in_api, my_request.pk, presigned["key"]).status_code == 201
    query = {"key": presigned["key"], "inline": "true"}
    url = signed_in_api.get("uploads/expiring_url", query=query).json()["expiring_url"]
    status, headers, content = http("GET", url)
    assert (status, content) == (200, png_bytes())
    assert (
        headers["Content-Disposition"] == "inline; filename=\"gate.png\"; filename*=UTF-8''gate.png"
    )

    other = user_factory(email="grace@example.com")
    grace = make_api()
    grace.sign_in(other.email)
    assert grace.get("uploads/expiring_url", query=query).status_code == 404
