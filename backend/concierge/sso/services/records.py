"""The sign-ins under way (by their state), the ids already used (replays) and the handoff
codes that bring a finished sign-in to the web app."""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from concierge.common.tokens import hashes_equal, token_hash, token_new
from concierge.sso.models import Handoff, IdentityProvider, SignInAttempt, UsedId
from concierge.sso.services.errors import SignInRefused

if TYPE_CHECKING:
    from concierge.accounts.models import User

ATTEMPT_TTL = timedelta(minutes=10)
HANDOFF_TTL = timedelta(minutes=2)
# Expired sign-ins and codes are deleted as new ones are made, after this long.
KEEP_EXPIRED = timedelta(hours=1)
BAD_STATE = (
    "This sign-in link has expired or was already used. Please start again from the sign-in page."
)
OTHER_BROWSER = (
    "This sign-in was started in another browser. Please start again from the sign-in page here."
)
REPLAYED = "This sign-in answer was already used. Please start again from the sign-in page."
BAD_HANDOFF = "This sign-in has expired. Please start again from the sign-in page."


def attempt_create(
    *, provider: IdentityProvider, purpose: str, browser: str = ""
) -> tuple[str, SignInAttempt]:
    """A new sign-in and its `state` (handed to the provider; only its hash is kept), bound to
    the `browser` secret (in a cookie of the browser that starts it) when there is one."""
    state, state_hash = token_new()
    SignInAttempt.objects.filter(expires_at__lt=timezone.now() - KEEP_EXPIRED).delete()
    attempt = SignInAttempt.objects.create(
        provider=provider,
        state_hash=state_hash,
        purpose=purpose,
        nonce=secrets.token_urlsafe(24),
        code_verifier=secrets.token_urlsafe(64),
        browser_hash=token_hash(browser) if browser else "",
        expires_at=timezone.now() + ATTEMPT_TTL,
    )
    return state, attempt


def attempt_take(*, state: str, browser: str | None = None) -> SignInAttempt:
    """The sign-in this `state` names, marked used; refused when unknown, used or expired, and
    (`browser` given: the cookie's secret) when another browser started it."""
    if not state or len(state) > 200:
        raise SignInRefused(BAD_STATE)
    now = timezone.now()
    with transaction.atomic():
        attempt = (
            SignInAttempt.objects.select_for_update(of=("self",))
            .select_related("provider__company")
            .filter(state_hash=token_hash(state), used_at__isnull=True, expires_at__gt=now)
            .first()
        )
        if attempt is None:
            raise SignInRefused(BAD_STATE)
        bound = browser is not None and bool(attempt.browser_hash)
        if bound and not hashes_equal(attempt.browser_hash, token_hash(browser or "")):
            raise SignInRefused(OTHER_BROWSER)
        attempt.used_at = now
        attempt.save(update_fields=["used_at"])
    return attempt


def used_id_record(*, kind: str, value: str, valid_until: datetime) -> None:
    """Records an assertion id or nonce as used; a second use is refused as a replay. Kept
    until `valid_until` (at least a day), after which the answer is refused as expired."""
    key = f"{kind}:{value}"[:300]
    keep_until = max(valid_until, timezone.now() + timedelta(days=1))
    UsedId.objects.filter(expires_at__lt=timezone.now()).delete()
    try:
        with transaction.atomic():
            UsedId.objects.create(key=key, expires_at=keep_until)
    except IntegrityError:
        raise SignInRefused(REPLAYED) from None


def handoff_create(
    *, user: User | None, mfa_done: bool = False, test_result: dict[str, Any] | None = None
) -> str:
    """A single-use code for the web app to exchange for the session (or the test's result)."""
    code, code_hash = token_new()
    Handoff.objects.filter(expires_at__lt=timezone.now() - KEEP_EXPIRED).delete()
    Handoff.objects.create(
        code_hash=code_hash,
        user=user,
        mfa_done=mfa_done,
        test_result=test_result,
        expires_at=timezone.now() + HANDOFF_TTL,
    )
    return code


def handoff_take(*, code: str) -> Handoff:
    if not code or len(code) > 200:
        raise SignInRefused(BAD_HANDOFF)
    now = timezone.now()
    with transaction.atomic():
        handoff = (
            Handoff.objects.select_for_update(of=("self",))
            .select_related("user")
            .filter(code_hash=token_hash(code), used_at__isnull=True, expires_at__gt=now)
            .first()
        )
        if handoff is None:
            raise SignInRefused(BAD_HANDOFF)
        handoff.used_at = now
        handoff.save(update_fields=["used_at"])
    return handoff
