"""The outbox folder: one file per email or SMS, named so that listing sorts by time."""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from email import message_from_bytes, policy
from pathlib import Path

from django.conf import settings


@dataclass(frozen=True)
class OutboxItem:
    name: str
    kind: str
    to: str
    subject: str
    body: str
    """The plain text (an email's text/plain part; its HTML when it has no other)."""
    created_at: datetime
    html: str = ""
    """An email's text/html part when it has one beside the plain text, as sent."""


def outbox_dir() -> Path:
    path = Path(settings.OUTBOX_DIR)
    path.mkdir(parents=True, exist_ok=True)
    return path


def outbox_write(*, kind: str, extension: str, content: bytes) -> Path:
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
    path = outbox_dir() / f"{stamp}-{kind}-{secrets.token_hex(4)}.{extension}"
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(content)
    tmp.rename(path)
    return path


def _read(path: Path) -> OutboxItem:
    created = datetime.strptime(path.name.split("-", 1)[0], "%Y%m%dT%H%M%S%fZ").replace(tzinfo=UTC)
    if path.suffix == ".eml":
        message = message_from_bytes(path.read_bytes(), policy=policy.default)
        body_part = message.get_body(preferencelist=("plain", "html"))  # type: ignore[attr-defined]
        html_part = message.get_body(preferencelist=("html",))  # type: ignore[attr-defined]
        return OutboxItem(
            name=path.name,
            kind="email",
            to=str(message["To"]),
            subject=str(message["Subject"]),
            body=body_part.get_content() if body_part else "",
            created_at=created,
            html=html_part.get_content() if html_part and html_part is not body_part else "",
        )
    data = json.loads(path.read_text())
    return OutboxItem(
        name=path.name, kind="sms", to=data["to"], subject="", body=data["body"], created_at=created
    )


def outbox_list() -> list[OutboxItem]:
    """Newest first."""
    paths = sorted(
        (p for p in outbox_dir().iterdir() if p.suffix in (".eml", ".json")), reverse=True
    )
    return [_read(path) for path in paths]
