"""Spec §5 'File upload' and 'Message attachments', §7 'Uploads', §9 file limits;
ARCHITECTURE §5 Uploads (STORAGE=local: our own signed, expiring PUT and GET endpoints)."""

from __future__ import annotations

import io
import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone
from freezegun import freeze_time

from concierge.common.errors import ApiError
from concierge.servicerequests import services as request_services
from concierge.uploads import services
from concierge.uploads.files import (
    content_disposition,
    file_size_label,
    too_large_message,
)
from concierge.uploads.models import Upload
from concierge.uploads.tests.samples import (
    FAKE_PNG,
    pdf_bytes,
    png_bytes,
    presign,
    put_file,
    upload_via_api,
)

pytestmark = pytest.mark.django_db

LIMIT = 26214400
TOO_LARGE = "File size exceeds 25 MB, please upload a smaller file."


@pytest.fixture
def my_request(user):
    return request_services.request_create(user=user, name="Find a dog walker")


@pytest.fixture
def other_user(user_factory):
    return user_factory(email="grace@example.com", first_name="Grace", last_name="Hopper")


def stored_files(settings) -> list[Path]:
    root = Path(settings.MEDIA_ROOT)
    return [p for p in root.rglob("*") if p.is_file()] if root.exists() else []


def download(api, url):
    response = api.client.get(url)
    return response, b"".join(response.streaming_content) if response.streaming else b""


# ----------------------------------------------------------------------------- §9 sizes


@pytest.mark.parametrize(
    ("size", "label"),
    [
        (0, "0 Bytes"),
        (500, "500 Bytes"),
        (1024, "1 KB"),
        (1536, "1.5 KB"),
        (LIMIT, "25 MB"),
        (3 * 1024**3, "3 GB"),
    ],
)
def test_file_size_label_uses_1024_units_with_one_decimal(size, label):
    assert file_size_label(size) == label


def test_too_large_text_is_the_spec_text():
    assert too_large_message(LIMIT) == TOO_LARGE


# ----------------------------------------------------------------------------- presigned_url


def test_presigned_url_gives_a_server_generated_key(signed_in_api, my_request):
    response = presign(signed_in_api, "C:\\Users\\ada\\Résumé final.pdf", my_request.pk)
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"presigned_url", "key"}
    assert re.fullmatch(r"uploads/[0-9a-f]{32}/Resume-final\.pdf", body["key"])
    assert body["presigned_url"].startswith("http://testserver/api/v1/uploads/put/")
    upload = Upload.objects.get(key=body["key"])
    assert upload.filename == "Résumé final.pdf"
    assert upload.request_id == my_request.pk
    assert upload.status == Upload.Status.PENDING


def test_presigned_url_keys_are_unique_and_path_safe(signed_in_api):
    keys = {presign(signed_in_api, "../../etc/passwd").json()["key"] for _ in range(3)}
    assert len(keys) == 3
    assert all(re.fullmatch(r"uploads/[0-9a-f]{32}/passwd", k) for k in keys)


def test_presigned_url_needs_a_filename(signed_in_api):
    response = presign(signed_in_api, "   ")
    assert response.status_code == 422
    assert response.json()["error"] == "Please choose a file to upload."


def test_presigned_url_for_another_users_request_is_404(signed_in_api, other_user):
    theirs = request_services.request_create(user=other_user, name="Grace's errand")
    response = presign(signed_in_api, "x.png", theirs.pk)
    assert response.status_code == 404
    assert Upload.objects.count() == 0


def test_presigned_url_needs_sign_in(api):
    assert presign(api, "x.png").status_code == 401


# ----------------------------------------------------------------------------- local PUT


def test_round_trip_png_and_pdf_attach_and_download(signed_in_api, settings, my_request):
    """Presign, PUT the raw file without credentials, attach it, download the same bytes."""
    for filename, data, content_type in [
        ("photo.png", png_bytes(), "image/png"),
        ("lease.pdf", pdf_bytes(), "application/pdf"),
    ]:
        presigned = presign(signed_in_api, filename, my_request.pk).json()
        put = put_file(signed_in_api, presigned["presigned_url"], data, content_type)
        assert put.status_code == 200, put.content
        assert put.json() == {
            "success": True,
            "key": presigned["key"],
            "size": len(data),
            "content_type": content_type,
        }
        upload = Upload.objects.get(key=presigned["key"])
        assert (upload.status, upload.size, upload.content_type) == (
            "uploaded",
            len(data),
            content_type,
        )
        assert (Path(settings.MEDIA_ROOT) / presigned["key"]).read_bytes() == data

        sent = signed_in_api.post(
            f"requests/{my_request.pk}/messages",
            {"message": {"body": f"Here is {filename}", "attachment_keys": [presigned["key"]]}},
        )
        assert sent.status_code == 201

        expiring = signed_in_api.get("uploads/expiring_url", query={"key": presigned["key"]})
        assert expiring.status_code == 200
        url = expiring.json()["expiring_url"]
        assert url.startswith("http://testserver/api/v1/uploads/get/")
        response, content = download(signed_in_api.__class__(), url)  # no credentials needed
        assert response.status_code == 200
        assert content == data
        assert response["Content-Type"] == content_type
        assert response["Content-Disposition"] == (
            f"attachment; filename=\"{filename}\"; filename*=UTF-8''{filename}"
        )
        assert response["X-Content-Type-Options"] == "nosniff"


def test_oversize_upload_is_refused_and_nothing_stored(signed_in_api, settings, my_request):
    """§5: at most 26214400 bytes, with the spec's text; nothing is stored."""
    presigned = presign(signed_in_api, "huge.png", my_request.pk).json()
    data = png_bytes() + b"\0" * (LIMIT + 1 - len(png_bytes()))
    response = put_file(signed_in_api, presigned["presigned_url"], data, "image/png")
    assert response.status_code == 413
    assert response.json() == {"success": False, "error": TOO_LARGE}
    assert stored_files(settings) == []
    assert Upload.objects.get(key=presigned["key"]).status == Upload.Status.PENDING

    # Exactly the limit is fine, with the same address.
    exact = data[:LIMIT]
    assert put_file(signed_in_api, presigned["presigned_url"], exact).status_code == 200
    assert Upload.objects.get(key=presigned["key"]).size == LIMIT


def test_body_longer_than_announced_is_cut_at_the_limit(user, settings, my_request):
    """A body without (or with a wrong) Content-Length is counted while it is read."""
    upload = services.upload_create(owner=user, filename="big.pdf", request_id=my_request.pk)
    token = services.upload_put_url(upload=upload, base_url="").rsplit("/", 1)[-1]
    body = io.BytesIO(pdf_bytes() + b"\0" * LIMIT)
    with pytest.raises(ApiError) as error:
        services.upload_receive(token=token, body=body, content_length=None)
    assert (error.value.status_code, error.value.message) == (413, TOO_LARGE)
    assert stored_files(settings) == []


def test_fake_image_is_refused_with_the_invalid_type_text(signed_in_api, settings, my_request):
    """§5: message attachments must really be images or PDFs (judged by their bytes)."""
    presigned = presign(signed_in_api, "holiday.png", my_request.pk).json()
    response = put_file(signed_in_api, presigned["presigned_url"], FAKE_PNG, "image/png")
    assert response.status_code == 422
    assert response.json()["error"] == (
        "'holiday.png' has an invalid file type. Only images or PDFs are allowed."
    )
    assert stored_files(settings) == []


def test_uploads_other_than_attachments_take_any_file_type(signed_in_api, settings):
    """§5 'File upload': no accepted-type list (e.g. a survey answer's file)."""
    key = upload_via_api(signed_in_api, "notes.txt", b"just text\n", content_type="text/plain")
    upload = Upload.objects.get(key=key)
    assert (upload.status, upload.content_type) == ("uploaded", "text/plain")
    presigned = presign(signed_in_api, "empty.txt").json()
    response = put_file(signed_in_api, presigned["presigned_url"], b"")
    assert response.status_code == 422
    assert response.json()["error"] == "'empty.txt' is empty. Please choose another file."


def test_upload_larger_than_djangos_memory_limit_is_streamed(signed_in_api, my_request):
    data = png_bytes() + b"\0" * (3 * 1024 * 1024)
    key = upload_via_api(signed_in_api, "big.png", data, my_request.pk)
    assert Upload.objects.get(key=key).size == len(data)


def test_expired_upload_address_is_refused(signed_in_api, settings, my_request):
    """ARCHITECTURE §5: our own PUT endpoint is signed and expires (15 minutes)."""
    presigned = presign(signed_in_api, "late.png", my_request.pk).json()
    with freeze_time(timezone.now() + timedelta(minutes=16)):
        response = put_file(signed_in_api, presigned["presigned_url"], png_bytes())
    assert response.status_code == 403
    assert response.json()["error"] == services.LINK_EXPIRED
    assert stored_files(settings) == []


def test_forged_upload_address_is_refused(signed_in_api, my_request):
    presigned = presign(signed_in_api, "x.png", my_request.pk).json()
    url = presigned["presigned_url"]
    other_id = Upload.objects.get(key=presigned["key"]).pk + 1
    forged = re.sub(r"/put/\d+:", f"/put/{other_id}:", url)
    assert put_file(signed_in_api, forged, png_bytes()).status_code == 403
    assert put_file(signed_in_api, url + "x", png_bytes()).status_code == 403


def test_one_file_per_upload_address(signed_in_api, settings, my_request):
    """A second PUT cannot replace a file once received (it may already be attached)."""
    presigned = presign(signed_in_api, "one.png", my_request.pk).json()
    assert put_file(signed_in_api, presigned["presigned_url"], png_bytes()).status_code == 200
    again = put_file(signed_in_api, presigned["presigned_url"], pdf_bytes())
    assert again.status_code == 409
    assert (Path(settings.MEDIA_ROOT) / presigned["key"]).read_bytes() == png_bytes()


# ----------------------------------------------------------------------------- expiring_url


def test_expiring_url_only_for_participants(
    signed_in_api, make_api, user, other_user, user_factory, my_request
):
    """Issue #3: only the request's participants get an expiring_url; others get a 404."""
    key = upload_via_api(signed_in_api, "photo.png", png_bytes(), my_request.pk)

    grace = make_api()
    grace.sign_in(other_user.email)
    response = grace.get("uploads/expiring_url", query={"key": key})
    assert response.status_code == 404
    assert grace.get("uploads/expiring_url", query={"key": "uploads/nope/x.png"}).status_code == 404

    concierge = user_factory(email="sam@example.com", groups=["Concierges"])
    sam = make_api()
    sam.sign_in(concierge.email)
    assert sam.get("uploads/expiring_url", query={"key": key}).status_code == 200

    # A concierge's file on the employee's request: the employee may download it.
    concierge_upload = services.upload_create(
        owner=concierge, filename="plan.pdf", request_id=my_request.pk
    )
    token = services.upload_put_url(upload=concierge_upload, base_url="").rsplit("/", 1)[-1]
    services.upload_receive(token=token, body=io.BytesIO(pdf_bytes()), content_length=None)
    assert (
        signed_in_api.get("uploads/expiring_url", query={"key": concierge_upload.key}).status_code
        == 200
    )


def test_expiring_url_for_an_unattached_upload_is_the_owners_only(
    signed_in_api, make_api, other_user
):
    key = upload_via_api(signed_in_api, "id-card.png", png_bytes())
    assert signed_in_api.get("uploads/expiring_url", query={"key": key}).status_code == 200
    grace = make_api()
    grace.sign_in(other_user.email)
    assert grace.get("uploads/expiring_url", query={"key": key}).status_code == 404


def test_expiring_url_needs_sign_in(api):
    assert api.get("uploads/expiring_url", query={"key": "uploads/x/y.png"}).status_code == 401


def test_download_address_expires(signed_in_api, my_request):
    key = upload_via_api(signed_in_api, "photo.png", png_bytes(), my_request.pk)
    url = signed_in_api.get("uploads/expiring_url", query={"key": key}).json()["expiring_url"]
    with freeze_time(timezone.now() + timedelta(minutes=6)):
        response = signed_in_api.client.get(url)
    assert response.status_code == 403


def test_download_name_is_safely_quoted(signed_in_api, my_request):
    filename = 'Quote "draft" ünïcode €.pdf'
    key = upload_via_api(signed_in_api, filename, pdf_bytes(), my_request.pk)
    url = signed_in_api.get("uploads/expiring_url", query={"key": key}).json()["expiring_url"]
    response, content = download(signed_in_api, url)
    assert content == pdf_bytes()
    assert response["Content-Disposition"] == (
        'attachment; filename="Quote _draft_ unicode .pdf"; '
        "filename*=UTF-8''Quote%20%22draft%22%20%C3%BCn%C3%AFcode%20%E2%82%AC.pdf"
    )
    assert content_disposition("a\r\nb.pdf").startswith('attachment; filename="a__b.pdf"')
