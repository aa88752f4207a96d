"""Lockout: unlocking an account with the emailed link."""

from __future__ import annotations

from django.http import HttpRequest
from ninja import Router

from concierge.accounts.api.responses import ERRORS
from concierge.accounts.schemas import SuccessOut
from concierge.accounts.services import lockout
from concierge.common.ratelimit import rate_limit

router = Router(tags=["account"])


@router.get("/users/unlock", response={200: SuccessOut, **ERRORS}, auth=None)
def unlock(request: HttpRequest, unlock_token: str = ""):
    rate_limit(request, "password")
    lockout.user_unlock(token=unlock_token[:200])
    return SuccessOut()
