"""Reply-time promises: a company's business calendar and targets, and each request's clock."""

from __future__ import annotations

from datetime import time
from zoneinfo import available_timezones

from django.core.exceptions import ValidationError
from django.db import models

from concierge.service_levels.calendar import BusinessCalendar

WEEKDAY_NAMES = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


def _valid_time_zone(value: str) -> None:
    if value not in available_timezones():
        raise ValidationError(
            f"'{value}' is not a time zone (e.g. Europe/Paris, America/New_York)."
        )


def _valid_weekdays(value: str) -> None:
    try:
        days = [int(part) for part in value.split(",") if part.strip()]
    except ValueError:
        days = [-1]
    if not days or any(day < 0 or day > 6 for day in days):
        raise ValidationError("List the working days as numbers, Monday 0 to Sunday 6: 0,1,2,3,4.")


def default_opens() -> time:
    # A callable rather than a fixed time: Django's check warns (fields.W161) about a fixed
    # default whenever the clock is within seconds of it, which made `check --deploy` fail
    # at 08:59:57 and 16:59:57.
    return time(9, 0)


def default_closes() -> time:
    return time(17, 0)


class ServiceLevel(models.Model):
    """A company's reply-time promise: targets in business hours on its business calendar."""

    company = models.OneToOneField(
        "accounts.Company", on_delete=models.CASCADE, related_name="service_level"
    )
    first_response_minutes = models.PositiveIntegerField(
        default=240, help_text="Business minutes from a new request to the concierge's first reply."
    )
    resolution_minutes = models.PositiveIntegerField(
        default=2400,
        help_text="Business minutes from a new request to its completion, counted only while "
        "the request waits on the concierge.",
    )
    time_zone = models.CharField(max_length=64, default="UTC", validators=[_valid_time_zone])
    weekdays = models.CharField(
        max_length=20,
        default="0,1,2,3,4",
        validators=[_valid_weekdays],
        help_text="Working days, Monday 0 to Sunday 6.",
    )
    opens = models.TimeField(default=default_opens)
    closes = models.TimeField(default=default_closes)

    class Meta:
        verbose_name = "reply-time promise"

    def __str__(self) -> str:
        return f"Reply-time promise of {self.company_id}"

    def clean(self) -> None:
        if self.closes <= self.opens:
            raise ValidationError({"closes": "Closing time must be after opening time."})

    def calendar(self) -> BusinessCalendar:
        """The business calendar (holidays must be prefetched or are read here)."""
        return BusinessCalendar(
            time_zone=self.time_zone,
            weekdays=frozenset(int(d) for d in self.weekdays.split(",") if d.strip()),
            opens=self.opens,
            closes=self.closes,
            holidays=frozenset(h.date for h in self.holidays.all()),
        )


class Holiday(models.Model):
    """A day off on a company's business calendar: the clock does not run."""

    service_level = models.ForeignKey(
        ServiceLevel, on_delete=models.CASCADE, related_name="holidays"
    )
    date = models.DateField()
    name = models.CharField(max_length=100, blank=True)

    class Meta:
        ordering = ["date"]
        constraints = [
            models.UniqueConstraint(fields=["service_level", "date"], name="one_holiday_per_date")
        ]

    def __str__(self) -> str:
        return f"{self.date} {self.name}".strip()


class RequestClock(models.Model):
    """A request's reply-time clock. It runs only while the request waits on the concierge
    (since `running_since`), pauses while the last word is the concierge's, and stops when
    the request is completed. `due_at` is the next deadline while it runs (the first reply's,
    then the resolution's), null while paused or stopped: the desk sorts and filters on it."""

    request = models.OneToOneField(
        "servicerequests.ServiceRequest", on_delete=models.CASCADE, related_name="reply_clock"
    )
    service_level = models.ForeignKey(
        ServiceLevel, on_delete=models.SET_NULL, null=True, related_name="clocks"
    )
    first_response_due_at = models.DateTimeField()
    first_responded_at = models.DateTimeField(null=True, blank=True)
    resolution_minutes = models.PositiveIntegerField()
    used_seconds = models.PositiveIntegerField(
        default=0, help_text="Business seconds counted before `running_since`."
    )
    running_since = models.DateTimeField(null=True, blank=True)
    resolution_due_at = models.DateTimeField(null=True, blank=True)
    due_at = models.DateTimeField(null=True, blank=True, db_index=True)
    completed_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"Clock of request {self.request_id}"
