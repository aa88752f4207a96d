"""Ending a user's open streams when their sessions are signed out.

accounts (below this layer) sends `sessions_revoked` once the sign-out has committed; this
receiver publishes a SESSIONS_REVOKED event on the broker, so every events process (Redis
pub/sub) or this one (in process) hears it, and each stream of that user re-checks its
session at once instead of at its next periodic check (`sse.event_stream`)."""

from __future__ import annotations

from typing import Any

from concierge.live import broker
from concierge.live.events import SESSIONS_REVOKED, Event


def sessions_revoked_publish(sender: Any, *, user_id: int, **kwargs: Any) -> None:
    broker.broker_get().publish(Event(type=SESSIONS_REVOKED, owner_id=user_id, staff_only=True))
