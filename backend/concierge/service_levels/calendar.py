"""Business-hours arithmetic: how many working seconds lie between two moments, and which
moment lies a number of working seconds after another, on a company's business calendar.

Pure functions of their arguments (no database, no clock): the service level's models build a
`BusinessCalendar`, the services and selectors do the arithmetic with it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

# A calendar with no working day at all would never reach a deadline: walks stop after this.
MAX_DAYS = 3 * 366


@dataclass(frozen=True)
class BusinessCalendar:
    """Working hours `opens`–`closes` (local time in `time_zone`) on `weekdays` (Monday is 0),
    except `holidays`."""

    time_zone: str = "UTC"
    weekdays: frozenset[int] = frozenset({0, 1, 2, 3, 4})
    opens: time = time(9, 0)
    closes: time = time(17, 0)
    holidays: frozenset[date] = field(default_factory=frozenset)

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.time_zone)

    def window(self, day: date) -> tuple[datetime, datetime] | None:
        """The working hours of a local day as aware datetimes, or None on a day off."""
        if day.weekday() not in self.weekdays or day in self.holidays or self.closes <= self.opens:
            return None
        zone = self.zone
        return (
            datetime.combine(day, self.opens, tzinfo=zone),
            datetime.combine(day, self.closes, tzinfo=zone),
        )

    def windows_from(self, moment: datetime) -> Iterator[tuple[datetime, datetime]]:
        """The working windows that end after `moment`, in order (at most MAX_DAYS days)."""
        day = moment.astimezone(self.zone).date()
        for offset in range(MAX_DAYS):
            window = self.window(day + timedelta(days=offset))
            if window is not None and window[1] > moment:
                yield window


def business_seconds_between(calendar: BusinessCalendar, start: datetime, end: datetime) -> int:
    """Working seconds from `start` to `end` (0 when `end` is not after `start`)."""
    if end <= start:
        return 0
    total = 0.0
    for opens, closes in calendar.windows_from(start):
        if opens >= end:
            break
        total += (min(closes, end) - max(opens, start)).total_seconds()
    return int(total)


def add_business_seconds(calendar: BusinessCalendar, start: datetime, seconds: int) -> datetime:
    """The moment `seconds` working seconds after `start`. A deadline that falls exactly at
    closing time is that closing time, not the next opening. Without working hours within
    MAX_DAYS, the answer is `start` plus `seconds` of plain time."""
    remaining = max(0, seconds)
    if remaining == 0:
        return start
    for opens, closes in calendar.windows_from(start):
        begin = max(opens, start)
        available = (closes - begin).total_seconds()
        if remaining <= available:
            return begin + timedelta(seconds=remaining)
        remaining -= int(available)
    return start + timedelta(seconds=seconds)
