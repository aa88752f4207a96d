"""Recovery codes: single-use codes, issued with the first authenticator app or passkey, that
pass the MFA step when those are lost."""

from __future__ import annotations

import secrets

from django.utils import timezone

from concierge.accounts.models import AuthToken, RecoveryCode, User
from concierge.accounts.services.mfa.factors import code_attempt
from concierge.common.tokens import token_hash

RECOVERY_CODE_COUNT = 10

INVALID_RECOVERY_CODE = "That recovery code is incorrect or was already used."


def _recovery_code_new() -> str:
    alphabet = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i
    raw = "".join(secrets.choice(alphabet) for _ in range(10))
    return f"{raw[:5]}-{raw[5:]}"


def _recovery_code_normal(code: str) -> str:
    return "".join(ch for ch in code.lower() if ch.isalnum())


def recovery_codes_issue(user: User) -> list[str]:
    """Replaces `user`'s recovery codes with 10 new ones, returned once (only hashes kept)."""
    RecoveryCode.objects.filter(user=user).delete()
    codes = [_recovery_code_new() for _ in range(RECOVERY_CODE_COUNT)]
    RecoveryCode.objects.bulk_create(
        RecoveryCode(user=user, code_hash=token_hash(_recovery_code_normal(code))) for code in codes
    )
    return codes


def first_strong_factor_codes(user: User) -> list[str] | None:
    """Recovery codes, issued at the first enrolment of a non-SMS factor (None afterwards)."""
    if RecoveryCode.objects.filter(user=user).exists():
        return None
    return recovery_codes_issue(user)


def recovery_code_use(user: User, code: str) -> bool:
    normal = _recovery_code_normal(code)
    if not normal:
        return False
    found = (
        RecoveryCode.objects.select_for_update()
        .filter(user=user, code_hash=token_hash(normal), used_at__isnull=True)
        .first()
    )
    if found is None:
        return False
    found.used_at = timezone.now()
    found.save(update_fields=["used_at"])
    return True


def mfa_recovery_verify(*, auth_token: AuthToken, code: str) -> str:
    """The MFA step with a recovery code (each works once); returns the session's MFA token."""
    return code_attempt(
        auth_token=auth_token,
        check=lambda user: recovery_code_use(user, code),
        wrong=INVALID_RECOVERY_CODE,
    )
