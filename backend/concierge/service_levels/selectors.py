"""Reply-time reads: a person's business calendar and targets, and a request's clock as the
desk and the employee see it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Literal

from django.utils import timezone

from concierge.service_levels.calendar import business_seconds_between
from concierge.service_levels.models import RequestClock, ServiceLevel

if TYPE_CHECKING:
    from concierge.accounts.models import User

DUE_SOON = timedelta(hours=1)

SlaState = Literal["overdue", "due_soon", "on_track", "paused", "completed"]


def service_level_for_user(*, user: User) -> ServiceLevel | None:
    """The promise of the employee's company (their first company by name that has one) with
    its holidays: one or two queries."""
    return (
        ServiceLevel.objects.filter(company__members=user)
        .prefetch_related("holidays")
        .order_by("company__name")
        .first()
    )


def request_clock(service_request: object) -> RequestClock | None:
    """The request's clock if it has one (read through `select_related("reply_clock")` or one
    query)."""
    try:
        return service_request.reply_clock  # type: ignore[attr-defined, no-any-return]
    except RequestClock.DoesNotExist:
        return None


@dataclass(frozen=True)
class SlaView:
    state: SlaState
    due_at: datetime | None
    target: Literal["first_response", "resolution"] | None
    first_response_due_at: datetime
    first_responded_at: datetime | None
    resolution_due_at: datetime | None


SlaTarget = Literal["first_response", "resolution"]


def sla_state(
    *, completed: bool, running: bool, responded: bool, due_at: datetime | None, now: datetime
) -> tuple[SlaState, SlaTarget | None]:
    """A clock's badge from its facts (completed, running, first reply sent, next deadline):
    the state, and which deadline `due_at` is while the clock runs (else None)."""
    if completed:
        return "completed", None
    if not running or due_at is None:
        return "paused", None
    target: SlaTarget = "resolution" if responded else "first_response"
    if due_at <= now:
        return "overdue", target
    if due_at - now <= DUE_SOON:
        return "due_soon", target
    return "on_track", target


def sla_view(clock: RequestClock | None, now: datetime | None = None) -> SlaView | None:
    """Where a request stands against its promise, for a badge: overdue, due within the hour,
    on track, paused (waiting on the employee) or completed. None without a promise."""
    if clock is None:
        return None
    state, target = sla_state(
        completed=clock.completed_at is not None,
        running=clock.running_since is not None,
        responded=clock.first_responded_at is not None,
        due_at=clock.due_at,
        now=now or timezone.now(),
    )
    return SlaView(
        state=state,
        due_at=clock.due_at if target else None,
        target=target,
        first_response_due_at=clock.first_response_due_at,
        first_responded_at=clock.first_responded_at,
        resolution_due_at=clock.resolution_due_at,
    )


def expect_reply_by(clock: RequestClock | None) -> datetime | None:
    """What the employee is told: when to expect the first reply (None once it came, or
    without a promise)."""
    if clock is None or clock.first_responded_at is not None or clock.completed_at is not None:
        return None
    return clock.first_response_due_at


def business_seconds_used(clock: RequestClock, now: datetime | None = None) -> int:
    """Business seconds the request has waited on the concierge so far."""
    used = clock.used_seconds
    if clock.running_since is not None and clock.service_level is not None:
        calendar = clock.service_level.calendar()
        used += business_seconds_between(calendar, clock.running_since, now or timezone.now())
    return used
