"""What a file is, judged by its content rather than its name: the picture types every upload
knows by their first bytes, and the check an admin's uploaded picture passes (company logos,
catalogue images and provider logos), so that a file named like a picture is one."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from xml.etree.ElementTree import ParseError  # noqa: S405 (only its exception: parsing is defusedxml's)

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring
from django.core.exceptions import ValidationError
from django.core.files import File
from django.core.validators import FileExtensionValidator

SNIFF_BYTES = 16


@dataclass(frozen=True)
class FileType:
    extensions: tuple[str, ...]  # the names a file of this type goes by
    matches: Callable[[bytes], bool]  # whether a file's first SNIFF_BYTES bytes are this type


PICTURE_TYPES: dict[str, FileType] = {
    "image/png": FileType((".png",), lambda head: head.startswith(b"\x89PNG\r\n\x1a\n")),
    "image/jpeg": FileType((".jpg", ".jpeg"), lambda head: head.startswith(b"\xff\xd8\xff")),
    "image/gif": FileType((".gif",), lambda head: head[:6] in (b"GIF87a", b"GIF89a")),
    "image/webp": FileType((".webp",), lambda head: head[:4] == b"RIFF" and head[8:12] == b"WEBP"),
}

# An admin's picture may also be a drawing (SVG): it is shown in <img>, where scripts never run,
# and /media/ answers with a sandboxing Content-Security-Policy (common.views.public_media).
SVG_EXTENSION = ".svg"
PICTURE_EXTENSIONS = sorted(
    {extension.lstrip(".") for kind in PICTURE_TYPES.values() for extension in kind.extensions}
    | {SVG_EXTENSION.lstrip(".")}
)
PICTURE_MAX_BYTES = 5 * 1024 * 1024
_SVG_ROOTS = ("svg", "{http://www.w3.org/2000/svg}svg")


def _is_svg(content: bytes) -> bool:
    try:
        return fromstring(content).tag in _SVG_ROOTS  # type: ignore[no-any-return]
    except (ParseError, DefusedXmlException, ValueError):
        return False


def validate_picture(file: File) -> None:
    """An admin's uploaded picture: at most 5 MB, and a PNG, JPEG, GIF or WebP image by its
    first bytes, or an SVG drawing by its name and its XML."""
    name = file.name or "The file"
    if file.size is not None and file.size > PICTURE_MAX_BYTES:
        raise ValidationError(f"'{name}' is larger than 5 MB. Please upload a smaller picture.")
    file.seek(0)
    if name.lower().endswith(SVG_EXTENSION):
        is_picture = _is_svg(file.read())
    else:
        head = file.read(SNIFF_BYTES)
        is_picture = any(kind.matches(head) for kind in PICTURE_TYPES.values())
    file.seek(0)
    if not is_picture:
        raise ValidationError(
            f"'{name}' is not a picture. Please upload a PNG, JPEG, GIF, WebP or SVG file."
        )


PICTURE_VALIDATORS: list[Callable[[File], None]] = [
    FileExtensionValidator(PICTURE_EXTENSIONS),
    validate_picture,
]
