"""What a company admin changes on the members page: a person's access and invite links.
The rules live in accounts (memberships, invites); here is who may do what."""

from __future__ import annotations

from typing import TYPE_CHECKING

from concierge.accounts.selectors.memberships import company_record_get
from concierge.accounts.services import invites
from concierge.accounts.services.memberships import member_deactivate, member_reactivate
from concierge.common.errors import ValidationFailed

if TYPE_CHECKING:
    from concierge.accounts.models import Company, CompanyInvite, User
    from concierge.accounts.services.invites import InviteCreated

NOT_YOURSELF = (
    "You can't deactivate yourself. Ask another admin of your company, or your concierge team."
)


def member_deactivate_by_admin(*, admin: User, company: Company, record_id: int) -> None:
    record = company_record_get(company=company, record_id=record_id)
    if record.user_id is not None and record.user_id == admin.pk:
        raise ValidationFailed(NOT_YOURSELF)
    member_deactivate(record=record)


def member_reactivate_by_admin(*, company: Company, record_id: int) -> None:
    member_reactivate(record=company_record_get(company=company, record_id=record_id))


def invite_create(*, company: Company, label: str, max_uses: int, valid_days: int) -> InviteCreated:
    return invites.company_invite_create(
        company=company, label=label, max_uses=max_uses, valid_days=valid_days
    )


def invite_revoke(*, company: Company, invite_id: int) -> CompanyInvite:
    return invites.company_invite_revoke(company=company, invite_id=invite_id)
