"""Company sign-in: which sign-in an email or company slug has, the flows through the company's
provider (OIDC, SAML started here or at the provider), the code exchange that ends them like a
password sign-in, the SP metadata, and the company admin's settings."""

from __future__ import annotations

import secrets
from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from ninja import Router

from concierge.accounts.auth import request_auth_token
from concierge.accounts.services.links import account_link
from concierge.common.errors import ApiError, NotFound
from concierge.common.ratelimit import rate_limit
from concierge.common.schemas import ErrorOut
from concierge.company_reports.selectors import company_for_admin
from concierge.sso import selectors
from concierge.sso.models import IdentityProvider, SignInAttempt
from concierge.sso.schemas import (
    DiscoverOut,
    ExchangeIn,
    ExchangeOut,
    SsoSettingsIn,
    SsoSettingsOut,
    TestResultOut,
    TestStartOut,
)
from concierge.sso.services import oidc, saml
from concierge.sso.services.errors import SignInRefused
from concierge.sso.services.records import ATTEMPT_TTL
from concierge.sso.services.settings import SsoChanges, sso_settings_update
from concierge.sso.services.sign_in import (
    handoff_exchange,
    oidc_finish,
    saml_finish,
    sign_in_start,
)

router = Router(tags=["company sign-in"])
ERRORS = {400: ErrorOut, 401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 422: ErrorOut, 429: ErrorOut}
# The web app's pages that finish a sign-in: the sign-in page, or the company admin's
# members page (its SSO settings) for a test sign-in.
SIGN_IN_PAGE = "/sign-in"
TEST_PAGE = "/company/members"
NO_SSO = "This company has no company sign-in."
BROWSER_COOKIE = "sso_browser"


def _to_web_app(*, code: str = "", error: str = "", test: bool = False) -> HttpResponseRedirect:
    """Back to the web app with the single-use code (or the error) in the fragment, which
    browsers never send to a server, so no log holds it; the session token itself is only
    ever in the answer to the web app's POST of the code."""
    prefix = "sso-test" if test else "sso"
    fragment = {prefix: code} if code else {f"{prefix}-error": error}
    return HttpResponseRedirect(
        account_link(f"{TEST_PAGE if test else SIGN_IN_PAGE}#{urlencode(fragment)}")
    )


def _provider(slug: str) -> IdentityProvider:
    provider = selectors.provider_by_slug(slug=slug)
    if provider is None:
        raise NotFound(NO_SSO)
    return provider


@router.get("/sso/discover", response={200: DiscoverOut, 429: ErrorOut}, auth=None)
def discover(request: HttpRequest, email: str = "", company: str = ""):
    """Whether the sign-in page offers "Continue with your company's sign-in" for this email's
    domain or company slug."""
    rate_limit(request, "sign_in")
    provider = None
    if company[:100]:
        provider = selectors.provider_by_slug(slug=company[:100])
    if provider is None and "@" in email[:254]:
        provider = selectors.provider_by_email(email=email[:254])
    if provider is None:
        return DiscoverOut(available=False)
    slug = provider.company.slug
    return DiscoverOut(
        available=True,
        company_name=provider.company.name,
        company_slug=slug,
        # At PUBLIC_URL, like the provider's way back: the start's cookie must come back too.
        start_url=account_link(f"/api/v1/sso/{slug}/start"),
    )


@router.get("/sso/{slug}/start", response={302: None, 429: ErrorOut}, auth=None)
def start(request: HttpRequest, slug: str):
    """Sends the browser to the company's provider (errors go back to the web app's page),
    with a cookie that binds the sign-in to this browser."""
    rate_limit(request, "sign_in")
    browser = secrets.token_urlsafe(32)
    try:
        url = sign_in_start(
            provider=_provider(slug), purpose=SignInAttempt.Purpose.SIGN_IN, browser=browser
        )
    except ApiError as exc:
        return _to_web_app(error=exc.message)
    response = HttpResponseRedirect(url)
    response.set_cookie(
        BROWSER_COOKIE,
        browser,
        max_age=int(ATTEMPT_TTL.total_seconds()),
        path="/api/v1/sso/",
        secure=request.is_secure(),
        httponly=True,
        samesite="Lax",  # sent on the provider's redirect back (a top-level GET)
    )
    return response


@router.get("/sso/oidc/callback", response={302: None, 429: ErrorOut}, auth=None)
def oidc_callback(request: HttpRequest, state: str = "", code: str = "", error: str = ""):
    rate_limit(request, "sign_in")
    browser = request.COOKIES.get(BROWSER_COOKIE, "")[:100]
    try:
        finished = oidc_finish(
            state=state[:200], code=code[:2000], error=error[:200], browser=browser
        )
    except SignInRefused as exc:
        return _to_web_app(error=exc.message, test=exc.test)
    except ApiError as exc:
        return _to_web_app(error=exc.message)
    return _to_web_app(code=finished.code, test=finished.test)


@router.get("/sso/{slug}/saml/metadata", response={200: None, 404: ErrorOut}, auth=None)
def saml_metadata(request: HttpRequest, slug: str):
    """Our service provider's metadata for this company (its address is our entity id), from
    the start: the provider imports it before its own metadata is given to us."""
    provider = selectors.provider_for_metadata(slug=slug)
    if provider is None:
        raise NotFound(NO_SSO)
    return HttpResponse(saml.sp_metadata(provider), content_type="application/samlmetadata+xml")


@router.post("/sso/{slug}/saml/acs", response={302: None, 429: ErrorOut}, auth=None)
def saml_acs(request: HttpRequest, slug: str):
    """The provider's answer, posted by the browser (started here or at the provider)."""
    rate_limit(request, "sign_in")
    try:
        finished = saml_finish(
            provider=_provider(slug),
            saml_response=str(request.POST.get("SAMLResponse", "")),
            relay_state=str(request.POST.get("RelayState", ""))[:200],
        )
    except SignInRefused as exc:
        return _to_web_app(error=exc.message, test=exc.test)
    except ApiError as exc:
        return _to_web_app(error=exc.message)
    return _to_web_app(code=finished.code, test=finished.test)


@router.post("/sso/exchange", response={200: ExchangeOut, **ERRORS}, auth=None)
def exchange(request: HttpRequest, response: HttpResponse, payload: ExchangeIn):
    """The web app's single-use code for the session: the same answer as a password sign-in
    (token in `Authorization`, plus `mfa-token` when the company's provider did MFA)."""
    rate_limit(request, "sign_in")
    exchanged = handoff_exchange(code=payload.code)
    if exchanged.session is None:
        return ExchangeOut(test_result=TestResultOut(**(exchanged.test_result or {})))
    result = exchanged.session.result
    response["Authorization"] = f"Bearer {result.token}"
    if exchanged.session.mfa_token:
        response["mfa-token"] = exchanged.session.mfa_token
    return ExchangeOut(
        expires_at=result.auth_token.expires_at,
        mfa_required=result.mfa_required,
        mfa_requires_verification=result.mfa_requires_verification,
    )


# ------------------------------------------------------------------ the company admin's settings


def _settings_out(company, provider: IdentityProvider | None) -> SsoSettingsOut:  # type: ignore[no-untyped-def]
    shown = provider or IdentityProvider(company=company)
    return SsoSettingsOut(
        configured=provider is not None,
        kind=provider.kind if provider else None,  # type: ignore[arg-type]
        enabled=shown.enabled,
        oidc_issuer=shown.oidc_issuer,
        oidc_client_id=shown.oidc_client_id,
        oidc_client_secret_set=bool(shown.oidc_client_secret_encrypted),
        oidc_redirect_uri=oidc.redirect_uri(),
        saml_metadata_xml=shown.saml_metadata_xml,
        saml_metadata_url=shown.saml_metadata_url,
        saml_sp_entity_id=saml.entity_id(shown),
        saml_sp_metadata_url=saml.entity_id(shown),
        saml_acs_url=saml.acs_url(shown),
        email_attribute=shown.email_attribute,
        first_name_attribute=shown.first_name_attribute,
        last_name_attribute=shown.last_name_attribute,
        employee_id_attribute=shown.employee_id_attribute,
        create_accounts=shown.create_accounts,
        sso_required=shown.sso_required,
        break_glass_email=shown.break_glass_user.email if shown.break_glass_user else "",
    )


def _admin_company(request: HttpRequest, company_id: int):  # type: ignore[no-untyped-def]
    return company_for_admin(user=request_auth_token(request).user, company_id=company_id)


@router.get("/company/{company_id}/sso", response={200: SsoSettingsOut, **ERRORS})
def sso_settings(request: HttpRequest, company_id: int):
    """The company's sign-in settings (the client secret is never shown, only whether set)."""
    company = _admin_company(request, company_id)
    return _settings_out(company, selectors.provider_of_company(company=company))


@router.put("/company/{company_id}/sso", response={200: SsoSettingsOut, **ERRORS})
def sso_settings_put(request: HttpRequest, company_id: int, payload: SsoSettingsIn):
    company = _admin_company(request, company_id)
    provider = sso_settings_update(company=company, changes=SsoChanges(**payload.dict()))
    return _settings_out(company, provider)


@router.post("/company/{company_id}/sso/test", response={200: TestStartOut, **ERRORS})
def sso_test_start(request: HttpRequest, company_id: int):
    """Starts a test sign-in: the admin's browser goes to the provider and back to the web
    app, which shows what the provider said; nobody is signed in and no account is made."""
    company = _admin_company(request, company_id)
    provider = selectors.provider_of_company(company=company)
    if provider is None:
        raise NotFound(NO_SSO)
    return TestStartOut(url=sign_in_start(provider=provider, purpose=SignInAttempt.Purpose.TEST))
