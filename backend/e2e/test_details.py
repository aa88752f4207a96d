"""Browser tests for the small details of spec §2, §4 and §9: the legal links from TERMS_URL and
PRIVACY_URL on sign-up and in the footer, sign-up without a company link, the ripple, the
full-screen fades, overflowing tabs with scroll buttons, the chip text boxes and times in
English in the viewer's zone. The server runs with its own legal addresses so the links prove
the settings."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, Route, expect

from concierge.accounts.models import User
from concierge.servicerequests import services as request_services
from concierge.surveys.models import SurveyCategory
from e2e.a11y import expect_axe_clean
from e2e.conftest import DEMO_PASSWORD, PASSWORD, save_screenshot
from e2e.journeys import sign_in
from e2e.time_format import when

pytestmark = pytest.mark.django_db(transaction=True)

TERMS = "https://legal.example.org/terms-of-use"
PRIVACY = "https://legal.example.org/privacy-policy"


@pytest.fixture(scope="session")
def details_app(custom_app):
    return custom_app(env={"TERMS_URL": TERMS, "PRIVACY_URL": PRIVACY})


@pytest.fixture(scope="session")
def base_url(details_app) -> str:
    return details_app.web_url


@pytest.fixture
def demo_user(demo) -> User:
    return User.objects.get(email="demo@example.com")


@pytest.mark.phone_screenshots
def test_sign_up_links_to_configured_legal_pages(page: Page, acme, screenshot) -> None:
    """§2 SignUp: the terms of use and privacy policy links are the server's TERMS_URL and
    PRIVACY_URL, opening in a new tab"""
    page.goto("/sign-up/acme")
    terms = page.get_by_role("link", name=re.compile("Terms of Use"))
    expect(terms).to_have_attribute("href", TERMS)
    expect(terms).to_have_attribute("target", "_blank")
    expect(page.get_by_role("link", name=re.compile("Privacy Policy"))).to_have_attribute(
        "href", PRIVACY
    )
    expect(page.get_by_label("Company code")).to_have_count(0)
    screenshot("sign-up")


@pytest.mark.phone_screenshots
def test_sign_up_without_company_link_explains(page: Page, screenshot) -> None:
    """Issue 15 sign-up without a slug: a page explains the company's sign-up link is needed;
    Sign in's 'Sign up' link leads there"""
    page.goto("/sign-in")
    page.get_by_role("link", name="Sign up").click()
    expect(page).to_have_url(re.compile(r"/sign-up$"))
    expect(
        page.get_by_role("heading", level=1, name="Sign up with your company’s link")
    ).to_be_visible()
    expect(page.get_by_role("textbox")).to_have_count(0)
    expect(page.get_by_role("link", name=re.compile("Contact support"))).to_be_visible()
    screenshot("sign-up-needs-company-link")
    page.get_by_role("link", name="Sign in to an existing account").click()
    expect(page).to_have_url(re.compile(r"/sign-in$"))


@pytest.mark.phone_screenshots
def test_footer_legal_links(page: Page, demo_user: User, screenshot) -> None:
    """§2 legal links in the footer: TERMS_URL and PRIVACY_URL, on every screen size"""
    sign_in(page, demo_user.email, DEMO_PASSWORD)
    legal = page.get_by_role("contentinfo").get_by_role("navigation", name="Legal")
    legal.scroll_into_view_if_needed()
    expect(legal.get_by_role("link", name=re.compile("Terms of Use"))).to_have_attribute(
        "href", TERMS
    )
    expect(legal.get_by_role("link", name=re.compile("Privacy Policy"))).to_have_attribute(
        "href", PRIVACY
    )
    # Not under the bottom navigation bar on small screens.
    bar = page.locator("nav[aria-label='Main']").last
    if bar.is_visible():
        link_box = legal.bounding_box()
        bar_box = bar.bounding_box()
        assert link_box and bar_box
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        link_box = legal.bounding_box()
        bar_box = bar.bounding_box()
        assert link_box and bar_box
        assert link_box["y"] + link_box["height"] <= bar_box["y"]
    screenshot("footer")


@pytest.mark.both_viewports
def test_dashboard_idea_tabs_scroll_by_80_percent(
    page: Page, demo_user: User, viewport_name: str, screenshot
) -> None:
    """§9 tabs: the mobile Dashboard's idea tabs that overflow show scroll buttons, and each
    press moves them by 80% of the visible width"""
    for category in SurveyCategory.objects.filter(recommended=True):
        category.name = f"{category.name} and everything around it"
        category.save(update_fields=["name"])
    sign_in(page, demo_user.email, DEMO_PASSWORD)
    expect(page.get_by_role("heading", name="Request ideas")).to_be_visible()
    if viewport_name == "desktop":
        expect(page.get_by_role("tablist")).to_have_count(0)  # columns on wide screens
        screenshot("dashboard-ideas-columns")
        return
    tabs = page.get_by_role("tablist")
    tabs.scroll_into_view_if_needed()
    forward = page.locator("[data-tab-scroll='forward']")
    back = page.locator("[data-tab-scroll='back']")
    expect(forward).to_be_visible()
    expect(forward).to_be_enabled()
    expect(back).to_be_disabled()
    screenshot("dashboard-idea-tabs")
    width = tabs.evaluate("el => el.clientWidth")
    forward.click()
    moved, last = -1, -2
    while moved != last:  # the smooth scroll settles
        page.wait_for_timeout(150)
        last, moved = moved, tabs.evaluate("el => el.scrollLeft")
    max_left = tabs.evaluate("el => el.scrollWidth - el.clientWidth")
    assert abs(moved - min(round(width * 0.8), max_left)) <= 2, (moved, width, max_left)
    expect(back).to_be_enabled()
    screenshot("dashboard-idea-tabs-scrolled")


def test_ripple_and_full_screen_fade(page: Page, demo_user: User) -> None:
    """§4/§9 widget states: buttons and chips ripple for about 400 ms; the drawer's full-screen
    mask fades in 400 ms; with reduced motion there is no ripple"""
    sign_in(page, demo_user.email, DEMO_PASSWORD)
    button = page.get_by_role("button", name="Create a request").locator("visible=true").first
    ripple = button.evaluate(
        "el => { const s = getComputedStyle(el, '::after');"
        " return {content: s.content, duration: s.transitionDuration, overflow:"
        " getComputedStyle(el).overflow} }"
    )
    assert ripple == {"content": '""', "duration": "0.4s, 0.4s", "overflow": "hidden"}

    button.hover()
    page.mouse.down()
    pressed = button.evaluate("el => getComputedStyle(el, '::after').opacity")
    page.mouse.up()
    assert float(pressed) > 0

    expect(page.locator("[data-drawer-mask]")).to_be_visible()
    fades = page.evaluate(
        "() => ['--animate-fade-in', '--animate-fade-out'].map((name) =>"
        " getComputedStyle(document.documentElement).getPropertyValue(name).trim())"
    )
    assert all(re.match(r"fade-(in|out) (0?\.4s|400ms)\b", fade) for fade in fades), fades
    page.keyboard.press("Escape")

    page.emulate_media(reduced_motion="reduce")
    hidden = button.evaluate("el => getComputedStyle(el, '::after').display")
    assert hidden == "none"


@pytest.mark.both_viewports
def test_chip_text_boxes_line_up(page: Page, acme, make_employee, screenshot) -> None:
    """§9 chips: every chip's title and description box is 9rem x 3.5rem, so chips line up"""
    make_employee("pat@example.com", company=acme, onboarded=False)
    sign_in(page, "pat@example.com", PASSWORD, lands_on="/welcome/about-us")
    page.goto("/welcome/about-you")
    boxes = page.locator("[data-chip-text]")
    expect(boxes.first).to_be_visible()
    rem = page.evaluate("() => parseFloat(getComputedStyle(document.documentElement).fontSize)")
    sizes = {
        (round(b["width"]), round(b["height"]))
        for b in boxes.evaluate_all("els => els.map(el => el.getBoundingClientRect().toJSON())")
    }
    assert sizes == {(round(9 * rem), round(3.5 * rem))}
    screenshot("chips")


@pytest.mark.browser_context_args(locale="de-DE", timezone_id="Europe/Berlin")
def test_timestamp_tooltip_is_english_in_the_viewers_zone(page: Page, demo_user: User) -> None:
    """Issue 29 'Time, everywhere the same' (§9 English): a message's timestamp tooltip and the
    request's 'Requested …' tooltip read 'Today 4:00 PM' in English, in the viewer's zone
    (Berlin here), whatever the browser's locale"""
    request = request_services.request_create(
        user=demo_user,
        name="Book a plumber",
        details="A leaking kitchen tap",
        survey_category_id=SurveyCategory.objects.first().pk,
    )
    sign_in(page, demo_user.email, DEMO_PASSWORD)
    page.goto(f"/requests/{request.pk}")
    stamp = page.get_by_role("list", name="Messages").locator("time").first
    expect(stamp).to_have_attribute("title", re.compile(r"^(Today|Yesterday) \d{1,2}:\d{2} [AP]M$"))
    moment = stamp.get_attribute("datetime") or ""
    expect(stamp).to_have_attribute("title", when(moment, "Europe/Berlin", capitalize=True))
    requested = page.locator("header time").first
    expect(requested).to_have_attribute(
        "title", when(request.issued_at, "Europe/Berlin", capitalize=True)
    )


def unavailable(route: Route) -> None:
    """An API call answered as by a server that is down for a moment."""
    route.fulfill(status=503, json={"success": False, "error": "Service unavailable"})


@pytest.mark.phone_screenshots
def test_section_that_failed_to_load_says_so_and_retry_loads_it(
    page: Page, demo_user: User, viewport_name: str
) -> None:
    """§9 loading and error states: a Dashboard section whose call fails says what failed, as an
    alert with Retry beside the rest of the page (axe-clean), and Retry loads it"""
    categories = re.compile(r"/api/v1/survey_categories$")
    page.route(categories, unavailable)
    sign_in(page, demo_user.email, DEMO_PASSWORD)
    section = page.get_by_role("region", name="All categories")
    alert = section.get_by_role("alert")
    expect(alert).to_have_text("We couldn't load the categories.Retry", timeout=15_000)
    expect(page.get_by_role("heading", level=1, name=re.compile("^Welcome"))).to_be_visible()
    expect_axe_clean(page, "dashboard with a section that failed to load")
    alert.scroll_into_view_if_needed()  # the screen as the person sees it, scrolled there
    save_screenshot(page, f"dashboard-section-load-failed-{viewport_name}")

    page.unroute(categories)
    alert.get_by_role("button", name="Retry").click()
    expect(section.get_by_role("link").first).to_be_visible()
    expect(section.get_by_role("alert")).to_have_count(0)


@pytest.mark.phone_screenshots
def test_page_that_failed_to_load_says_so_and_try_again_loads_it(
    page: Page, demo_user: User, viewport_name: str
) -> None:
    """§9 loading and error states: the Requests page whose lists fail to load says so under its
    title, as an alert with Try again (axe-clean), and Try again loads the lists"""
    request_lists = re.compile(r"/api/v1/requests/(open|in_progress|completed)$")
    page.route(request_lists, unavailable)
    sign_in(page, demo_user.email, DEMO_PASSWORD)
    page.goto("/requests")
    alert = page.get_by_role("alert")
    expect(alert.get_by_role("heading", level=2)).to_have_text(
        "We couldn’t load your requests", timeout=15_000
    )
    expect(page.get_by_role("heading", level=1, name="Requests")).to_be_visible()
    save_screenshot(page, f"requests-load-failed-{viewport_name}")  # axe-checked as it is shot

    page.unroute(request_lists)
    alert.get_by_role("button", name="Try again").click()
    expect(page.get_by_role("tab", name=re.compile(r"^To do"))).to_be_visible()
    expect(page.get_by_role("alert")).to_have_count(0)
