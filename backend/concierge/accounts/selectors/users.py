"""Users: a person's name and initials."""

from __future__ import annotations

from concierge.accounts.models import User


def user_full_name(*, user_id: int) -> str:
    return User.objects.only("first_name", "last_name").get(pk=user_id).full_name


def user_initials(*, full_name: str) -> str:
    """First letter of the first word plus first letter of the last word (spec §3)."""
    words = full_name.split()
    if not words:
        return ""
    if len(words) == 1:
        return words[0][0].upper()
    return (words[0][0] + words[-1][0]).upper()
