"""Live events: what happened to which request, published after the database commits.

An event names a request and what changed; it never carries message text, so a client that
receives one refetches what it shows through the normal (permission-checked) API. Who may
receive an event is decided here, in `event_visible_to`:

- an employee receives the events of their own requests, and never staff-only ones (internal
  notes, presence);
- a concierge receives every event (one shared desk: every concierge works every company).

The payload a client sees is `{"type", "request_id", "status"?, "message_id"?, "note_id"?}`.
`publish.event_publish` sends an event once the transaction commits, `broker` carries it
between processes, and `concierge.live` streams it to the signed-in browsers.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from functools import cached_property
from typing import Any

REQUEST_CREATED = "request.created"
REQUEST_UPDATED = "request.updated"  # status or assignee changed
REQUEST_SEEN = "request.seen"  # the employee opened the thread: its replies so far are seen
MESSAGE_CREATED = "message.created"
NOTE_CREATED = "note.created"  # staff only
RATING_CHANGED = "rating.changed"  # staff only: the employee rated, or commented on a rating
PRESENCE_UPDATED = "presence.updated"  # staff only
RESYNC = "resync"  # sent by a process whose pub/sub connection came back: refetch everything
# Internal, never sent to a client: sessions of the user in `owner_id` were signed out, so
# that user's streams re-check their session at once (and end when it was one of them).
SESSIONS_REVOKED = "sessions.revoked"


@dataclass(frozen=True)
class Event:
    type: str
    request_id: int | None = None
    owner_id: int | None = None  # the employee who owns the request
    staff_only: bool = False
    status: str | None = None
    message_id: int | None = None
    note_id: int | None = None

    def payload(self) -> dict[str, Any]:
        """What a client receives: never the owner or the audience."""
        data: dict[str, Any] = {"type": self.type}
        if self.request_id is not None:
            data["request_id"] = self.request_id
        for name in ("status", "message_id", "note_id"):
            value = getattr(self, name)
            if value is not None:
                data[name] = value
        return data

    @cached_property
    def payload_json(self) -> str:
        """`payload()` as JSON, made once however many streams send it."""
        return json.dumps(self.payload(), separators=(",", ":"))

    def to_json(self) -> str:
        return json.dumps(asdict(self), separators=(",", ":"))

    @classmethod
    def from_json(cls, raw: str | bytes) -> Event:
        data = json.loads(raw)
        fields = set(cls.__dataclass_fields__)
        return cls(**{key: value for key, value in data.items() if key in fields})


def event_visible_to(event: Event, *, user_id: int, is_concierge: bool) -> bool:
    if is_concierge:
        return True
    if event.type == RESYNC:
        return True
    return not event.staff_only and event.owner_id is not None and event.owner_id == user_id
