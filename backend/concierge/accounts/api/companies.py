"""Companies: what a stranger with a company's sign-up link may see of it."""

from __future__ import annotations

from django.http import HttpRequest
from ninja import Router

from concierge.accounts.api.identity import image_url
from concierge.accounts.api.responses import ERRORS
from concierge.accounts.schemas import SignUpCompanyOut
from concierge.accounts.selectors.companies import company_for_sign_up
from concierge.common.ratelimit import rate_limit
from concierge.common.schemas import ErrorOut

router = Router(tags=["account"])


@router.get(
    "/users/sign_up/companies/{company_slug}",
    response={200: SignUpCompanyOut, 404: ErrorOut, **ERRORS},
    auth=None,
)
def sign_up_company(request: HttpRequest, company_slug: str):
    """The company a sign-up link names, as its sign-up page shows it: its name and logo only
    (the form's own answer already tells a stranger whether the company exists)."""
    rate_limit(request, "sign_up", key="company")
    company = company_for_sign_up(slug=company_slug)
    return SignUpCompanyOut(name=company.name, logo_url=image_url(request, company.logo))
