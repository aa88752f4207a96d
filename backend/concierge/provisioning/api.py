"""The company admin's provisioning settings (/company/members): the SCIM token and the
roster import. Only a company admin of that company (company_reports' role) gets in."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from ninja import File, Router
from ninja.files import UploadedFile

from concierge.accounts.auth import request_auth_token
from concierge.common.errors import ValidationFailed
from concierge.common.schemas import ErrorOut
from concierge.company_reports.selectors import company_for_admin
from concierge.provisioning import selectors
from concierge.provisioning.schemas import (
    RosterCountsOut,
    RosterOut,
    RosterRowOut,
    ScimStatusOut,
    ScimTokenOut,
)
from concierge.provisioning.services.roster import (
    LISTED_MAX,
    ROSTER_MAX_BYTES,
    RosterPlan,
    RosterUnreadable,
    roster_apply,
    roster_plan,
)
from concierge.provisioning.services.tokens import scim_token_revoke, scim_token_rotate

router = Router(tags=["provisioning"])
ERRORS = {401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 422: ErrorOut}


def _admin_company(request: HttpRequest, company_id: int):  # type: ignore[no-untyped-def]
    return company_for_admin(user=request_auth_token(request).user, company_id=company_id)


def scim_base_url() -> str:
    return f"{settings.PUBLIC_URL}/scim/v2"


@router.get("/company/{company_id}/scim", response={200: ScimStatusOut, **ERRORS})
def scim_status(request: HttpRequest, company_id: int):
    """Whether the company's identity provider has a SCIM token (the token is never shown
    again after it was created)."""
    company = _admin_company(request, company_id)
    token = selectors.scim_token_of(company=company)
    return ScimStatusOut(
        has_token=token is not None,
        created_at=token.created_at if token else None,
        last_used_at=token.last_used_at if token else None,
        base_url=scim_base_url(),
    )


@router.post("/company/{company_id}/scim", response={200: ScimTokenOut, **ERRORS})
def scim_token_create(request: HttpRequest, company_id: int):
    """A new SCIM token (the previous one, if any, stops working at once): shown once."""
    company = _admin_company(request, company_id)
    raw, token = scim_token_rotate(company=company, created_by=request_auth_token(request).user)
    return ScimTokenOut(token=raw, created_at=token.created_at, base_url=scim_base_url())


@router.delete("/company/{company_id}/scim", response={204: None, **ERRORS})
def scim_token_delete(request: HttpRequest, company_id: int):
    """Revokes the SCIM token: the identity provider is refused from now on."""
    scim_token_revoke(company=_admin_company(request, company_id))
    return 204, None


def _content(file: UploadedFile) -> bytes:
    if file.size is not None and file.size > ROSTER_MAX_BYTES:
        raise ValidationFailed.for_field(
            "file", f"The file is larger than {ROSTER_MAX_BYTES // (1024 * 1024)} MB."
        )
    return file.read(ROSTER_MAX_BYTES + 1)


def _roster_out(plan: RosterPlan, *, applied: bool) -> RosterOut:
    listed = [r for r in plan.rows if r.action != "unchanged"]
    return RosterOut(
        counts=RosterCountsOut(**plan.counts),
        rows=[
            RosterRowOut(
                row=r.row, email=r.email, action=r.action, changes=r.changes, reason=r.reason
            )
            for r in listed[:LISTED_MAX]
        ],
        listed_all=len(listed) <= LISTED_MAX,
        applied=applied,
    )


def _plan_or_422(run, file: UploadedFile) -> RosterPlan:  # type: ignore[no-untyped-def]
    try:
        return run(_content(file))  # type: ignore[no-any-return]
    except RosterUnreadable as exc:
        raise ValidationFailed.for_field("file", str(exc)) from None


@router.post("/company/{company_id}/roster/preview", response={200: RosterOut, **ERRORS})
def roster_preview(request: HttpRequest, company_id: int, file: File[UploadedFile]):
    """What importing the CSV would do, row by row; nothing changes yet."""
    company = _admin_company(request, company_id)
    admin = request_auth_token(request).user
    plan = _plan_or_422(
        lambda content: roster_plan(company=company, content=content, admin=admin), file
    )
    return _roster_out(plan, applied=False)


@router.post("/company/{company_id}/roster/apply", response={200: RosterOut, **ERRORS})
def roster_import(request: HttpRequest, company_id: int, file: File[UploadedFile]):
    """Imports the CSV (checked again first): its valid rows are applied, rows in error are
    skipped. Importing the same file again changes nothing."""
    company = _admin_company(request, company_id)
    admin = request_auth_token(request).user
    plan = _plan_or_422(
        lambda content: roster_apply(company=company, content=content, admin=admin), file
    )
    return _roster_out(plan, applied=True)
