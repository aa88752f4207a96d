"""What a company admin changes on the members page: a person's access and invite links.
The rules live in accounts (memberships, invites); here is who may do what."""

from __future__ import annotations

from typing import TYPE_CHECKING

from concierge.accounts.selectors.memberships import company_record_get
from concierge.accounts.services import invites
from concierge.accounts.services.memberships import member_deactivate, member_reactivate
from concierge.audit import actions
from concierge.audit.middleware import acting_as, request_actor
from concierge.audit.services import audit_record
from concierge.common.errors import ValidationFailed

if TYPE_CHECKING:
    from concierge.accounts.models import Company, CompanyInvite, EmployeeRecord, User
    from concierge.accounts.services.invites import InviteCreated

ACCOUNT_CLOSED = "This person’s account was closed: there is nothing left to change."
NOT_YOURSELF = (
    "You can't deactivate yourself. Ask another admin of your company, or your concierge team."
)


def member_deactivate_by_admin(*, admin: User, company: Company, record_id: int) -> None:
    record = _changeable_record(company, record_id)
    if record.user_id is not None and record.user_id == admin.pk:
        raise ValidationFailed(NOT_YOURSELF)
    with acting_as(role=actions.COMPANY_ADMIN_ROLE):  # the membership service records it
        member_deactivate(record=record)


def member_reactivate_by_admin(*, company: Company, record_id: int) -> None:
    with acting_as(role=actions.COMPANY_ADMIN_ROLE):
        member_reactivate(record=_changeable_record(company, record_id))


def _changeable_record(company: Company, record_id: int) -> EmployeeRecord:
    """The company's record, unless its person's account was closed (erased)."""
    record = company_record_get(company=company, record_id=record_id)
    if record.user is not None and not record.user.is_active:
        raise ValidationFailed(ACCOUNT_CLOSED)
    return record


def invite_create(*, company: Company, label: str, max_uses: int, valid_days: int) -> InviteCreated:
    created = invites.company_invite_create(
        company=company, label=label, max_uses=max_uses, valid_days=valid_days
    )
    company_admin_record(
        actions.INVITE_SENT,
        company,
        "company_invite",
        created.invite.pk,
        details={"max_uses": max_uses, "valid_days": valid_days},
    )
    return created


def invite_revoke(*, company: Company, invite_id: int) -> CompanyInvite:
    invite = invites.company_invite_revoke(company=company, invite_id=invite_id)
    company_admin_record(actions.INVITE_REVOKED, company, "company_invite", invite.pk)
    return invite


def report_access_record(*, user: User, company: Company, exported: bool, months: int) -> None:
    """A view of the company's report, or its CSV export, in the audit trail."""
    company_admin_record(
        actions.REPORT_EXPORTED if exported else actions.REPORT_VIEWED,
        company,
        "company_report",
        company.pk,
        user,
        details={"months": months, "format": "csv" if exported else "page"},
    )


def company_admin_record(
    action: str,
    company: Company,
    target_type: str,
    target_id: int | str,
    actor: User | None = None,
    *,
    details: dict[str, object] | None = None,
) -> None:
    """An administrative event of the company, which its company admins see in its log."""
    audit_record(
        action=action,
        actor=actor or request_actor(),
        actor_role=actions.COMPANY_ADMIN_ROLE,
        target_type=target_type,
        target_id=target_id,
        company_id=company.pk,
        details=details,
    )
