"""Browser tests for Hardening 8 'Unbounded threads': a long thread opens on its newest page,
and 'Load older messages' brings earlier pages above it without moving what is on screen, for
the employee and at the desk. The threads are written straight to the database."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import Group
from playwright.sync_api import Page, expect

from concierge.accounts.models import Company, User
from concierge.servicerequests import services as request_services
from concierge.servicerequests.tests.threads import seed_long_thread
from e2e.conftest import PASSWORD, SCREENSHOT_DIR
from e2e.journeys import sign_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.phone_screenshots]

DETAILS = "Two bedrooms, moving on the 1st"
START = "This is the start of the conversation."


def long_request(employee: User, count: int) -> int:
    service_request = request_services.request_create(
        user=employee, name="Plan the move", details=DETAILS
    )
    seed_long_thread(service_request, employee=employee, count=count)
    return service_request.pk


def load_older_in_place(page: Page, first_shown: int, first_loaded: int) -> None:
    """Clicks 'Load older messages' and checks message `first_loaded` came in while message
    `first_shown` (the top one before) stayed where it was on screen."""
    messages = page.get_by_role("list", name="Messages")
    button = page.get_by_role("button", name="Load older messages")
    button.scroll_into_view_if_needed()
    anchor = messages.get_by_text(f"Message {first_shown}", exact=True)
    before = anchor.bounding_box()
    button.click()
    expect(messages.get_by_text(f"Message {first_loaded}", exact=True)).to_be_attached()
    after = anchor.bounding_box()
    assert before is not None and after is not None
    assert abs(after["y"] - before["y"]) <= 2, (before, after)


def shot_of_the_button(page: Page, name: str, viewport_name: str) -> None:
    """var/screenshots/<name>-<size>.png: the screen around 'Load older messages'."""
    page.get_by_role("button", name="Load older messages").scroll_into_view_if_needed()
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOT_DIR / f"{name}-{viewport_name}.png"))


def shown_numbers(page: Page) -> list[int]:
    texts = page.get_by_role("list", name="Messages").get_by_role("article").all_inner_texts()
    return [int(m.group(1)) for t in texts if (m := re.search(r"Message (\d+)", t))]


def test_employee_loads_older_messages_of_a_long_thread(
    page: Page, make_employee, acme: Company, screenshot, viewport_name
):
    """Hardening 8: a 120-message thread opens on messages 71-120; two clicks on 'Load older
    messages' bring 21-70 then 1-20 above them, keeping the scroll position, and the request's
    details come back at the start."""
    employee = make_employee(company=acme)
    request_id = long_request(employee, 120)
    sign_in(page, employee.email, PASSWORD)
    page.goto(f"/requests/{request_id}")
    expect(page.get_by_text("Message 120", exact=True)).to_be_visible()
    assert shown_numbers(page) == list(range(71, 121))
    expect(page.get_by_text(DETAILS)).to_have_count(0)
    shot_of_the_button(page, "long-thread-load-older", viewport_name)

    load_older_in_place(page, first_shown=71, first_loaded=21)
    assert shown_numbers(page) == list(range(21, 121))
    load_older_in_place(page, first_shown=21, first_loaded=1)
    assert shown_numbers(page) == list(range(1, 121))
    expect(page.get_by_text(START)).to_be_visible()
    expect(page.get_by_role("button", name="Load older messages")).to_have_count(0)
    expect(page.get_by_text(DETAILS)).to_be_attached()

    page.get_by_label("Message", exact=True).fill("Still on for Friday?")
    page.get_by_role("button", name="Send").click()
    expect(page.get_by_text("Still on for Friday?")).to_be_visible()
    assert shown_numbers(page) == list(range(1, 121))  # the loaded pages stay after a send


def test_desk_loads_older_messages_of_a_long_thread(
    page: Page, make_employee, acme: Company, screenshot, viewport_name
):
    """Hardening 8: at the desk a 60-message thread opens on messages 11-60; 'Load older
    messages' brings 1-10 above them, keeping the scroll position."""
    employee = make_employee(company=acme)
    concierge = make_employee("casey@example.com", first_name="Casey", is_staff=True)
    concierge.groups.add(Group.objects.get_or_create(name="Concierges")[0])
    request_id = long_request(employee, 60)
    sign_in(page, concierge.email, PASSWORD, "/concierge")
    page.goto(f"/concierge/requests/{request_id}")
    expect(page.get_by_text("Message 60", exact=True)).to_be_visible()
    assert shown_numbers(page) == list(range(11, 61))
    shot_of_the_button(page, "desk-long-thread-load-older", viewport_name)

    load_older_in_place(page, first_shown=11, first_loaded=1)
    assert shown_numbers(page) == list(range(1, 61))
    expect(page.get_by_text(START)).to_be_visible()
    expect(page.get_by_role("article", name="Request details")).to_be_visible()
    screenshot("desk-long-thread-start")
