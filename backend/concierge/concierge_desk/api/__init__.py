"""The concierge desk API (/api/v1/concierge/...): the staff workspace.

Every endpoint needs a signed-in concierge (the 'Concierges' group, or a superuser):
anonymous → 401, an employee → 403. One shared desk: every concierge works every company's
requests (see `concierge.concierge_desk.selectors`).
"""

from __future__ import annotations

from ninja import Router

from concierge.concierge_desk.api import queue, requests, saved_replies, search, team
from concierge.concierge_desk.api.access import CONCIERGES_ONLY

__all__ = ["CONCIERGES_ONLY", "router"]

# One router per screen, under one: their paths are the desk's (/concierge/...).
router = Router()
for screen in (queue, requests, team, saved_replies, search):
    router.add_router("", screen.router)
