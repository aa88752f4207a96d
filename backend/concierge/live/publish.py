"""Publishing a live event (see `concierge.live.events` for what one carries)."""

from __future__ import annotations

from django.db import transaction

from concierge.live import broker
from concierge.live.events import Event


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
    event = Event(
        type=type,
        request_id=request_id,
        owner_id=owner_id,
        staff_only=staff_only,
        status=status,
        message_id=message_id,
        note_id=note_id,
    )
    transaction.on_commit(lambda: broker.broker_get().publish(event))
