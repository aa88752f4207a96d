"""Links in account emails: pages of the app at its public address."""

from __future__ import annotations

from django.conf import settings


def account_link(path: str) -> str:
    return f"{settings.PUBLIC_URL}{path}"
