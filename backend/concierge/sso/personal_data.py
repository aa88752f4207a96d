"""Company sign-in's part of a person's data (issue 27): their pending sign-in handoffs."""

from __future__ import annotations

from typing import Any

from concierge.sso.models import Handoff


def handoffs_erase(*, user: Any) -> int:
    return Handoff.objects.filter(user=user).delete()[0]
