"""Account reads."""

from __future__ import annotations

from django.db import models
from django.db.models import Prefetch
from django.utils import timezone

from concierge.accounts.models import AuthToken, Company, OnboardingAnswer, User
from concierge.common.tokens import token_hash

CONCIERGE_GROUP = "Concierges"


def user_mfa_required(*, user: User) -> bool:
    """Whether this user's sessions need a verified SMS code: an enrolled phone or a company rule."""
    if user.mfa_phone:
        return True
    return any(company.requires_mfa for company in user.companies.all())


def user_is_concierge(*, user: User) -> bool:
    return user.is_superuser or any(g.name == CONCIERGE_GROUP for g in user.groups.all())


def auth_token_get_active(*, raw_token: str) -> AuthToken | None:
    return (
        AuthToken.objects.select_related("user")
        .prefetch_related(
            Prefetch("user__companies", queryset=Company.objects.order_by("name")),
            "user__groups",
        )
        .filter(
            key_hash=token_hash(raw_token),
            revoked_at__isnull=True,
            expires_at__gt=timezone.now(),
            user__is_active=True,
        )
        .first()
    )


def auth_token_get_active_by_id(*, token_id: int) -> AuthToken | None:
    """A session by its id (for a signed stream ticket), if it is still signed in."""
    return (
        AuthToken.objects.select_related("user")
        .prefetch_related("user__groups")
        .filter(
            pk=token_id,
            revoked_at__isnull=True,
            expires_at__gt=timezone.now(),
            user__is_active=True,
        )
        .first()
    )


def concierge_list() -> list[User]:
    """Every active concierge (the Concierges group, and superusers), by name."""
    return list(
        User.objects.filter(is_active=True)
        .filter(models.Q(groups__name=CONCIERGE_GROUP) | models.Q(is_superuser=True))
        .distinct()
        .order_by("first_name", "last_name", "id")
    )


def user_initials(*, full_name: str) -> str:
    """First letter of the first word plus first letter of the last word (spec §3)."""
    words = full_name.split()
    if not words:
        return ""
    if len(words) == 1:
        return words[0][0].upper()
    return (words[0][0] + words[-1][0]).upper()


def onboarding_answers_for_user(*, user: User) -> dict[int, object]:
    return {a.answer_id: a.value for a in OnboardingAnswer.objects.filter(user=user)}
