"""An email on its way: what `services`, `tasks` and `delivery` hand to each other."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True)
class OutgoingEmail:
    """A plain-text email, or with `html` a multipart one (the plain text, then the HTML).
    `headers` are added as they are (e.g. Message-ID, In-Reply-To, References,
    List-Unsubscribe); `reply_to` sets Reply-To."""

    to: str
    subject: str
    body: str
    html: str = ""
    headers: dict[str, str] | None = None
    reply_to: str = ""
