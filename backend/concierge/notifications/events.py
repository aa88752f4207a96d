"""Live events: what happened to which request, published after the database commits.

An event names a request and what changed; it never carries message text, so a client that
receives one refetches what it shows through the normal (permission-checked) API. Who may
receive an event is decided here, in `event_visible_to`:

- an employee receives the events of their own requests, and never staff-only ones (internal
  notes, presence);
- a concierge receives every event (one shared desk: every concierge works every company).

The payload a client sees is `{"type", "request_id", "status"?, "message_id"?, "note_id"?}`.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any

from django.db import transaction

REQUEST_CREATED = "request.created"
REQUEST_UPDATED = "request.updated"  # status or assignee changed
MESSAGE_CREATED = "message.created"
NOTE_CREATED = "note.created"  # staff only
PRESENCE_UPDATED = "presence.updated"  # staff only
RESYNC = "resync"  # sent by a process whose pub/sub connection came back: refetch everything


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


def event_publish(
    *,
    type: str,  # noqa: A002
    request_id: int | None,
    owner_id: int | None,
    staff_only: bool = False,
    status: str | None = None,
    message_id: int | None = None,
    note_id: int | None = None,
) -> None:
    """Publish once the current transaction commits (at once outside a transaction); nothing
    is published for work that rolls back. A broker failure is logged, never raised."""
    from concierge.notifications.broker import broker_get

    event = Event(
        type=type,
        request_id=request_id,
        owner_id=owner_id,
        staff_only=staff_only,
        status=status,
        message_id=message_id,
        note_id=note_id,
    )
    transaction.on_commit(lambda: broker_get().publish(event))
