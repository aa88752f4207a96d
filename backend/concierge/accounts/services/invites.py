"""Invite links to join a company (the 'invite' join policy), made by the company admin on the
members page or by staff in the Django admin. Only the token's hash is stored: the link is
shown once, when it is made."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from concierge.accounts.models import Company, CompanyInvite
from concierge.common.errors import NotFound
from concierge.common.tokens import token_new

INVITE_NOT_FOUND = "We couldn't find that invite link."


def company_invite_link(*, company: Company, raw_token: str) -> str:
    return f"{settings.PUBLIC_URL}/sign-up/{company.slug}?invite={raw_token}"


@dataclass(frozen=True)
class InviteCreated:
    invite: CompanyInvite
    link: str  # shown once


def company_invite_create(
    *, company: Company, label: str, max_uses: int, valid_days: int
) -> InviteCreated:
    raw, hashed = token_new()
    invite = CompanyInvite.objects.create(
        company=company,
        label=label.strip(),
        token_hash=hashed,
        max_uses=max_uses,
        expires_at=timezone.now() + timedelta(days=valid_days),
    )
    return InviteCreated(invite=invite, link=company_invite_link(company=company, raw_token=raw))


def company_invite_revoke(*, company: Company, invite_id: int) -> CompanyInvite:
    """Stops the company's invite `invite_id` working (NotFound for another company's);
    revoking twice keeps the first moment."""
    invite = CompanyInvite.objects.filter(company=company, pk=invite_id).first()
    if invite is None:
        raise NotFound(INVITE_NOT_FOUND)
    if invite.revoked_at is None:
        invite.revoked_at = timezone.now()
        invite.save(update_fields=["revoked_at"])
    return invite
