"""Admins' pictures (company logos, catalogue images, provider logos) are checked by their
content, not only their names."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile

from concierge.common.file_types import PICTURE_VALIDATORS, validate_picture

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32
SVG = b'<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>'


def _check(name: str, content: bytes) -> None:
    upload = SimpleUploadedFile(name, content)
    for validator in PICTURE_VALIDATORS:
        validator(upload)


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("logo.png", PNG),
        ("logo.JPG", b"\xff\xd8\xff\xe0" + b"\x00" * 20),
        ("logo.gif", b"GIF89a" + b"\x00" * 20),
        ("logo.webp", b"RIFF\x00\x00\x00\x00WEBPVP8 "),
        ("logo.svg", SVG),
        ("bare.svg", b"<svg/>"),
    ],
)
def test_admin_pictures_accepted_when_their_content_is_a_picture(name, content):
    """Admin: a PNG, JPEG, GIF, WebP or SVG picture is accepted."""
    _check(name, content)


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("logo.png", b"<html><script>alert(1)</script></html>", "is not a picture"),
        ("logo.svg", b"<html><body>not a drawing</body></html>", "is not a picture"),
        ("logo.svg", b"<svg", "is not a picture"),
        (
            "logo.svg",
            b'<!DOCTYPE svg [<!ENTITY x "y">]><svg>&x;</svg>',
            "is not a picture",
        ),
        ("logo.html", PNG, "File extension"),
        ("logo.pdf", b"%PDF-1.4", "File extension"),
        ("logo.png", b"", "is not a picture"),
    ],
)
def test_admin_pictures_refused_when_not_a_picture(name, content, message):
    """Admin: a file named like a picture that is not one (an HTML page, a broken or
    entity-laden SVG, an empty file), or a picture under another name, is refused."""
    with pytest.raises(ValidationError) as raised:
        _check(name, content)
    assert message in " ".join(raised.value.messages)


def test_admin_pictures_over_5_mb_are_refused():
    """Admin: a picture over 5 MB is refused with its name."""
    upload = SimpleUploadedFile("huge.png", PNG + b"\x00" * (5 * 1024 * 1024))
    with pytest.raises(ValidationError, match="'huge.png' is larger than 5 MB"):
        validate_picture(upload)
