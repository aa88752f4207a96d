from __future__ import annotations

from datetime import datetime
from typing import Literal

from ninja import Schema
from pydantic import Field

from concierge.common.validation import DATABASE_ID_MAX


class CompanyRefOut(Schema):
    id: int
    name: str


class CompanyAccessOut(Schema):
    companies: list[CompanyRefOut] = Field(
        description="The companies whose report I may see (empty: not a company admin)."
    )


WITHHELD = "Null when withheld: about fewer than 5 people, requests or ratings."


class CategoryOut(Schema):
    name: str
    count: int = Field(description="5 or more: smaller categories are not listed.")


class MonthOut(Schema):
    """One month's figures. Null means withheld to protect privacy (fewer than 5, zero
    included, or a figure from which such a number could be worked out): it is never sent."""

    month: str = Field(description="YYYY-MM (UTC).")
    requests_created: int | None = Field(description=WITHHELD)
    requests_completed: int | None = Field(description=WITHHELD)
    median_first_response_hours: float | None = Field(
        description="Null when of fewer than 5 requests."
    )
    median_completion_hours: float | None = Field(description="Null when of fewer than 5 requests.")
    csat_average: float | None = Field(description="Null when of fewer than 5 ratings.")
    csat_count: int | None = Field(description=WITHHELD)
    employees: int | None = Field(description=WITHHELD)
    employees_using: int | None = Field(
        description="Null when fewer than 5 employees used the service, or fewer than 5 did not."
    )
    usage_share: float | None = Field(
        description="Share of employees who made a request; null when `employees_using` is."
    )
    top_categories: list[CategoryOut] = Field(
        description="Up to 5 categories with 5 or more requests, most requested first."
    )


class CompanyReportOut(Schema):
    company: CompanyRefOut
    months: list[MonthOut] = Field(description="Oldest first.")


class ReportQuery(Schema):
    company: int | None = Field(None, ge=1, le=DATABASE_ID_MAX)
    months: int = Field(12, ge=1, le=24)


# --------------------------------------------------------------------------- members page

MemberStatusName = Literal["active", "deactivated", "not_joined", "closed"]
JoinPolicyName = Literal["open", "email_domain", "invite", "roster"]


class MembersQuery(Schema):
    search: str = Field(
        "", max_length=100, description="Words found in the name, email or employee id."
    )
    status: MemberStatusName | None = Field(None, description="Only people with this status.")
    page: int = Field(1, ge=1, le=100_000)


class MemberOut(Schema):
    """One person: who they are to the employer, never anything about their requests."""

    id: int = Field(description="The company's record of the person.")
    email: str
    first_name: str
    last_name: str
    employee_id: str
    status: MemberStatusName = Field(
        description="active; deactivated (no access through this company); not_joined (on "
        "the roster, no account yet); closed (the person's account was closed: nothing to "
        "change)."
    )
    source: str = Field(description="How they came: sign_up, sso, scim, roster or admin.")
    joined_at: datetime | None
    deactivated_at: datetime | None
    last_sign_in_at: datetime | None = Field(description="When their newest session began.")
    is_me: bool = Field(description="The signed-in admin (who cannot deactivate themselves).")


class MembersPageOut(Schema):
    company: CompanyRefOut
    join_policy: JoinPolicyName
    total: int = Field(description="People matching the search and status.")
    page: int
    page_size: int
    members: list[MemberOut]


class InviteIn(Schema):
    label: str = Field("", max_length=200, description="Who it is for, e.g. 'Sales team'.")
    max_uses: int = Field(1, ge=1, le=10_000, description="How many people may join with it.")
    valid_days: int = Field(14, ge=1, le=90, description="Days until the link stops working.")


class InviteOut(Schema):
    id: int
    label: str
    max_uses: int
    use_count: int
    created_at: datetime
    expires_at: datetime
    revoked_at: datetime | None
    usable: bool = Field(description="Not revoked, not used up, not expired.")


class InviteCreatedOut(Schema):
    invite: InviteOut
    link: str = Field(description="The sign-up link: shown this once, only its hash is kept.")


class InvitesOut(Schema):
    join_policy: JoinPolicyName
    invites_needed: bool = Field(
        description="Whether the company's join policy asks for an invite link at sign-up."
    )
    invites: list[InviteOut]


class CompanyAuditQuery(Schema):
    before: int | None = Field(
        None, ge=1, le=DATABASE_ID_MAX, description="The page before this event id (`next_before`)."
    )


class CompanyAuditEventOut(Schema):
    id: int
    occurred_at: datetime
    action: str = Field(description="What happened, e.g. 'company.member.deactivated'.")
    actor_name: str = Field(description="Who did it (first name), or '' for the system.")
    actor_role: str
    target_type: str
    target_id: str
    details: dict[str, object]


class CompanyAuditPageOut(Schema):
    events: list[CompanyAuditEventOut]
    next_before: int | None = Field(
        description="Pass as `before` for older events; null at the end."
    )
