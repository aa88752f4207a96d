"""Issue 26 company sign-in (SSO) in the browser, at both sizes, against identity providers the
tests start on this machine: an OpenID Connect provider (concierge/sso/tests/idp_oidc.py) and a
SAML IdP made of pysaml2's IdP classes (concierge/sso/tests/idp_saml.py). A new employee signs
in through each, gets an account just in time and lands on onboarding; with "SSO required" the
password form is refused for the company's member, and the break-glass account still signs in
with its password."""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Page, expect

from concierge.accounts.models import Company, EmployeeRecord, User
from concierge.accounts.services.mfa.totp import secret_encrypt
from concierge.company_reports.models import CompanyAdmin
from concierge.sso.models import IdentityProvider
from concierge.sso.tests.idp_oidc import OidcProvider
from concierge.sso.tests.idp_saml import SamlIdp
from e2e.a11y import expect_axe_clean
from e2e.conftest import PASSWORD

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.both_viewports]

CONTINUE = "Continue with your company's sign-in"


@pytest.fixture(scope="session")
def sso_app(custom_app):
    """The web app served with the API on one origin (its PUBLIC_URL)."""
    return custom_app()


@pytest.fixture(scope="session")
def base_url(sso_app) -> str:
    return sso_app.web_url


@pytest.fixture
def acme(transactional_db) -> Company:
    return Company.objects.create(slug="acme", name="Acme Corp", allowed_email_domains="acme.test")


@pytest.fixture
def oidc_idp() -> Iterator[OidcProvider]:
    with OidcProvider() as provider:
        yield provider


def oidc_settings(company: Company, idp: OidcProvider, **fields) -> IdentityProvider:
    return IdentityProvider.objects.create(
        company=company,
        kind=IdentityProvider.Kind.OIDC,
        oidc_issuer=idp.issuer,
        oidc_client_id=idp.client_id,
        oidc_client_secret_encrypted=secret_encrypt(idp.client_secret),
        create_accounts=True,
        **fields,
    )


def sign_in_at_provider(page: Page, email: str, first: str, last: str) -> None:
    expect(page.get_by_role("heading", name=re.compile("Test identity provider"))).to_be_visible()
    page.get_by_role("textbox", name="Email").fill(email)
    page.get_by_label("First name").fill(first)
    page.get_by_label("Last name").fill(last)
    page.get_by_role("button", name="Sign in at the provider").click()


def lands_on_onboarding(page: Page, email: str, company: Company) -> None:
    expect(page).to_have_url(re.compile(r"/welcome/about-us$"))
    user = User.objects.get(email=email)
    assert not user.has_usable_password()
    record = EmployeeRecord.objects.get(user=user, company=company)
    assert record.source == EmployeeRecord.Source.SSO
    assert user.companies.filter(pk=company.pk).exists()


def test_issue26_sso_new_employee_signs_in_through_oidc(
    page: Page, acme, oidc_idp, screenshot
) -> None:
    """Issue 26 SSO (OIDC): the typed email's domain offers the company's sign-in (its label on
    one line, at a phone's width too, the size of the passkey button's); the new employee signs in at the provider, gets an
    account just in time and lands on onboarding."""
    oidc_settings(acme, oidc_idp)
    page.goto("/sign-in")
    page.get_by_label("Email address").fill("nia@acme.test")
    button = page.get_by_role("button", name=CONTINUE)
    expect(button).to_be_visible()
    expect(page.get_by_text("Acme Corp signs you in with your work account.")).to_be_visible()
    box = button.bounding_box()
    assert box and box["height"] < 50, f"the label wraps onto a second line: {box}"
    passkey = page.get_by_role("button", name="Continue with a passkey")
    sizes = [b.evaluate("b => getComputedStyle(b).fontSize") for b in (button, passkey)]
    assert sizes[0] == sizes[1], f"the two buttons' labels differ in size: {sizes}"
    screenshot("sso-sign-in-offer")
    expect_axe_clean(page, "sign-in with the company's sign-in offered")
    button.click()
    sign_in_at_provider(page, "nia@acme.test", "Nia", "Okafor")
    lands_on_onboarding(page, "nia@acme.test", acme)
    assert "#" not in page.url
    screenshot("sso-oidc-onboarding")


def test_issue26_sso_new_employee_signs_in_through_saml(page: Page, acme, base_url) -> None:
    """Issue 26 SSO (SAML): the provider imports our SP metadata from its published address;
    /sign-in?company=acme offers the company's sign-in; the SAML round trip (AuthnRequest by
    redirect, signed assertion posted back) makes the account and lands on onboarding. Then a
    second new employee signs in from the provider's side (IdP-initiated)."""
    provider = IdentityProvider.objects.create(
        company=acme, kind=IdentityProvider.Kind.SAML, saml_metadata_xml="-", create_accounts=True
    )
    sp_metadata = httpx.get(f"{base_url}/api/v1/sso/acme/saml/metadata")
    assert sp_metadata.status_code == 200
    with SamlIdp(sp_metadata.text) as idp:
        provider.saml_metadata_xml = idp.metadata
        provider.save()
        page.goto("/sign-in?company=acme")
        page.get_by_role("button", name=CONTINUE).click()
        sign_in_at_provider(page, "sam@acme.test", "Sam", "Lee")
        lands_on_onboarding(page, "sam@acme.test", acme)

        page.context.clear_cookies()
        page.evaluate("window.localStorage.clear()")
        page.goto(f"{idp.base}/idp-initiated?acs={base_url}/api/v1/sso/acme/saml/acs")
        sign_in_at_provider(page, "kim@acme.test", "Kim", "Park")
        lands_on_onboarding(page, "kim@acme.test", acme)


def test_issue26_sso_required_refuses_password_but_not_break_glass(
    page: Page, acme, oidc_idp, make_employee, screenshot
) -> None:
    """Issue 26 SSO required: the member's password sign-in is refused with a clear message
    pointing to the company's sign-in; the named break-glass admin still signs in."""
    member = make_employee("mo@acme.test", company=acme)
    admin = make_employee("it-admin@acme.test", company=acme, first_name="Ida")
    oidc_settings(acme, oidc_idp, sso_required=True, break_glass_user=admin)

    page.goto("/sign-in")
    page.get_by_label("Email address").fill(member.email)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_role("button", name="Sign in", exact=True).click()
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("Acme Corp signs you in through its own sign-in")
    expect(alert).to_be_focused()
    expect(page.get_by_role("button", name=CONTINUE)).to_be_visible()
    screenshot("sso-required-refused")

    page.get_by_label("Email address").fill(admin.email)
    page.get_by_role("button", name="Sign in", exact=True).click()
    expect(page).to_have_url(re.compile(r"/dashboard$"))


def test_issue26_sso_company_admin_sets_up_oidc_and_tests_it(
    page: Page, acme, oidc_idp, make_employee, screenshot
) -> None:
    """Issue 26 SSO (members page): the company admin enters the provider's issuer, client id
    and secret, saves, and runs a test sign-in: the provider's answer shows on return, nobody is
    signed in and no account is made. The section is axe clean."""
    hr = make_employee("hr@acme.test", company=acme, first_name="Harper")
    CompanyAdmin.objects.create(user=hr, company=acme)
    page.goto("/sign-in")
    page.get_by_label("Email address").fill(hr.email)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_role("button", name="Sign in", exact=True).click()
    expect(page).to_have_url(re.compile(r"/dashboard$"))

    page.goto("/company/members")
    section = page.locator("section[aria-labelledby=sso-settings]")
    expect(section.get_by_text("/api/v1/sso/oidc/callback")).to_be_visible()
    section.get_by_label("Issuer").fill(oidc_idp.issuer)
    section.get_by_label("Client id").fill(oidc_idp.client_id)
    section.get_by_label("Client secret").fill(oidc_idp.client_secret)
    section.get_by_label("Create accounts at first sign-in").check()
    section.get_by_role("button", name="Save company sign-in").click()
    expect(page.get_by_text("Company sign-in saved")).to_be_visible()
    provider = IdentityProvider.objects.get(company=acme)
    assert provider.oidc_issuer == oidc_idp.issuer and provider.create_accounts
    expect_axe_clean(
        page, "company sign-in settings", include="section[aria-labelledby=sso-settings]"
    )

    section.get_by_role("button", name="Test sign-in").click()
    sign_in_at_provider(page, "tess@acme.test", "Tess", "Ting")
    expect(page).to_have_url(re.compile(r"/company/members$"))
    result = page.get_by_role("status").filter(has_text="The test sign-in worked")
    expect(result).to_contain_text("tess@acme.test")
    expect(result).to_be_focused()
    assert not User.objects.filter(email="tess@acme.test").exists()
    result.scroll_into_view_if_needed()
    screenshot("sso-settings-test-result")


def test_issue26_sso_provider_mfa_meets_the_company_rule(page: Page, acme, oidc_idp) -> None:
    """Issue 26 SSO + MFA: for a company that requires MFA, a sign-in whose provider reports a
    second factor goes straight on (onboarding); without it the product's own MFA step follows,
    as after a password sign-in (here: enrolling a phone)."""
    acme.requires_mfa = True
    acme.save()
    oidc_settings(acme, oidc_idp)
    page.goto("/sign-in?company=acme")
    page.get_by_role("button", name=CONTINUE).click()
    page.get_by_label("Used a second factor").check()
    sign_in_at_provider(page, "nia@acme.test", "Nia", "Okafor")
    expect(page).to_have_url(re.compile(r"/welcome/about-us$"))

    page.evaluate("window.localStorage.clear()")
    page.goto("/sign-in?company=acme")
    page.get_by_role("button", name=CONTINUE).click()
    sign_in_at_provider(page, "nia@acme.test", "Nia", "Okafor")
    expect(page).to_have_url(re.compile(r"/mfa-enrollment$"))
