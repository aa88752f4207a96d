"""The company admin's members page: the company's people and invite links, read through
accounts (which owns them), for a company the signed-in person is an admin of."""

from __future__ import annotations

from typing import TYPE_CHECKING

from concierge.accounts.selectors.memberships import (
    MemberRow,
    company_invites,
    company_member_row,
    company_members_page,
)

if TYPE_CHECKING:
    from concierge.accounts.models import Company, CompanyInvite

PAGE_SIZE = 25

__all__ = ["PAGE_SIZE", "MemberRow", "company_invites", "invites_needed", "members_page"]


def members_page(
    *, company: Company, search: str, status: str | None, page: int
) -> tuple[int, list[MemberRow]]:
    return company_members_page(
        company=company,
        search=search,
        status=status or "",
        offset=(page - 1) * PAGE_SIZE,
        limit=PAGE_SIZE,
    )


def member_row(*, company: Company, record_id: int) -> MemberRow:
    return company_member_row(company=company, record_id=record_id)


def invites_needed(company: Company) -> bool:
    """Invite links matter only under the 'invite' join policy (an open, work-email or
    roster-only company lets people join without one)."""
    return company.join_policy == "invite"


def invite_list(*, company: Company) -> list[CompanyInvite]:
    return company_invites(company=company)
