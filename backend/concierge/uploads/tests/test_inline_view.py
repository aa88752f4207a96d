"""Attachments open inside the thread: `expiring_url?inline=true` serves an image or a PDF
to be shown in the browser (thumbnail, image viewer, PDF viewer), with the same ownership rule
as every download; anything else stays a download."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from freezegun import freeze_time

from concierge.servicerequests import services as request_services
from concierge.uploads.tests.samples import pdf_bytes, png_bytes, upload_via_api

pytestmark = pytest.mark.django_db


@pytest.fixture
def my_request(user):
    return request_services.request_create(user=user, name="Find a dog walker")


@pytest.fixture
def other_user(user_factory):
    return user_factory(email="grace@example.com", first_name="Grace", last_name="Hopper")


def inline_url(api, key: str) -> str:
    response = api.get("uploads/expiring_url", query={"key": key, "inline": "true"})
    assert response.status_code == 200, response.content
    return response.json()["expiring_url"]


def fetch(api, url: str):
    response = api.client.get(url)
    body = b"".join(response.streaming_content) if response.streaming else b""
    return response, body


def test_inline_image_is_shown_not_saved(signed_in_api, my_request):
    """Issue 10 'Attachments open inside the thread': an image is served inline (thumbnail
    and viewer), sandboxed, nosniff, cacheable for the life of its address."""
    key = upload_via_api(signed_in_api, "gate.png", png_bytes(), my_request.pk)
    response, body = fetch(signed_in_api, inline_url(signed_in_api, key))
    assert response.status_code == 200
    assert body == png_bytes()
    assert response["Content-Type"] == "image/png"
    assert response["Content-Disposition"].startswith('inline; filename="gate.png"')
    assert response["X-Content-Type-Options"] == "nosniff"
    assert "sandbox" in response["Content-Security-Policy"]
    assert response["Cache-Control"] == "private, max-age=300"


def test_inline_pdf_opens_in_the_browsers_viewer(signed_in_api, my_request):
    """Issue 10: a PDF opens in the browser's viewer (inline, no script of ours can run)."""
    key = upload_via_api(signed_in_api, "lease.pdf", pdf_bytes(), my_request.pk)
    response, body = fetch(signed_in_api, inline_url(signed_in_api, key))
    assert body == pdf_bytes()
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"].startswith('inline; filename="lease.pdf"')
    assert response["Content-Security-Policy"] == "default-src 'none'; frame-ancestors 'none'"


def test_without_inline_it_stays_a_download(signed_in_api, my_request):
    """`/attachments/{fileKey}` (links from emails) still downloads."""
    key = upload_via_api(signed_in_api, "gate.png", png_bytes(), my_request.pk)
    url = signed_in_api.get("uploads/expiring_url", query={"key": key}).json()["expiring_url"]
    response, _ = fetch(signed_in_api, url)
    assert response["Content-Disposition"].startswith("attachment;")
    assert response["Cache-Control"] == "private, no-store"


def test_other_files_are_never_inline(signed_in_api):
    """Only images and PDFs are viewable inline: an HTML file given as a survey answer is
    always a download, whatever the caller asks."""
    key = upload_via_api(
        signed_in_api, "page.html", b"<script>alert(1)</script>", content_type="text/html"
    )
    response, _ = fetch(signed_in_api, inline_url(signed_in_api, key))
    assert response["Content-Disposition"].startswith("attachment;")
    assert "sandbox" in response["Content-Security-Policy"]


def test_inline_address_of_another_employees_file_is_404(
    signed_in_api, make_api, other_user, my_request
):
    """Ownership: another employee gets a 404, inline or not."""
    key = upload_via_api(signed_in_api, "gate.png", png_bytes(), my_request.pk)
    grace = make_api()
    assert grace.sign_in(other_user.email).status_code == 200
    response = grace.get("uploads/expiring_url", query={"key": key, "inline": "true"})
    assert response.status_code == 404


def test_inline_address_expires_and_cannot_be_forged(signed_in_api, my_request):
    key = upload_via_api(signed_in_api, "gate.png", png_bytes(), my_request.pk)
    url = inline_url(signed_in_api, key)
    with freeze_time(timezone.now() + timedelta(minutes=6)):
        assert signed_in_api.client.get(url).status_code == 403
    # Turning a download address into an inline one breaks its signature.
    download = signed_in_api.get("uploads/expiring_url", query={"key": key}).json()
    token = download["expiring_url"].rsplit("/", 1)[-1]
    value, _, rest = token.partition(":")
    forged = download["expiring_url"].replace(token, f"{value}:inline:{rest}")
    assert signed_in_api.client.get(forged).status_code == 403


def test_inline_flag_must_be_a_boolean(signed_in_api, my_request):
    key = upload_via_api(signed_in_api, "gate.png", png_bytes(), my_request.pk)
    response = signed_in_api.get("uploads/expiring_url", query={"key": key, "inline": "maybe"})
    assert response.status_code == 422
