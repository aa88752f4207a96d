"""The company admin's members page (/company/members in the SPA): the company's people with
status, join date and last sign-in (never request content), deactivating and reactivating
them, and invite links."""

from __future__ import annotations

from django.http import HttpRequest
from ninja import Query, Router

from concierge.accounts.auth import request_auth_token
from concierge.accounts.services.memberships import company_records_ensure
from concierge.audit.selectors import company_admin_page
from concierge.common.errors import ApiError
from concierge.common.schemas import ErrorOut
from concierge.common.validation import is_database_id
from concierge.company_reports import services
from concierge.company_reports.schemas import (
    CompanyAuditEventOut,
    CompanyAuditPageOut,
    CompanyAuditQuery,
    CompanyRefOut,
    InviteCreatedOut,
    InviteIn,
    InviteOut,
    InvitesOut,
    MemberOut,
    MembersPageOut,
    MembersQuery,
)
from concierge.company_reports.selectors import company_for_admin
from concierge.company_reports.selectors import members as selectors

router = Router(tags=["company members"])
ERRORS = {401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 422: ErrorOut}


def _company(request: HttpRequest, company_id: int):
    """The company named in the path, if the signed-in person is its admin (404 for another
    company's id, 403 for someone who is no company's admin)."""
    if not is_database_id(company_id):
        raise ApiError("We couldn't find that company.", status_code=404)
    return company_for_admin(user=request_auth_token(request).user, company_id=company_id)


def _member_out(row: selectors.MemberRow, *, me: int) -> MemberOut:
    return MemberOut(
        id=row.record_id,
        email=row.email,
        first_name=row.first_name,
        last_name=row.last_name,
        employee_id=row.employee_id,
        status=row.status,  # type: ignore[arg-type]
        source=row.source,
        joined_at=row.joined_at,
        deactivated_at=row.deactivated_at,
        last_sign_in_at=row.last_sign_in_at,
        is_me=row.user_id == me,
    )


def _invite_out(invite) -> InviteOut:  # noqa: ANN001 (accounts' CompanyInvite)
    return InviteOut(
        id=invite.pk,
        label=invite.label,
        max_uses=invite.max_uses,
        use_count=invite.use_count,
        created_at=invite.created_at,
        expires_at=invite.expires_at,
        revoked_at=invite.revoked_at,
        usable=invite.is_usable,
    )


@router.get("/company/{int:company_id}/members", response={200: MembersPageOut, **ERRORS})
def members_list(request: HttpRequest, company_id: int, query: Query[MembersQuery]):
    """The company's people by name, a page of 25: status (active, deactivated, or not_joined:
    on the roster without an account yet), join date and last sign-in. `search` finds words
    in the name, email or employee id. Never anything about anyone's requests. Company admins
    of that company only."""
    company = _company(request, company_id)
    company_records_ensure(company=company)
    total, rows = selectors.members_page(
        company=company, search=query.search, status=query.status, page=query.page
    )
    me = request_auth_token(request).user_id
    return MembersPageOut(
        company=CompanyRefOut(id=company.pk, name=company.name),
        join_policy=company.join_policy,  # type: ignore[arg-type]
        total=total,
        page=query.page,
        page_size=selectors.PAGE_SIZE,
        members=[_member_out(row, me=me) for row in rows],
    )


def _member_after(request: HttpRequest, company, record_id: int) -> MemberOut:  # noqa: ANN001
    row = selectors.member_row(company=company, record_id=record_id)
    return _member_out(row, me=request_auth_token(request).user_id)


@router.post(
    "/company/{int:company_id}/members/{int:member_id}/deactivate",
    response={200: MemberOut, **ERRORS},
)
def member_deactivate(request: HttpRequest, company_id: int, member_id: int):
    """Ends the person's access through this company at once: with no other company left,
    every session of theirs is signed out and their open pages go to sign-in. Their requests
    stay. You cannot deactivate yourself (422)."""
    company = _company(request, company_id)
    services.member_deactivate_by_admin(
        admin=request_auth_token(request).user, company=company, record_id=member_id
    )
    return _member_after(request, company, member_id)


@router.post(
    "/company/{int:company_id}/members/{int:member_id}/reactivate",
    response={200: MemberOut, **ERRORS},
)
def member_reactivate(request: HttpRequest, company_id: int, member_id: int):
    """Gives the person access through this company again (they sign in again)."""
    company = _company(request, company_id)
    services.member_reactivate_by_admin(company=company, record_id=member_id)
    return _member_after(request, company, member_id)


@router.get("/company/{int:company_id}/invites", response={200: InvitesOut, **ERRORS})
def invites_list(request: HttpRequest, company_id: int):
    """The company's invite links, newest first (the links themselves are shown only when
    made), and whether its join policy asks for one at sign-up."""
    company = _company(request, company_id)
    return InvitesOut(
        join_policy=company.join_policy,  # type: ignore[arg-type]
        invites_needed=selectors.invites_needed(company),
        invites=[_invite_out(invite) for invite in selectors.invite_list(company=company)],
    )


@router.post("/company/{int:company_id}/invites", response={201: InviteCreatedOut, **ERRORS})
def invite_create(request: HttpRequest, company_id: int, payload: InviteIn):
    """A new invite link: answered once with the link (only its hash is kept)."""
    company = _company(request, company_id)
    created = services.invite_create(
        company=company,
        label=payload.label,
        max_uses=payload.max_uses,
        valid_days=payload.valid_days,
    )
    return 201, InviteCreatedOut(invite=_invite_out(created.invite), link=created.link)


@router.post(
    "/company/{int:company_id}/invites/{int:invite_id}/revoke",
    response={200: InviteOut, **ERRORS},
)
def invite_revoke(request: HttpRequest, company_id: int, invite_id: int):
    """Stops an invite link working at once."""
    company = _company(request, company_id)
    return _invite_out(services.invite_revoke(company=company, invite_id=invite_id))


@router.get("/company/{int:company_id}/audit", response={200: CompanyAuditPageOut, **ERRORS})
def company_audit(request: HttpRequest, company_id: int, query: Query[CompanyAuditQuery]):
    """The company's own administrative events, newest first, 50 a page: members deactivated
    and reactivated, invites, the SCIM token, roster imports, sign-in (SSO) settings, report
    views and exports, company admin roles. Never an employee's request activity."""
    company = _company(request, company_id)
    page = company_admin_page(company_id=company.pk, before=query.before)
    return CompanyAuditPageOut(
        events=[
            CompanyAuditEventOut(
                id=event.id,
                occurred_at=event.occurred_at,
                action=event.action,
                actor_name=page.actor_names.get(event.actor_id or 0, ""),
                actor_role=event.actor_role,
                target_type=event.target_type,
                target_id=event.target_id,
                details=event.details,
            )
            for event in page.events
        ],
        next_before=page.next_before,
    )
