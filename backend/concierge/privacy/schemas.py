from __future__ import annotations

from datetime import date, datetime

from ninja import Schema


class DataExportOut(Schema):
    """The latest 'Download my data' of the signed-in person ('none' when never asked)."""

    status: str
    requested_at: datetime | None = None
    expires_at: datetime | None = None
    message: str = ""


class DataExportDownloadIn(Schema):
    """The emailed link's single-use token, from the fragment of its address."""

    token: str


class RequestRetentionOut(Schema):
    """When a retention window will erase the request's messages (null: no window, or not
    completed); `erased` once it happened."""

    erase_on: date | None
    erased: bool
