"""Reads of second factors: what the Account page lists and what the MFA step offers."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Max, Q
from django.utils import timezone

from concierge.accounts.models import AuthToken, MfaFactor, OneTimeCode, RecoveryCode, User

SMS = "sms"
RECOVERY = "recovery"
# The MFA step offers the strongest first: phishing-resistant passkeys, then authenticator
# apps, then the text message (NIST SP 800-63B treats SMS as a restricted authenticator).
STRENGTH_ORDER = (MfaFactor.Kind.PASSKEY.value, MfaFactor.Kind.TOTP.value, SMS)


@dataclass(frozen=True)
class FactorItem:
    id: str  # the factor's id, or "sms" for the enrolled phone
    kind: str  # passkey, totp or sms
    name: str
    created_at: datetime | None
    last_used_at: datetime | None


def confirmed_factors(*, user: User) -> list[MfaFactor]:
    return list(
        MfaFactor.objects.filter(user=user, confirmed_at__isnull=False).order_by("created_at", "id")
    )


def user_has_mfa_factor(*, user: User) -> bool:
    """Whether `user` has an authenticator app or a passkey (the phone is `user.mfa_phone`)."""
    known = getattr(user, "has_mfa_factor", None)  # set by auth_token_get_active
    if known is not None:
        return bool(known)
    return MfaFactor.objects.filter(user=user, confirmed_at__isnull=False).exists()


def phone_hint(phone: str) -> str:
    """The enrolled phone as the MFA step names it: its last two digits only."""
    return f"•••-•••-••{phone[-2:]}" if phone else ""


def user_factor_list(*, user: User) -> list[FactorItem]:
    """`user`'s second factors, strongest first, each with when it was added and last used:
    three queries whatever the number of factors."""
    items = [
        FactorItem(
            id=str(f.pk),
            kind=f.kind,
            name=f.name,
            created_at=f.confirmed_at,
            last_used_at=f.last_used_at,
        )
        for f in confirmed_factors(user=user)
    ]
    if user.mfa_phone:
        used = OneTimeCode.objects.filter(
            user=user, phone=user.mfa_phone, used_at__isnull=False
        ).aggregate(
            enrolled=Max("used_at", filter=Q(purpose=OneTimeCode.Purpose.ENROLL)),
            signed_in=Max("used_at", filter=Q(purpose=OneTimeCode.Purpose.SIGN_IN)),
        )
        items.append(
            FactorItem(
                id=SMS,
                kind=SMS,
                name=f"Text message to {phone_hint(user.mfa_phone)}",
                created_at=used["enrolled"],
                last_used_at=used["signed_in"],
            )
        )
    return sorted(items, key=lambda item: STRENGTH_ORDER.index(item.kind))


def user_mfa_methods(*, user: User) -> list[str]:
    """The ways `user` can pass the MFA step, strongest first; "recovery" last when unused
    recovery codes are left."""
    kinds = {f.kind for f in confirmed_factors(user=user)}
    if user.mfa_phone:
        kinds.add(SMS)
    methods = [kind for kind in STRENGTH_ORDER if kind in kinds]
    if recovery_codes_left(user=user):
        methods.append(RECOVERY)
    return methods


def recovery_codes_left(*, user: User) -> int:
    return RecoveryCode.objects.filter(user=user, used_at__isnull=True).count()


def user_factor_count(*, user: User) -> int:
    """The factors that satisfy a company's MFA rule: the phone and every confirmed factor."""
    return len(confirmed_factors(user=user)) + (1 if user.mfa_phone else 0)


def staff_session_at_mfa_step(*, token_id: int) -> AuthToken | None:
    """A session of an active staff member that passed the password but not yet a second
    factor (the admin's sign-in in progress), with its user; None once used, revoked or expired."""
    return (
        AuthToken.objects.select_related("user")
        .filter(
            pk=token_id,
            mfa_token_hash="",
            revoked_at__isnull=True,
            expires_at__gt=timezone.now(),
            user__is_active=True,
            user__is_staff=True,
        )
        .first()
    )
