"""File rules shared by the upload endpoints: the size limit text, content sniffing, safe names."""

from __future__ import annotations

import mimetypes
import re
import unicodedata
from urllib.parse import quote

SNIFF_BYTES = 16
FILENAME_MAX = 255
KEY_NAME_MAX = 100
_SIZE_UNITS = ("Bytes", "KB", "MB", "GB", "TB")
_CONTENT_TYPE_RE = re.compile(r"^[\w.+-]+/[\w.+-]+$")


def file_size_label(size: int) -> str:
    """1024-based units with one decimal, '.0' dropped (spec §9): 26214400 → '25 MB'."""
    value = float(max(size, 0))
    unit = 0
    while value >= 1024 and unit < len(_SIZE_UNITS) - 1:
        value /= 1024
        unit += 1
    return f"{f'{value:.1f}'.removesuffix('.0')} {_SIZE_UNITS[unit]}"


def too_large_message(limit: int) -> str:
    """Spec §5: 'File size exceeds {limit}, please upload a smaller file.'"""
    return f"File size exceeds {file_size_label(limit)}, please upload a smaller file."


def invalid_type_message(filename: str) -> str:
    """Spec §5, for message attachments that are not an image or a PDF."""
    return f"'{filename}' has an invalid file type. Only images or PDFs are allowed."


def empty_file_message(filename: str) -> str:
    return f"'{filename}' is empty. Please choose another file."


def sniff_attachment_type(head: bytes) -> str | None:
    """The content type of an image or PDF judged by its first bytes, or None for anything else."""
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if head.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if head[:6] in (b"GIF87a", b"GIF89a"):
        return "image/gif"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "image/webp"
    if head.startswith(b"%PDF-"):
        return "application/pdf"
    return None


def guess_content_type(filename: str, declared: str = "") -> str:
    """For general uploads: what the browser declared if it looks like a media type, else a
    guess from the name. Downloads are always attachments with nosniff, so this is cosmetic."""
    declared = (declared or "").split(";", 1)[0].strip().lower()
    if _CONTENT_TYPE_RE.match(declared) and len(declared) <= 100:
        return declared
    return mimetypes.guess_type(filename)[0] or "application/octet-stream"


def display_filename(raw: str) -> str:
    """The name a person sees: the last path part, without control characters, ≤ 255 chars."""
    name = (raw or "").replace("\\", "/").rsplit("/", 1)[-1]
    name = "".join(ch for ch in name if unicodedata.category(ch)[0] != "C").strip()
    return _truncate_keeping_extension(name, FILENAME_MAX)


def key_filename(display: str) -> str:
    """An ASCII, URL- and path-safe version of a name for the storage key."""
    ascii_name = unicodedata.normalize("NFKD", display).encode("ascii", "ignore").decode()
    ascii_name = re.sub(r"[^A-Za-z0-9._-]+", "-", ascii_name).strip(".-_")
    ascii_name = re.sub(r"\.{2,}", ".", ascii_name)
    return _truncate_keeping_extension(ascii_name, KEY_NAME_MAX) or "file"


def content_disposition(filename: str) -> str:
    """`attachment` with a quoted ASCII fallback and the exact name as RFC 5987 `filename*`."""
    fallback = unicodedata.normalize("NFKD", filename).encode("ascii", "ignore").decode()
    fallback = re.sub(r'[^\x20-\x7e]|["\\]', "_", fallback).strip() or "download"
    return f"attachment; filename=\"{fallback}\"; filename*=UTF-8''{quote(filename, safe='')}"


def _truncate_keeping_extension(name: str, limit: int) -> str:
    if len(name) <= limit:
        return name
    stem, dot, ext = name.rpartition(".")
    if dot and stem and len(ext) <= 10:
        return stem[: limit - len(ext) - 1] + "." + ext
    return name[:limit]
