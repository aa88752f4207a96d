"""Reply-time writes: the request's clock starts with the request, pauses when the concierge
has the last word, resumes when the employee writes, and stops when the request is completed.

Called by the requests domain in the same transaction as the write that moves the clock.
"""

from __future__ import annotations

from datetime import datetime
from functools import cache
from typing import TYPE_CHECKING

from django.db import connection

from concierge.common.sql_rows import ModelColumns, row_split
from concierge.service_levels.calendar import add_business_seconds, business_seconds_between
from concierge.service_levels.models import RequestClock, ServiceLevel
from concierge.service_levels.selectors import service_level_for_user

if TYPE_CHECKING:
    from concierge.accounts.models import User


def clock_start(*, request_id: int, employee: User, at: datetime) -> RequestClock | None:
    """A new request: its clock runs from `at` on the employee's company's calendar. No
    promise for the company: no clock."""
    level = service_level_for_user(user=employee)
    if level is None:
        return None
    calendar = level.calendar()
    first_due = add_business_seconds(calendar, at, level.first_response_minutes * 60)
    resolution_due = add_business_seconds(calendar, at, level.resolution_minutes * 60)
    return RequestClock.objects.create(
        request_id=request_id,
        service_level=level,
        first_response_due_at=first_due,
        resolution_minutes=level.resolution_minutes,
        running_since=at,
        resolution_due_at=resolution_due,
        due_at=min(first_due, resolution_due),
    )


_CLOCK = ModelColumns(RequestClock, "c")
_LEVEL = ModelColumns(ServiceLevel, "l")


@cache
def _locked_sql(vendor: str) -> str:
    lock = " FOR UPDATE OF c" if connection.features.has_select_for_update_of else ""
    return (
        f"SELECT {_CLOCK.sql}, {_LEVEL.sql} FROM {RequestClock._meta.db_table} c "  # noqa: S608 (model tables)
        f"LEFT JOIN {ServiceLevel._meta.db_table} l ON l.id = c.service_level_id "
        f"WHERE c.request_id = %s{lock}"
    )


def _locked(request_id: int) -> RequestClock | None:
    """The request's clock, locked for the move, with its promise (as `select_related` reads
    it). Every message moves a clock: the SQL is written once, because the ORM took longer to
    compile this query than the database takes to answer it."""
    with connection.cursor() as cursor:
        cursor.execute(_locked_sql(connection.vendor), [request_id])
        row = cursor.fetchone()
    if row is None:
        return None
    clock_values, level_values = row_split(row, (_CLOCK, _LEVEL))
    clock = _CLOCK.instance(clock_values)
    level = _LEVEL.instance(level_values) if level_values[0] is not None else None
    RequestClock._meta.get_field("service_level").set_cached_value(clock, level)
    return clock


# What the clock's moves change; a move that changes none of them writes nothing (a write
# would fire the triggers of the desk's order and the owner's read version for nothing).
_MOVING_FIELDS = (
    "first_responded_at",
    "used_seconds",
    "running_since",
    "resolution_due_at",
    "due_at",
    "completed_at",
)


def _state(clock: RequestClock) -> dict[str, object]:
    return {name: getattr(clock, name) for name in _MOVING_FIELDS}


def _save_changes(clock: RequestClock, before: dict[str, object]) -> None:
    changed = [name for name, value in before.items() if getattr(clock, name) != value]
    if changed:
        clock.save(update_fields=changed)


def _pause(clock: RequestClock, at: datetime) -> None:
    if clock.running_since is not None and clock.service_level is not None:
        calendar = clock.service_level.calendar()
        clock.used_seconds += business_seconds_between(calendar, clock.running_since, at)
    clock.running_since = None
    clock.due_at = None


def _resume(clock: RequestClock, at: datetime) -> None:
    if clock.running_since is not None or clock.service_level is None:
        return
    calendar = clock.service_level.calendar()
    left = clock.resolution_minutes * 60 - clock.used_seconds
    clock.running_since = at
    clock.resolution_due_at = add_business_seconds(calendar, at, left) if left > 0 else at
    clock.due_at = (
        min(clock.first_response_due_at, clock.resolution_due_at)
        if clock.first_responded_at is None
        else clock.resolution_due_at
    )


def clock_on_message(*, request_id: int, from_employee: bool, at: datetime) -> RequestClock | None:
    """A message on the thread: the employee's resumes the clock (and restarts a completed
    request's, which their message reopens); the concierge's pauses it and counts as the first
    reply when it is one. Returns the clock as it is now (None: the request has none)."""
    clock = _locked(request_id)
    if clock is None:
        return None
    before = _state(clock)
    if from_employee:
        clock.completed_at = None
        _resume(clock, at)
    else:
        if clock.first_responded_at is None:
            clock.first_responded_at = at
        if clock.completed_at is None:
            _pause(clock, at)
    _save_changes(clock, before)
    return clock


def clock_on_status(*, request_id: int, completed: bool, at: datetime) -> None:
    """Completed: the clock stops. Reopened: the request is back in the queue, so it runs."""
    clock = _locked(request_id)
    if clock is None:
        return
    before = _state(clock)
    if completed:
        _pause(clock, at)
        clock.completed_at = at
    elif clock.completed_at is not None:
        clock.completed_at = None
        _resume(clock, at)
    _save_changes(clock, before)


def clock_on_completion_undone(
    *, request_id: int, at: datetime, waiting_on_concierge: bool
) -> None:
    """A completion undone moments after it was made: the clock is as it was before, running
    while the employee waits on the concierge (the last word was theirs), paused otherwise."""
    clock = _locked(request_id)
    if clock is None or clock.completed_at is None:
        return
    before = _state(clock)
    clock.completed_at = None
    if waiting_on_concierge:
        _resume(clock, at)
    _save_changes(clock, before)
