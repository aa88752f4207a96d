"""Browser tests for the issue's 'Small things people noticed': a way out of onboarding and MFA
enrolment, no detour through /dashboard after enrolment, the desk at 375 px, the employee panel
without repeated contact details, and the 'Yes, discard' choice.

The demo data (`seed_demo`) provides the people and surveys: globex@example.com must enrol (their
company requires MFA) and still owes onboarding.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from concierge.accounts.models import Company, User
from concierge.servicerequests import services as request_services
from concierge.surveys.models import SurveyCategory
from e2e.conftest import PASSWORD, code_from_sms, save_screenshot
from e2e.journeys import sign_in
from e2e.test_accessibility import DEMO_PASSWORD, answer_passport_survey

pytestmark = pytest.mark.django_db(transaction=True)

DISCARD_EDIT = "Are you sure you want to cancel your edit and discard any changes you've made?"
Q_PHONE = "What's the best phone number to reach you?"

# Every path the app shows, in order (the SPA changes it through the History API).
PATH_RECORDER = """
window.__paths = [location.pathname];
for (const name of ['pushState', 'replaceState']) {
  const original = history[name].bind(history);
  history[name] = (state, title, url) => {
    original(state, title, url);
    window.__paths.push(location.pathname);
  };
}
"""


def shot(page: Page, name: str, viewport_name: str) -> None:
    save_screenshot(page, f"small-{name}-{viewport_name}")


def expect_signed_out(page: Page) -> None:
    expect(page).to_have_url(re.compile(r"/sign-in$"))
    expect(page.get_by_role("textbox", name="Email")).to_be_visible()
    page.goto("/dashboard")
    expect(page).to_have_url(re.compile(r"/sign-in$"))


@pytest.mark.phone_screenshots
def test_sign_out_from_mfa_enrolment(page: Page, demo, viewport_name: str) -> None:
    """Small things: a user stuck in MFA enrolment can sign out (the token is revoked)."""
    sign_in(page, "globex@example.com", DEMO_PASSWORD, "/mfa-enrollment")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    shot(page, "mfa-enrollment-sign-out", viewport_name)
    page.get_by_role("button", name="Sign out", exact=True).click()
    expect_signed_out(page)
    tokens = User.objects.get(email="globex@example.com").auth_tokens
    assert tokens.exists()
    assert not tokens.filter(revoked_at__isnull=True).exists()


@pytest.mark.phone_screenshots
def test_sign_out_from_onboarding(page: Page, demo, make_employee, viewport_name: str) -> None:
    """Small things: a user stuck in onboarding can sign out, from every step."""
    make_employee("new@example.com", company=Company.objects.get(slug="acme"), onboarded=False)
    sign_in(page, "new@example.com", PASSWORD, "/welcome/about-us")
    for path in ("/welcome/about-you", "/welcome/contact-info"):
        page.goto(path)
        expect(page.get_by_role("button", name="Sign out", exact=True)).to_be_visible()
    page.goto("/welcome/about-us")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    shot(page, "onboarding-sign-out", viewport_name)
    page.get_by_role("button", name="Sign out", exact=True).click()
    expect_signed_out(page)


def test_mfa_enrolment_goes_straight_to_onboarding(page: Page, demo) -> None:
    """Small things: after MFA enrolment the app goes straight to onboarding when it is owed,
    never through /dashboard."""
    page.add_init_script(PATH_RECORDER)
    sign_in(page, "globex@example.com", DEMO_PASSWORD, "/mfa-enrollment")
    page.get_by_label(re.compile("Phone", re.I)).press_sequentially("5550001111")
    page.get_by_role("button", name="Send code").click()
    expect(page.get_by_label("Verification code")).to_be_visible()
    page.get_by_label("Verification code").fill(code_from_sms())
    page.get_by_role("button", name="Verify").click()
    expect(page).to_have_url(re.compile(r"/welcome/about-us$"))
    page.wait_for_timeout(300)
    expect(page).to_have_url(re.compile(r"/welcome/about-us$"))
    paths = page.evaluate("window.__paths")
    assert "/dashboard" not in paths, paths
    assert paths[-1] == "/welcome/about-us", paths


@pytest.mark.both_viewports
def test_desk_tabs_and_search_fit_and_panel_shows_contact_once(
    page: Page, demo, viewport_name: str
) -> None:
    """Small things: at 375 px (and 1440) the desk's status tabs and the search placeholder are
    whole; the employee panel shows the phone and preferred email once."""
    dana = User.objects.get(email="demo@example.com")
    travel = SurveyCategory.objects.get(icon=SurveyCategory.Icon.TRAVEL)
    request = request_services.request_create(
        user=dana, name="Renew my passport", details="", survey_category_id=travel.pk
    )
    sign_in(page, "concierge@example.com", DEMO_PASSWORD, "/concierge")
    tabs = page.get_by_role("tablist", name="Requests by status")
    expect(tabs.get_by_role("tab", name="In Queue (1)")).to_be_visible()
    clipped = tabs.evaluate(
        """(list) => {
            const box = list.getBoundingClientRect();
            return [...list.querySelectorAll('[role=tab]')]
              .filter((tab) => {
                const r = tab.getBoundingClientRect();
                return r.left < box.left - 0.5 || r.right > box.right + 0.5
                  || tab.scrollWidth > tab.clientWidth;
              })
              .map((tab) => tab.textContent);
        }"""
    )
    assert clipped == [], clipped
    search = page.get_by_role("searchbox", name="Search")
    fits = search.evaluate(
        """(input) => {
            const style = getComputedStyle(input);
            const canvas = document.createElement('canvas').getContext('2d');
            canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
            const text = canvas.measureText(input.placeholder).width;
            const room = input.clientWidth - parseFloat(style.paddingLeft)
              - parseFloat(style.paddingRight);
            return { text, room };
        }"""
    )
    assert fits["text"] <= fits["room"], fits
    shot(page, "desk-queue", viewport_name)

    page.goto(f"/concierge/requests/{request.pk}")
    panel = (
        page.get_by_role("region", name="Employee")
        .or_(page.locator("section").filter(has=page.get_by_role("heading", name="Employee")))
        .first
    )
    expect(panel).to_be_visible()
    expect(panel.get_by_text("(555) 010-2030")).to_have_count(1)
    expect(panel.get_by_text("demo@example.com")).to_have_count(1)
    expect(panel).to_contain_text("Has a pet")
    panel.scroll_into_view_if_needed()
    shot(page, "desk-employee-panel", viewport_name)


@pytest.mark.both_viewports
def test_discard_is_not_primary_and_order_is_the_same(page: Page, demo, viewport_name: str) -> None:
    """Small things: 'Yes, discard' is not in the primary style, and the safe choice comes first
    at both sizes (above on phones, to the left on wide screens)."""
    sign_in(page, "demo@example.com", DEMO_PASSWORD, "/dashboard")
    answer_passport_survey(page)
    review = page.get_by_role("region", name="Review your request")
    review.get_by_role("button", name=f"Edit answer: {Q_PHONE}").click()
    review.get_by_role("textbox", name=Q_PHONE, exact=True).fill("(555) 999-0000")
    review.get_by_role("button", name="Cancel", exact=True).click()
    dialog = page.get_by_role("alertdialog", name=DISCARD_EDIT)
    expect(dialog).to_be_visible()
    keep = dialog.get_by_role("button", name="No, keep editing")
    discard = dialog.get_by_role("button", name="Yes, discard")
    expect(keep).to_be_focused()
    primary_fill = keep.evaluate("(b) => getComputedStyle(b).backgroundColor")
    discard_fill = discard.evaluate("(b) => getComputedStyle(b).backgroundColor")
    assert discard_fill == "rgb(255, 255, 255)", discard_fill
    assert primary_fill != discard_fill
    keep_box, discard_box = keep.bounding_box(), discard.bounding_box()
    assert keep_box and discard_box
    if viewport_name == "mobile":
        assert keep_box["y"] < discard_box["y"], (keep_box, discard_box)
    else:
        assert keep_box["x"] < discard_box["x"], (keep_box, discard_box)
    page.wait_for_timeout(300)
    shot(page, "discard-dialog", viewport_name)
    discard.click()
    expect(dialog).to_be_hidden()
