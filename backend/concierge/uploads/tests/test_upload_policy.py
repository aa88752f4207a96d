"""Issue 11 'Smaller': the upload allowlist is one list shared by the server and the web app."""

from __future__ import annotations

from pathlib import Path

import pytest

from concierge.servicerequests.services import request_create
from concierge.uploads.files import ATTACHMENT_TYPES, sniff_attachment_type
from concierge.uploads.management.commands.upload_policy import upload_policy_module
from concierge.uploads.tests.samples import pdf_bytes, png_bytes

from .test_uploads import presign, put_file

FRONTEND_MODULE = Path(__file__).resolve().parents[4] / "frontend/src/api/upload-policy.ts"
# The first bytes of an iPhone photo (HEIC): an image, but not one the server takes.
HEIC_HEAD = b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic"


def test_the_web_app_offers_exactly_the_servers_attachment_types():
    """The committed module is what `make openapi` writes from ATTACHMENT_TYPES today."""
    assert FRONTEND_MODULE.read_text() == upload_policy_module()
    module = upload_policy_module()
    for content_type, kind in ATTACHMENT_TYPES.items():
        assert f"'{content_type}'" in module
        assert all(f"'{extension}'" in module for extension in kind.extensions)
    assert "heic" not in module.lower() and "image/*" not in module


@pytest.mark.parametrize(
    ("head", "expected"),
    [(png_bytes(), "image/png"), (pdf_bytes(), "application/pdf"), (HEIC_HEAD, None)],
)
def test_the_server_judges_attachments_by_the_same_list(head, expected):
    assert sniff_attachment_type(head[:16]) == expected


@pytest.mark.django_db
def test_a_heic_photo_is_refused_as_an_attachment(signed_in_api, user):
    """What the picker no longer offers, the server refuses with the spec §5 text."""
    service_request = request_create(user=user, name="Walk Rex")
    presigned = presign(signed_in_api, "IMG_0001.HEIC", service_request.pk).json()
    response = put_file(signed_in_api, presigned["presigned_url"], HEIC_HEAD + b"\0" * 64)
    assert response.status_code == 422
    assert response.json()["error"] == (
        "'IMG_0001.HEIC' has an invalid file type. Only images or PDFs are allowed."
    )
