"""Schemas every app's API shares."""

from __future__ import annotations

from ninja import Schema


class ErrorOut(Schema):
    """A 4xx/5xx body: a message for a person, and per-field messages for validation errors."""

    success: bool = False
    error: str
    errors: dict[str, list[str]] | None = None
