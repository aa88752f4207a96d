"""Browser tests for the app's accessibility (WCAG 2.2 AA), issue 'usable by everyone':

- axe-core runs on every screen, signed out, as an employee and as a concierge, with drawers and
  dialogs open, at 1440x900 and 375x812, and fails on any violation;
- Tab through the main journeys shows a visible focus ring (>= 2 px) on every stop;
- focus moves to the new page's <h1> on navigation (and the page is announced), and stays on a
  sensible element after a failed sign-in, 'View my requests', and Claim/Complete on the desk.

The demo data (`seed_demo`) provides the people, surveys and offerings.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from concierge.accounts.models import Company
from concierge.demo.management.commands.seed_demo import simple_pdf
from concierge.servicerequests import services as request_services
from concierge.servicerequests.models import ServiceRequest
from concierge.surveys.models import SurveyCategory
from e2e.a11y import expect_axe_clean, focus_ring, tab_through
from e2e.conftest import DEMO_PASSWORD, PASSWORD, asked, continue_button, save_screenshot, settle
from e2e.journeys import sign_in, sign_in_form_submit

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.both_viewports]

EMPLOYEE = "demo@example.com"
CONCIERGE = "concierge@example.com"
PASSPORT = "Renew my passport"
Q_PASSPORT = "Your current passport is…"
Q_TRIP = "When is your next international trip?"
Q_PHONE = "What's the best phone number to reach you?"


@pytest.fixture
def pdf(tmp_path: Path) -> Path:
    path = tmp_path / "passport-checklist.pdf"
    path.write_bytes(simple_pdf("Passport renewal", ("Form DS-82", "One photo, 2x2 in")))
    return path


def shot(page: Page, name: str, viewport_name: str) -> None:
    save_screenshot(page, f"a11y-{name}-{viewport_name}")


def animations_done(page: Page) -> None:
    page.wait_for_function(
        "() => document.getAnimations().every(a => a.playState !== 'running'"
        " || a.effect?.getTiming().iterations === Infinity)"
    )


def focused_is_h1(page: Page, name: str | re.Pattern) -> None:
    """Keyboard focus is on the page's <h1> named `name`."""
    heading = page.get_by_role("heading", level=1, name=name)
    expect(heading).to_be_focused()


def passport_request(user) -> ServiceRequest:
    travel = SurveyCategory.objects.get(icon=SurveyCategory.Icon.TRAVEL)
    return request_services.request_create(
        user=user,
        name=PASSPORT,
        details=f"{Q_PASSPORT} Expired less than 5 years ago",
        survey_category_id=travel.pk,
    )


def answer_passport_survey(page: Page) -> None:
    """The Travel category page → 'Renew my passport' → three questions → the review."""
    travel = SurveyCategory.objects.get(icon=SurveyCategory.Icon.TRAVEL)
    page.goto(f"/requests/category/{travel.pk}")
    page.get_by_role("button", name=PASSPORT).click()
    asked(page, Q_PASSPORT)
    radio = page.get_by_role("radio", name="Expired less than 5 years ago")
    radio.locator("xpath=ancestor::label[1]").click()
    continue_button(page).click()
    asked(page, Q_TRIP)
    page.get_by_role("button", name="Skip", exact=True).click()
    asked(page, Q_PHONE)
    continue_button(page).click()
    expect(page.get_by_role("region", name="Review your request")).to_be_visible()
    settle(page)


# --------------------------------------------------------------------------- axe on every screen


def test_axe_signed_out_screens(page: Page, demo, viewport_name: str) -> None:
    """Issue 'usable by everyone', axe: every signed-out screen, its errors shown, is clean."""
    page.goto("/sign-in")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    expect_axe_clean(page, "sign-in")
    shot(page, "sign-in", viewport_name)

    page.get_by_role("button", name="Sign in").click()  # the field errors
    expect(
        page.get_by_text("Please enter your email").or_(page.locator("[aria-invalid=true]")).first
    ).to_be_visible()
    expect_axe_clean(page, "sign-in with field errors")

    sign_in_form_submit(page, EMPLOYEE, "wrong-password")
    expect(page.get_by_role("alert").first).to_be_visible()
    expect_axe_clean(page, "sign-in with a server error")

    for path in (
        "/sign-up/acme",
        "/sign-up",
        "/forgot-password",
        "/reset-password/no-such-token",
        "/unlock/no-such-token",
        "/verify-email/no-such-token",
        "/no/such/page",
    ):
        page.goto(path)
        expect(page.locator("main")).to_be_visible()
        expect(page.get_by_role("heading").first).to_be_visible()
        page.wait_for_load_state("networkidle")
        expect_axe_clean(page, path)


def test_axe_employee_screens(page: Page, demo, pdf: Path, viewport_name: str) -> None:
    """Issue 'usable by everyone', axe: the employee's screens, the request drawer (a question,
    the close dialog, the review, the confirmation), the offering drawer and a thread with the
    employee's own attachment are clean."""
    from concierge.accounts.models import User

    dana = User.objects.get(email=EMPLOYEE)
    request = passport_request(dana)
    sign_in(page, EMPLOYEE, DEMO_PASSWORD, "/dashboard")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    page.wait_for_load_state("networkidle")
    expect_axe_clean(page, "dashboard")

    # The request drawer: a question, the close dialog, the review, then the confirmation.
    answer_passport_survey(page)
    expect_axe_clean(page, "request drawer: review")
    shot(page, "drawer-review", viewport_name)
    page.get_by_role("button", name="Close", exact=True).first.click()
    dialog = page.get_by_role("alertdialog")
    expect(dialog).to_be_visible()
    expect_axe_clean(page, "request drawer: close dialog")
    shot(page, "drawer-close-dialog", viewport_name)
    dialog.get_by_role("button", name=re.compile("No|Keep|Continue", re.I)).first.click()
    expect(dialog).to_be_hidden()
    page.get_by_role("region", name="Review your request").get_by_role(
        "button", name="Submit", exact=True
    ).click()
    expect(page.get_by_role("heading", name="We've received your request")).to_be_visible()
    settle(page)
    expect_axe_clean(page, "request drawer: received")
    page.keyboard.press("Escape")

    page.goto("/requests")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    page.wait_for_load_state("networkidle")
    expect_axe_clean(page, "requests")

    # A thread with the employee's own message and attachment (the chip inside the teal bubble).
    page.goto(f"/requests/{request.pk}")
    composer = page.get_by_role("form", name="Send a message")
    composer.get_by_label("Message").fill("Here is the checklist.")
    composer.locator('input[type="file"]').set_input_files(pdf)
    expect(composer.get_by_text("Uploaded", exact=True)).to_be_visible()
    composer.get_by_role("button", name="Send").click()
    expect(page.get_by_role("article", name="Message from You", exact=True)).to_have_count(1)
    page.wait_for_load_state("networkidle")
    expect_axe_clean(page, "request thread")
    shot(page, "request-thread", viewport_name)

    travel = SurveyCategory.objects.get(icon=SurveyCategory.Icon.TRAVEL)
    page.goto(f"/requests/category/{travel.pk}")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    page.wait_for_load_state("networkidle")
    expect_axe_clean(page, "request category")

    for path in ("/benefits-and-offers", "/benefits-and-offers/all", "/account"):
        page.goto(path)
        expect(page.get_by_role("heading", level=1)).to_be_visible()
        page.wait_for_load_state("networkidle")
        animations_done(page)
        expect_axe_clean(page, path)

    # The offering details drawer.
    page.goto("/benefits-and-offers")
    page.get_by_role("button", name=re.compile(r"^BlueHarbor Health")).click()
    drawer = page.get_by_role("dialog", name="Medical coverage", exact=True)
    expect(drawer).to_be_visible()
    animations_done(page)
    expect_axe_clean(page, "offering details drawer")
    shot(page, "offering-drawer", viewport_name)


def test_axe_mfa_enrolment(page: Page, demo) -> None:
    """Issue 'usable by everyone', axe: the MFA enrolment screen is clean."""
    sign_in(page, "globex@example.com", DEMO_PASSWORD, "/mfa-enrollment")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    page.wait_for_load_state("networkidle")
    expect_axe_clean(page, "mfa enrollment")


def test_axe_onboarding_screens(page: Page, demo, make_employee) -> None:
    """Issue 'usable by everyone', axe: the three onboarding screens are clean."""
    make_employee("new@example.com", company=Company.objects.get(slug="acme"), onboarded=False)
    sign_in(page, "new@example.com", PASSWORD, "/welcome/about-us")
    for path in ("/welcome/about-us", "/welcome/about-you", "/welcome/contact-info"):
        page.goto(path)
        expect(page.get_by_role("heading", level=1)).to_be_visible()
        page.wait_for_load_state("networkidle")
        expect_axe_clean(page, path)


def test_axe_concierge_desk(page: Page, demo, viewport_name: str) -> None:
    """Issue 'usable by everyone', axe: the concierge desk's queue and a request are clean."""
    from concierge.accounts.models import User

    request = passport_request(User.objects.get(email=EMPLOYEE))
    sign_in(page, CONCIERGE, DEMO_PASSWORD, "/concierge")
    expect(page.get_by_role("link", name=re.compile(PASSPORT)).first).to_be_visible()
    expect_axe_clean(page, "concierge queue")
    shot(page, "desk-queue", viewport_name)
    # The notifications menu opens inside the window at both sizes (shot: nothing cut off).
    # This server has no push keys: the menu says so and offers no push choice.
    bell = page.locator("summary[title=Notifications]")
    bell.click()
    expect(
        page.get_by_text("Push notifications are not set up on this server yet.")
    ).to_be_in_viewport()
    expect(page.get_by_role("checkbox", name=re.compile("New requests"))).to_have_count(0)
    shot(page, "desk-notifications", viewport_name)
    page.keyboard.press("Escape")  # closes it, the focus back on its button
    expect(page.get_by_text("Push notifications are not set up on this server yet.")).to_be_hidden()
    expect(bell).to_be_focused()
    page.goto(f"/concierge/requests/{request.pk}")
    expect(page.get_by_role("heading", level=1, name=PASSPORT)).to_be_visible()
    page.wait_for_load_state("networkidle")
    expect_axe_clean(page, "concierge request")
    shot(page, "desk-request", viewport_name)


# --------------------------------------------------------------------------- focus


def test_focus_ring_on_every_stop_of_the_main_journeys(
    page: Page, demo, viewport_name: str
) -> None:
    """Issue 'usable by everyone': Tab through sign-in, the dashboard, the survey, a request page
    and the desk; every element that takes focus shows a ring of at least 2 px."""
    from concierge.accounts.models import User

    request = passport_request(User.objects.get(email=EMPLOYEE))
    page.goto("/sign-in")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    tab_through(page, 12, journey="sign-in")

    sign_in(page, EMPLOYEE, DEMO_PASSWORD, "/dashboard")
    # The Dashboard drawn, its navigation with it: a Tab pressed before then leaves the page
    # at its first link (nothing after it yet).
    expect(page.get_by_role("heading", level=1, name=re.compile("^Welcome"))).to_be_visible()
    expect(page.get_by_role("link", name="Requests").first).to_be_visible()
    page.wait_for_load_state("networkidle")
    page.locator("body").focus()
    visited = tab_through(page, 30, journey="dashboard")
    assert len(visited) >= 5, visited

    # The survey: chips, Continue, Skip, Edit, Submit, Close.
    answer_passport_survey(page)
    page.get_by_role("region", name="Review your request").get_by_role(
        "button", name="Submit", exact=True
    ).focus()
    page.keyboard.press("Shift+Tab")
    tab_through(page, 3, journey="survey review")
    page.get_by_role("dialog").get_by_role("button", name="Close", exact=True).first.focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")
    assert focus_ring(page)["ring"], focus_ring(page)

    page.goto(f"/requests/{request.pk}")
    expect(page.get_by_role("heading", level=1, name=PASSPORT)).to_be_visible()
    page.wait_for_load_state("networkidle")
    page.locator("body").focus()
    tab_through(page, 25, journey="request page")

    page.goto("/benefits-and-offers")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    page.wait_for_load_state("networkidle")
    page.locator("body").focus()
    tab_through(page, 25, journey="benefits and offers")

    page.evaluate("() => { localStorage.clear(); sessionStorage.clear() }")
    sign_in(page, CONCIERGE, DEMO_PASSWORD, "/concierge")
    expect(page.get_by_role("link", name=re.compile(PASSPORT)).first).to_be_visible()
    page.locator("body").focus()
    tab_through(page, 20, journey="desk queue")
    page.goto(f"/concierge/requests/{request.pk}")
    expect(page.get_by_role("heading", level=1, name=PASSPORT)).to_be_visible()
    page.locator("body").focus()
    tab_through(page, 20, journey="desk request")


def test_focus_moves_to_the_new_page_and_is_announced(page: Page, demo, viewport_name: str) -> None:
    """Issue 'usable by everyone': on a route change focus lands on the new page's <h1> and the
    page is announced; after a failed sign-in it is on the error; after 'View my requests' on the
    Requests page's <h1>."""
    sign_in(page, EMPLOYEE, "wrong-password", lands_on=None)
    alert = page.get_by_role("alert").filter(has_text=re.compile(r"\w"))
    expect(alert).to_be_visible()
    expect(alert).to_be_focused()

    page.get_by_role("link", name="Forgot password?").click()
    expect(page).to_have_url(re.compile(r"/forgot-password$"))
    focused_is_h1(page, re.compile(r"."))
    expect(page.get_by_role("status").filter(has_text="Forgot Password")).to_have_count(1)

    sign_in(page, EMPLOYEE, DEMO_PASSWORD, "/dashboard")
    focused_is_h1(page, re.compile(r"."))
    nav = page.get_by_role("navigation", name="Main")
    nav.get_by_role("link", name="Requests", exact=True).click()
    expect(page).to_have_url(re.compile(r"/requests$"))
    focused_is_h1(page, "Requests")
    expect(page.get_by_role("status").filter(has_text="Requests")).to_have_count(1)
    nav.get_by_role("link", name="Benefits & Offers", exact=True).click()
    focused_is_h1(page, re.compile(r"Benefits"))

    # 'View my requests' after submitting a request from the drawer.
    answer_passport_survey(page)
    page.get_by_role("region", name="Review your request").get_by_role(
        "button", name="Submit", exact=True
    ).click()
    expect(page.get_by_role("heading", name="We've received your request")).to_be_visible()
    page.get_by_role("link", name="View my requests").click()
    expect(page).to_have_url(re.compile(r"/requests$"))
    focused_is_h1(page, "Requests")
    page.wait_for_timeout(500)  # the drawer's own focus restore does not take it back
    focused_is_h1(page, "Requests")


def test_focus_after_claim_and_complete_on_the_desk(page: Page, demo) -> None:
    """Issue 'usable by everyone': after Claim and Complete focus stays on the desk's actions
    (issue 29: after Complete, first on its toast's Undo)."""
    from concierge.accounts.models import User

    request = passport_request(User.objects.get(email=EMPLOYEE))
    sign_in(page, CONCIERGE, DEMO_PASSWORD, "/concierge")
    page.goto(f"/concierge/requests/{request.pk}")
    claim = page.get_by_role("button", name="Claim", exact=True)
    claim.focus()
    page.keyboard.press("Enter")
    expect(claim).to_have_count(0)
    # Focus moves to the action that took Claim's place (Assign), not to <body> (WCAG 2.4.3).
    assign = page.get_by_role("button", name=re.compile("^Assign"))
    expect(assign).to_be_focused()
    assert focus_ring(page)["ring"], focus_ring(page)
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")  # past Start, to Complete
    complete = page.get_by_role("button", name="Complete", exact=True)
    expect(complete).to_be_focused()
    page.keyboard.press("Enter")
    # Complete offers its undo for a few seconds, focused; closing the toast (Escape) hands
    # the focus to the desk's next action (Reopen).
    undo = page.get_by_role("button", name="Undo", exact=True)
    expect(undo).to_be_focused()
    assert focus_ring(page)["ring"], focus_ring(page)
    page.keyboard.press("Escape")
    reopen = page.get_by_role("button", name="Reopen", exact=True)
    expect(reopen).to_be_focused()
    assert focus_ring(page)["ring"], focus_ring(page)
