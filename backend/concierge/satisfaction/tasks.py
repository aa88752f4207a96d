"""Background tasks of satisfaction (see notifications.background)."""

from __future__ import annotations

import logging

from django_tasks import task

from concierge.satisfaction.invites import rating_invite_deliver_due

logger = logging.getLogger(__name__)


@task()
def rating_invite_deliver(*, request_id: int, completed_at: str) -> str:
    """The completion email of the completion made at `completed_at`, queued
    COMPLETION_EMAIL_DELAY_SECONDS after it (`services.rating_invite_send`): sent if that
    completion still stands, else skipped (returning why)."""
    outcome = rating_invite_deliver_due(request_id=request_id, completed_at=completed_at)
    if outcome != "queued":
        logger.info("No completion email for request %s: %s", request_id, outcome)
    return outcome
