"""Running `manage.py seed_demo` in the demo's tests."""

from __future__ import annotations

import io

from django.core.management import call_command

PASSWORD = "demo-password-42"


def seed(*args: str) -> str:
    """Runs the seed (DEMO_PASSWORD must be set); what it printed."""
    out = io.StringIO()
    call_command("seed_demo", *args, stdout=out)
    return out.getvalue()
