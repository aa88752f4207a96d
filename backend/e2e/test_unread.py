"""Browser tests for unread replies: a concierge's reply the employee has not opened counts on
the Requests navigation item (top bar, or the bottom bar on phones), leads the page title and
marks its request's card on the Requests list and the Dashboard, live in every tab of the
employee's, and opening the thread clears it everywhere, without a reload."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import Group
from playwright.sync_api import Locator, Page, expect

from concierge.accounts.models import User
from concierge.servicerequests import services as request_services
from concierge.surveys.models import SurveyCategory
from e2e.a11y import expect_axe_clean, focus_ring
from e2e.conftest import PASSWORD, save_screenshot
from e2e.journeys import sign_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.both_viewports]

# Live updates must beat every fallback: a stream that is down polls every 10 s and the
# Request page every 15 s (the lists never poll), so 5 s can only be the event stream.
LIVE_MS = 5_000
WALKER = "Find a dog walker"
PLUMBER = "Fix the kitchen tap"
TABLE = "Book a table"  # never answered: never unread

# Keeps every event stream the page opens, to wait until it is connected.
STREAM_RECORDER = """
window.__streams = [];
const NativeEventSource = window.EventSource;
window.EventSource = class extends NativeEventSource {
  constructor(url, init) {
    super(url, init);
    window.__streams.push(this);
  }
};
"""


@pytest.fixture
def dana(acme, make_employee) -> User:
    return make_employee("dana@example.com", company=acme)


@pytest.fixture
def casey(make_employee) -> User:
    casey = make_employee("casey@example.com", first_name="Casey", last_name="Jones")
    casey.groups.add(Group.objects.get_or_create(name="Concierges")[0])
    return casey


def requests_link(page: Page, name: str) -> Locator:
    """The main navigation's Requests item (top bar on wide screens, bottom bar on phones)."""
    return page.get_by_role("navigation", name="Main").get_by_role("link", name=name, exact=True)


def card(page: Page, name: str) -> Locator:
    return page.get_by_role("main").get_by_role("link", name=re.compile(re.escape(name)))


def wait_for_stream(page: Page) -> None:
    """The page's event stream is connected: what happens from now on is pushed to it."""
    page.wait_for_function("() => window.__streams.some((s) => s.readyState === 1)")


def tab_to(page: Page, target: Locator, stops: int = 40) -> dict:
    """Presses Tab until `target` has the keyboard focus; its focus ring as it shows."""
    for _ in range(stops):
        page.keyboard.press("Tab")
        if target.evaluate("(el) => el === document.activeElement"):
            return focus_ring(page)
    raise AssertionError(f"Tab never reached {target}")


def test_a_concierge_reply_counts_as_unread_live_in_every_tab_until_the_thread_is_opened(
    page: Page, dana: User, casey: User, viewport_name: str
) -> None:
    pet = SurveyCategory.objects.create(name="Pet", icon=SurveyCategory.Icon.PET)
    home = SurveyCategory.objects.create(name="Home", icon=SurveyCategory.Icon.HOME)
    walker = request_services.request_create(
        user=dana, name=WALKER, details="Weekdays at noon.", survey_category_id=pet.pk
    )
    plumber = request_services.request_create(
        user=dana, name=PLUMBER, details="It drips.", survey_category_id=home.pk
    )
    request_services.request_create(user=dana, name=TABLE, details="For four, on Friday.")
    page.context.add_init_script(STREAM_RECORDER)
    sign_in(page, "dana@example.com", PASSWORD)
    # From here on neither tab is loaded again (the marker would be gone).
    requests_link(page, "Requests").click()
    expect(page).to_have_url(re.compile(r"/requests$"))
    expect(page).to_have_title("Concierge | Requests")
    expect(card(page, WALKER)).to_be_visible()
    expect(page.locator("[data-unread]")).to_have_count(0)
    page.evaluate("window.__noReloadSince = true")

    other = page.context.new_page()  # another tab of the same session, on the Dashboard
    other.goto("/dashboard")
    expect(other).to_have_title("Concierge | Dashboard")
    other.evaluate("window.__noReloadSince = true")
    wait_for_stream(page)
    wait_for_stream(other)

    # 1. A reply raises the count in both tabs: the navigation, the title, the cards.
    request_services.concierge_reply_create(
        request=walker, author=casey, body="I found two walkers near you."
    )
    expect(requests_link(page, "Requests, 1 unread")).to_be_visible(timeout=LIVE_MS)
    expect(page).to_have_title("(1) Concierge | Requests")
    # The reply moved the request from the queue to In Progress: once both lists have been
    # fetched again it is shown once.
    expect(card(page, WALKER)).to_have_count(1, timeout=3 * LIVE_MS)
    expect(card(page, WALKER)).to_contain_text("New reply")
    expect(card(page, WALKER)).to_have_attribute("data-unread", "true")
    expect(requests_link(other, "Requests, 1 unread")).to_be_visible(timeout=LIVE_MS)
    expect(other).to_have_title("(1) Concierge | Dashboard")
    latest = other.get_by_role("region", name="Your request is in progress")
    expect(latest.get_by_role("link", name=re.compile(WALKER))).to_contain_text("New reply")

    request_services.concierge_reply_create(
        request=plumber, author=casey, body="A plumber can come on Tuesday."
    )
    expect(requests_link(page, "Requests, 2 unread")).to_be_visible(timeout=LIVE_MS)
    expect(page).to_have_title("(2) Concierge | Requests")
    expect(card(page, PLUMBER)).to_have_count(1, timeout=3 * LIVE_MS)
    expect(requests_link(other, "Requests, 2 unread")).to_be_visible(timeout=LIVE_MS)
    # The newest request in progress is the Dashboard's latest now.
    expect(latest.get_by_role("link", name=re.compile(PLUMBER))).to_contain_text("New reply")
    expect(page.locator("[data-unread]")).to_have_count(2)
    expect(card(page, TABLE)).not_to_contain_text("New reply")
    badge = requests_link(page, "Requests, 2 unread").locator("[data-nav-count]")
    expect(badge).to_have_text("2")

    # What a person sees, and what a screen reader and a keyboard get.
    page.wait_for_timeout(300)  # the cards' colour transition
    save_screenshot(page, f"unread-requests-{viewport_name}")
    save_screenshot(page, f"unread-requests-full-{viewport_name}", full_page=True)
    expect_axe_clean(page, "the Requests list with unread replies")
    ring = tab_to(page, card(page, WALKER))
    assert ring["ring"], ring
    expect_axe_clean(other, "the Dashboard with an unread reply")
    save_screenshot(other, f"unread-dashboard-{viewport_name}")

    # 2. Opening one thread lowers the count here and in the other tab.
    card(page, WALKER).click()
    expect(page).to_have_url(re.compile(rf"/requests/{walker.pk}$"))
    expect(page.get_by_role("list", name="Messages")).to_contain_text("two walkers")
    expect(requests_link(page, "Requests, 1 unread")).to_be_visible(timeout=LIVE_MS)
    expect(page).to_have_title("(1) Concierge | Request")
    expect(requests_link(other, "Requests, 1 unread")).to_be_visible(timeout=LIVE_MS)
    expect(other).to_have_title("(1) Concierge | Dashboard")
    expect(latest.get_by_role("link", name=re.compile(PLUMBER))).to_contain_text("New reply")
    walker.refresh_from_db()
    assert walker.seen_by_employee_at >= walker.last_message_at

    requests_link(page, "Requests, 1 unread").click()
    expect(page).to_have_url(re.compile(r"/requests$"))
    expect(card(page, PLUMBER)).to_contain_text("New reply")
    expect(card(page, WALKER)).not_to_contain_text("New reply")
    expect(card(page, WALKER)).not_to_have_attribute("data-unread", "true")
    ring = tab_to(page, requests_link(page, "Requests, 1 unread"))
    assert ring["ring"], ring

    # 3. The other thread, opened from the other tab's Dashboard, clears it in this one too.
    latest.get_by_role("link", name=re.compile(PLUMBER)).click()
    expect(other).to_have_url(re.compile(rf"/requests/{plumber.pk}$"))
    expect(other.get_by_role("list", name="Messages")).to_contain_text("Tuesday")
    expect(requests_link(page, "Requests")).to_be_visible(timeout=LIVE_MS)
    expect(page).to_have_title("Concierge | Requests")
    expect(page.locator("[data-unread]")).to_have_count(0)
    expect(other).to_have_title("Concierge | Request")
    expect(requests_link(other, "Requests")).to_be_visible()
    assert page.evaluate("window.__noReloadSince") is True
    assert other.evaluate("window.__noReloadSince") is True
    plumber.refresh_from_db()
    assert plumber.seen_by_employee_at >= plumber.last_message_at
    other.close()
