"""Second factors: the text message of spec §7 (`sms`), where the MFA step itself is, `POST
/mfa/verify`, whatever the factor; and beyond it the Account page's list (`factors`),
authenticator apps (`totp`), passkeys and signing in with one alone (`passkeys`), and recovery
codes (`recovery_codes`)."""

from __future__ import annotations

from ninja import Router

from concierge.accounts.api.mfa import factors, passkeys, recovery_codes, sms, totp

__all__ = ["router"]

router = Router()
for part in (sms, factors, totp, passkeys, recovery_codes):
    router.add_router("", part.router)
