"""The account endpoints (spec §7 'Account', and the second factors), one module per sub-domain,
under one router."""

from __future__ import annotations

from ninja import Router

from concierge.accounts.api import (
    companies,
    devices,
    email_verification,
    identity,
    lockout,
    mfa,
    onboarding,
    password_reset,
    profile,
)

__all__ = ["router"]

router = Router()
for part in (
    identity,
    companies,
    password_reset,
    lockout,
    email_verification,
    mfa,
    onboarding,
    profile,
    devices,
):
    router.add_router("", part.router)
