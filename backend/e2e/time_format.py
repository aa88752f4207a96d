"""What the web app shows for a point in time (issue 29 'Time, everywhere the same'), written
again here so browser tests can say which text a moment must read as in a given zone:
'today 4:00 PM', 'tomorrow 9:00 AM', 'yesterday 6:30 PM', 'Mon, Nov 30, 9:00 AM', with the
year when it is not the current one."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from django.utils import timezone

WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def when(moment: datetime | str, zone: str, *, capitalize: bool = False) -> str:
    """`moment` as a viewer in `zone` reads it now."""
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment.replace("Z", "+00:00"))
    tz = ZoneInfo(zone)
    local = moment.astimezone(tz)
    today = timezone.now().astimezone(tz).date()
    hour = local.hour % 12 or 12
    time = f"{hour}:{local.minute:02d} {'AM' if local.hour < 12 else 'PM'}"
    days = (local.date() - today).days
    if days in (-1, 0, 1):
        text = f"{('yesterday', 'today', 'tomorrow')[days + 1]} {time}"
    else:
        year = "" if local.year == today.year else f", {local.year}"
        weekday, month = WEEKDAYS[local.weekday()], MONTHS[local.month - 1]
        text = f"{weekday}, {month} {local.day}{year}, {time}"
    return text[:1].upper() + text[1:] if capitalize else text
