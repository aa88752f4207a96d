"""Small real files for upload tests."""

from __future__ import annotations

import struct
import zlib


def png_bytes(width: int = 2, height: int = 2, rgb: tuple[int, int, int] = (255, 128, 0)) -> bytes:
    """A valid RGB PNG of the given size, in one colour."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data))
            + kind
            + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
        )

    raw = (b"\x00" + bytes(rgb) * width) * height
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


def pdf_bytes() -> bytes:
    """A minimal one-page PDF."""
    return (
        b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n"
        b"2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n"
        b"3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\n"
        b"trailer<</Root 1 0 R>>\n%%EOF\n"
    )


FAKE_PNG = b"this is plain text pretending to be a picture\n"


def presign(api, filename: str, request_id: int | None = None):
    """POST /uploads/presigned_url as the signed-in `api` client."""
    upload = {"filename": filename}
    if request_id is not None:
        upload["request_id"] = request_id
    return api.post("uploads/presigned_url", {"upload": upload})


def put_file(api, url: str, data: bytes, content_type: str = "application/octet-stream"):
    """PUT the raw bytes to a local presigned URL the way the browser does: no credentials."""
    return api.client.put(url, data=data, content_type=content_type)


def upload_via_api(
    api, filename: str, data: bytes, request_id: int | None = None, content_type: str = ""
) -> str:
    """Presign and PUT a file; return its key (asserting both steps succeed)."""
    presigned = presign(api, filename, request_id)
    assert presigned.status_code == 200, presigned.content
    put = put_file(api, presigned.json()["presigned_url"], data, content_type or "image/png")
    assert put.status_code == 200, put.content
    return presigned.json()["key"]
