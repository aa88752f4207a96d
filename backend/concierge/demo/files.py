"""The demo's files, made in code: provider logos (SVG), one-page PDFs and small PNG pictures."""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence


def logo_svg(provider_name: str, color: str) -> bytes:
    """A provider's logo: its initials on a rounded tile of its colour."""
    words = [w for w in provider_name.replace("&", " ").split() if w[0].isalnum()]
    initials = (words[0][0] + (words[1][0] if len(words) > 1 else "")).upper()
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="160" height="160" viewBox="0 0 160 160" '
        f'role="img" aria-label="{provider_name}">'
        f'<rect width="160" height="160" rx="36" fill="{color}"/>'
        '<circle cx="128" cy="32" r="14" fill="#ffffff" fill-opacity="0.25"/>'
        '<text x="80" y="82" text-anchor="middle" dominant-baseline="middle" '
        'font-family="Inter, Helvetica, Arial, sans-serif" font-size="60" font-weight="700" '
        f'fill="#ffffff">{initials}</text></svg>'
    ).encode()


def _pdf_text(value: str) -> str:
    return value.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def simple_pdf(title: str, lines: Sequence[str]) -> bytes:
    """A one-page PDF (Helvetica, Latin-1) with a title and a few lines."""
    stream = [f"BT /F1 18 Tf 72 720 Td ({_pdf_text(title)}) Tj /F1 12 Tf"]
    for index, line in enumerate(lines):
        stream.append(f"0 {-36 if index == 0 else -20} Td ({_pdf_text(line)}) Tj")
    stream.append("ET")
    content = "\n".join(stream).encode("latin-1", "replace")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
        b"/Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content),
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


def _rgb(color: str) -> tuple[int, int, int]:
    value = color.removeprefix("#")
    return int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16)


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return (
        struct.pack(">I", len(data))
        + kind
        + data
        + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    )


def simple_png(color: str, width: int = 320, height: int = 240) -> bytes:
    """A small picture (RGB PNG): a sky fading from `color` to white over a darker ground,
    with a pale sun."""
    top = _rgb(color)
    ground = tuple(c * 3 // 5 for c in top)
    sun_x, sun_y, sun_r2 = width * 3 // 4, height // 3, (height // 8) ** 2
    horizon = height * 2 // 3
    rows = bytearray()
    for y in range(height):
        rows.append(0)  # filter: none
        if y >= horizon:
            rows += bytes(ground) * width
            continue
        fade = y / horizon
        sky = bytes(round(c + (255 - c) * fade * 0.8) for c in top)
        for x in range(width):
            inside = (x - sun_x) ** 2 + (y - sun_y) ** 2 <= sun_r2
            rows += b"\xff\xf4\xd6" if inside else sky
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _png_chunk(b"IHDR", header)
        + _png_chunk(b"IDAT", zlib.compress(bytes(rows), 9))
        + _png_chunk(b"IEND", b"")
    )
