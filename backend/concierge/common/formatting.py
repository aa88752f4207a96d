"""How phone numbers and addresses read, the same everywhere on the server."""

from __future__ import annotations

import re
from collections.abc import Iterable

PHONE_DIGITS = 10


def phone_digits(text: str) -> str:
    """The digits of a phone number as typed: '(555) 010-2030' → '5550102030'."""
    return re.sub(r"\D", "", text)


def phone_display(digits: str) -> str:
    """10 digits as the spec §5 mask shows them: (999) 999-9999; anything else as given."""
    if len(digits) != PHONE_DIGITS or not digits.isdigit():
        return digits
    return f"({digits[:3]}) {digits[3:6]}-{digits[6:]}"


def phone_written_forms(text: str) -> list[str]:
    """The ways people write a US number's digits: (555) 123-4567, 555-123-4567, 555.123.4567,
    5551234567, +1 555 123 4567 (none for another number)."""
    digits = phone_digits(text)
    if len(digits) == PHONE_DIGITS + 1 and digits.startswith("1"):
        digits = digits[1:]  # +1, the US country code
    if len(digits) != PHONE_DIGITS:
        return []
    area, exchange, line = digits[:3], digits[3:6], digits[6:]
    return [
        phone_display(digits),
        f"{area}-{exchange}-{line}",
        f"{area}.{exchange}.{line}",
        digits,
        f"+1 {area} {exchange} {line}",
    ]


def address_line(parts: Iterable[str]) -> str:
    """An address on one line: its filled parts, comma separated."""
    return ", ".join(part for part in parts if part)
