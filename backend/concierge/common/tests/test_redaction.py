"""Issue 27 erasure: a person's names, addresses and phone numbers are taken out of text others
wrote wherever each stands whole, and nowhere else."""

from __future__ import annotations

import pytest

from concierge.common.redaction import REDACTED, redact


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Hi Al, see you at 10.", f"Hi {REDACTED}, see you at 10."),
        ("AL: booked.", f"{REDACTED}: booked."),
        ("Also, the hall is booked.", "Also, the hall is booked."),
        ("Ask Sal or Alba.", "Ask Sal or Alba."),
    ],
)
def test_issue27_a_short_name_is_redacted_as_a_word_never_inside_one(text, expected):
    assert redact(text, ["Al"]) == expected


def test_issue27_an_address_or_a_name_inside_another_address_stays():
    text = "Write to ada@example.com, not ada.home@example.net or grace.ada@example.org."
    assert redact(text, ["ada@example.com", "Ada"]) == (
        f"Write to {REDACTED}, not ada.home@example.net or grace.ada@example.org."
    )


def test_issue27_a_phone_number_is_redacted_whole_never_inside_a_longer_number():
    text = "Call (555) 010-2030 or 5550102030; order 155501020301 stays."
    assert redact(text, ["(555) 010-2030", "5550102030"]) == (
        f"Call {REDACTED} or {REDACTED}; order 155501020301 stays."
    )
