"""Field checks shared by API schemas; messages are the spec's §5 texts."""

from __future__ import annotations

from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.validators import validate_email

PASSWORD_MIN = 6
PASSWORD_MAX = 128
# The largest id a bigint column holds: a path's id beyond it is not found, not a database error.
DATABASE_ID_MAX = 2**63 - 1


def is_database_id(value: int) -> bool:
    """Whether `value` can be a row's id: a positive number a bigint column holds."""
    return 0 < value <= DATABASE_ID_MAX


def require_email(value: str) -> str:
    value = (value or "").strip()
    if not value:
        raise ValueError("Please enter your email address")
    try:
        validate_email(value)
    except DjangoValidationError as exc:
        raise ValueError("Please enter a valid email address") from exc
    return value.lower()


def require_password(value: str, *, empty_message: str = "Please enter your password") -> str:
    if not value:
        raise ValueError(empty_message)
    if not PASSWORD_MIN <= len(value) <= PASSWORD_MAX:
        raise ValueError("Please enter a valid password")
    return value


def too_long(max_length: int) -> str:
    """The message for a text over its limit, the limit written as people read it (10,000)."""
    return f"Please use at most {max_length:,} characters."


def require_text(value: str, message: str, *, max_length: int = 150) -> str:
    value = (value or "").strip()
    if not value:
        raise ValueError(message)
    if len(value) > max_length:
        raise ValueError(too_long(max_length))
    return value
