"""Browser tests for the spec's §2 route table: guards, redirects, NotFound, titles."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from e2e.conftest import PASSWORD
from e2e.journeys import sign_in

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.phone_screenshots
def test_not_found(page: Page, screenshot) -> None:
    """§2 NotFound: texts and 'Go to Home' for an unknown path and an empty attachment key."""
    for path in ("/no/such/page", "/attachments/"):
        page.goto(path)
        expect(page.get_by_text("Oops! We can't find that page.")).to_be_visible()
        expect(
            page.get_by_text("The page you're looking for seems to have wandered off.")
        ).to_be_visible()
    screenshot("not-found")
    page.get_by_role("link", name="Go to Home").or_(
        page.get_by_role("button", name="Go to Home")
    ).click()
    expect(page).to_have_url(re.compile(r"/sign-in$"))


@pytest.mark.parametrize(
    ("path", "target"),
    [
        ("/users/sign_in", r"/sign-in$"),
        ("/users/sign_up/acme", r"/sign-up/acme$"),
        ("/abc123/unlock", r"/unlock/abc123$"),
        ("/reset-password/abc123/unlock42", r"/unlock/abc123$"),
        ("/welcome", r"/sign-in$"),
        ("/requests/42", r"/sign-in$"),
        ("/life_concierge_requests", r"/sign-in$"),
    ],
)
def test_redirects_for_visitors(page: Page, acme, path: str, target: str) -> None:
    """§2 route table: legacy paths redirect; protected paths send a visitor to SignIn."""
    page.goto(path)
    expect(page).to_have_url(re.compile(target))


@pytest.mark.parametrize(
    ("path", "target", "title"),
    [
        ("/", r"/dashboard$", "Dashboard"),
        ("/sign-in", r"/dashboard$", "Dashboard"),
        ("/sign-up/acme", r"/dashboard$", "Dashboard"),
        ("/life_concierge_requests", r"/requests$", "Requests"),
        ("/life_concierge_requests/new", r"/dashboard$", "Dashboard"),
        ("/requests/new", r"/dashboard$", "Dashboard"),
        ("/welcome", r"/welcome/about-us$", "About Us"),
        ("/benefits-and-offers", r"/benefits-and-offers$", "Benefits & Offers"),
        ("/benefits-and-offers/all", r"/benefits-and-offers/all$", "All Benefits & Offers"),
        ("/account", r"/account$", "Account Settings"),
    ],
)
def test_routes_for_signed_in_user(
    page: Page, acme, make_employee, path: str, target: str, title: str
) -> None:
    """§2 access rules and titles: 'Concierge | Route title' for a signed-in employee."""
    make_employee("dana@example.com", company=acme)
    sign_in(page, "dana@example.com", PASSWORD)
    page.goto(path)
    expect(page).to_have_url(re.compile(target))
    expect(page).to_have_title(f"Concierge | {title}")


def test_partner_quote_redirect(page: Page, settings) -> None:
    """§2 route table: /products/{product} and /additional-information/{product} go to the partner."""
    for path in ("/products/pet-insurance", "/additional-information/home-warranty"):
        response = page.request.get(path, max_redirects=0)
        assert response.status == 302
        product = path.rsplit("/", 1)[1]
        assert response.headers["location"] == f"{settings.PARTNER_QUOTE_BASE_URL}/{product}"


def test_mfa_enrollment_needs_sign_in(page: Page) -> None:
    """§2 access rules: MfaEnrollment sends a visitor to SignIn."""
    page.goto("/mfa-enrollment")
    expect(page).to_have_url(re.compile(r"/sign-in$"))
