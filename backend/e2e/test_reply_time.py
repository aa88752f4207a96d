"""Browser test for 'Reply-time promises (SLA)': the employee is told when to expect the first
reply, the desk's queue shows time left or overdue for every request (overdue rows stand out),
sorts by the soonest deadline and filters 'Overdue'; the concierge's reply before the deadline
pauses the clock.

Acme's promise in the demo is Monday to Friday, 9:00–17:00; here its calendar is every day,
all day, so the test means the same on any day of the week it runs. Both people use the
viewport of the run (1440x900 and 375x812).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import time, timedelta

import pytest
from django.utils import timezone
from freezegun import freeze_time
from playwright.sync_api import Browser, Page, expect

from concierge.accounts.models import User
from concierge.service_levels.models import ServiceLevel
from concierge.servicerequests import services
from concierge.servicerequests.models import ServiceRequest
from e2e.conftest import DEMO_PASSWORD, VIEWPORTS, save_screenshot
from e2e.journeys import sign_in
from e2e.test_concierge import (
    CONCIERGE_EMAIL,
    EMPLOYEE_EMAIL,
    PASSPORT,
    submit_passport_request,
)
from e2e.time_format import when

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.phone_screenshots]

# Each person sees times in their own zone.
EMPLOYEE_ZONE = "America/Chicago"
DESK_ZONE = "Europe/London"


@pytest.fixture
def demo(demo, settings) -> None:
    """The demo data (e2e/conftest.py), with reply emails due at once and Acme's concierges
    on duty around the clock."""
    settings.REPLY_NOTIFICATION_DELAY_SECONDS = 0
    ServiceLevel.objects.filter(company__slug="acme").update(
        weekdays="0,1,2,3,4,5,6", opens=time(0, 0), closes=time(23, 59, 59)
    )


@pytest.fixture
def pages(browser: Browser, browser_context_args: dict, viewport_name: str) -> Iterator[dict]:
    contexts = []

    def open_page(zone: str) -> Page:
        context = browser.new_context(
            **{**browser_context_args, "viewport": VIEWPORTS[viewport_name], "timezone_id": zone}
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    yield {"concierge": open_page(DESK_ZONE), "employee": open_page(EMPLOYEE_ZONE)}
    for context in contexts:
        context.close()


def shot(page: Page, name: str, viewport_name: str, *, full_page: bool = False) -> None:
    save_screenshot(page, f"reply-time-{name}-{viewport_name}", full_page=full_page)


def request_made(employee: User, name: str, minutes_ago: int) -> ServiceRequest:
    with freeze_time(timezone.now() - timedelta(minutes=minutes_ago)):
        return services.request_create(user=employee, name=name)


def test_reply_time_promise_from_submission_to_first_reply(
    demo, pages: dict, viewport_name: str
) -> None:
    """Issue 'Reply-time promises': 'Expect a reply by …' after submitting and on the request
    page (issue 29 time: 'today 4:00 PM' in the employee's zone, the desk's due time in the
    concierge's); the desk's badges, due-soonest order, 'Overdue' filter and overdue rows; a reply
    (a saved reply, inserted with Ctrl + /) before the deadline pauses the clock and the promise
    line goes away."""
    desk, employee = pages["concierge"], pages["employee"]
    dana = User.objects.get(email=EMPLOYEE_EMAIL)
    request_made(dana, "Book a vet for Rex", minutes_ago=5 * 60)  # 1 h overdue
    request_made(dana, "Find a plumber", minutes_ago=3 * 60 + 30)  # due in 30 min
    request_made(dana, "Plan a birthday dinner", minutes_ago=60)  # 3 h left

    sign_in(employee, EMPLOYEE_EMAIL, DEMO_PASSWORD)
    submit_passport_request(employee)
    promise = employee.get_by_text(re.compile(r"^Expect a reply by "))
    expect(promise).to_be_visible()
    # Issue 29 time: 'Expect a reply by today 4:00 PM' in the employee's zone (4 h from now).
    due_at = promise.locator("time").get_attribute("datetime") or ""
    expect(promise).to_have_text(f"Expect a reply by {when(due_at, EMPLOYEE_ZONE)}")
    expect(promise).to_have_text(
        re.compile(r"^Expect a reply by (today|tomorrow) \d{1,2}:\d{2} [AP]M$")
    )
    shot(employee, "confirmation", viewport_name)
    passport = ServiceRequest.objects.get(name=PASSPORT)
    employee.goto(f"/requests/{passport.pk}")
    expect(employee.get_by_role("heading", name=PASSPORT, level=1)).to_be_visible()
    expect(promise).to_be_visible()
    employee.wait_for_timeout(300)
    shot(employee, "request-page", viewport_name)

    sign_in(desk, CONCIERGE_EMAIL, DEMO_PASSWORD, "/concierge")
    rows = desk.locator("[data-request-id]:visible")
    expect(rows).to_have_count(4)
    # Due soonest first: the overdue one, then the 30-minute one, then the new one (4 h).
    expect(rows.nth(0)).to_contain_text("Book a vet for Rex")
    expect(rows.nth(0)).to_contain_text(re.compile(r"Overdue 1 h"))
    expect(rows.nth(0)).to_have_attribute("data-overdue", "true")
    expect(rows.nth(1)).to_contain_text("Find a plumber")
    expect(rows.nth(1)).to_contain_text(re.compile(r"Due in (29|30) min"))
    expect(rows.nth(2)).to_contain_text("Plan a birthday dinner")
    expect(rows.nth(3)).to_contain_text(PASSPORT)
    expect(rows.nth(3)).to_contain_text(re.compile(r"Due in 3 h 5\d min|Due in 4 h"))
    desk.wait_for_timeout(300)
    shot(desk, "desk-queue", viewport_name, full_page=True)

    desk.get_by_label("Deadline").select_option("overdue")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("Book a vet for Rex")
    expect(desk).to_have_url(re.compile(r"due=overdue"))
    desk.get_by_label("Deadline").select_option("")
    expect(rows).to_have_count(4)

    # The concierge answers the new request well before its deadline: the clock pauses.
    desk.get_by_role("link", name=PASSPORT).click()
    expect(desk.get_by_role("heading", name=PASSPORT, level=1)).to_be_visible()
    badge = desk.locator("header [data-sla]")
    expect(badge).to_contain_text(re.compile(r"Due in"))
    # Issue 29 time: the badge's due time is the same moment, read in the concierge's zone.
    expect(badge).to_have_attribute("title", f"First reply due {when(due_at, DESK_ZONE)}")
    # ... with a saved reply: Ctrl + / in the reply, type to filter, Enter inserts it filled in.
    composer = desk.get_by_role("textbox", name="Reply to Dana")
    composer.click()
    composer.press("Control+/")
    picker = desk.get_by_role("combobox", name="Filter saved replies")
    expect(picker).to_be_focused()
    picker.fill("on it")
    expect(desk.get_by_role("option")).to_have_count(1)
    desk.wait_for_timeout(200)
    shot(desk, "saved-reply-picker", viewport_name)
    picker.press("Enter")
    expect(composer).to_have_value(
        re.compile(r'^Hi Dana! Thanks for your request "Renew my passport"')
    )
    expect(composer).to_be_focused()
    desk.get_by_role("button", name=re.compile(r"^Send reply")).click()
    expect(desk.locator("header [data-sla]")).to_have_text(re.compile("Clock paused"))
    desk.evaluate("window.scrollTo(0, 0)")
    desk.wait_for_timeout(300)
    shot(desk, "desk-request-answered", viewport_name)

    employee.reload()
    expect(employee.get_by_text("I'm on it and will get back to you")).to_be_visible()
    expect(employee.get_by_text(re.compile(r"^Expect a reply by "))).to_have_count(0)


def test_saved_replies_managed_in_the_desk(demo, pages: dict, viewport_name: str) -> None:
    """Issue 'Saved replies': create, edit and delete a shared saved reply from the desk."""
    desk = pages["concierge"]
    sign_in(desk, CONCIERGE_EMAIL, DEMO_PASSWORD, "/concierge")
    desk.get_by_role("link", name="Saved replies").click()
    expect(desk.get_by_role("heading", name="Saved replies", level=1)).to_be_visible()
    desk.get_by_role("button", name="New saved reply").click()
    form = desk.get_by_role("region", name="New saved reply")
    form.get_by_label("Title").fill("Quote on the way")
    form.get_by_label("Reply").fill("Hi {first_name}, your quote for {request_name} is coming.")
    form.get_by_role("button", name="Add saved reply").click()
    cards = desk.get_by_role("list", name="Saved replies")
    expect(cards).to_contain_text("Quote on the way")
    desk.get_by_role("button", name="Edit “Quote on the way”").click()
    desk.get_by_label("Title").fill("Quote coming today")
    desk.get_by_role("button", name="Save changes").click()
    expect(cards).to_contain_text("Quote coming today")
    desk.evaluate("window.scrollTo(0, 0)")
    desk.wait_for_timeout(300)
    shot(desk, "saved-replies", viewport_name)
    desk.get_by_role("button", name="Delete “Quote coming today”").click()
    desk.get_by_role("button", name="Delete for everyone “Quote coming today”").click()
    expect(cards).not_to_contain_text("Quote coming today")
    expect(cards).to_contain_text("Got it, on it")  # the demo's
