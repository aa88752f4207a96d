"""Browser test for 'Satisfaction (CSAT)': the concierge completes two requests; the employee
rates one 5 from its request page and the other with the completion email's one-tap link
(without signing in, then adds a comment; a link opened after a rating thanks and keeps
it); the desk shows each rating on its request and the averages per concierge and per
company. Both people use the run's viewport."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator

import pytest
from django.core.management import call_command
from playwright.sync_api import Browser, Page, expect

from concierge.accounts.models import User
from concierge.servicerequests import services
from e2e.conftest import DEMO_PASSWORD, VIEWPORTS, outbox_items, save_screenshot
from e2e.journeys import sign_in
from e2e.test_concierge import CONCIERGE_EMAIL, EMPLOYEE_EMAIL

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.phone_screenshots]

RATE_LINK = re.compile(r"(/rate/[A-Za-z0-9_.\-]+\?score=)(\d)")


@pytest.fixture
def pages(browser: Browser, browser_context_args: dict, viewport_name: str) -> Iterator[dict]:
    contexts = []

    def open_page() -> Page:
        context = browser.new_context(
            **{**browser_context_args, "viewport": VIEWPORTS[viewport_name]}
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    yield {"concierge": open_page(), "employee": open_page(), "email": open_page()}
    for context in contexts:
        context.close()


def shot(page: Page, name: str, viewport_name: str, *, full_page: bool = False) -> None:
    save_screenshot(page, f"csat-{name}-{viewport_name}", full_page=full_page)


def complete_on_desk(desk: Page, name: str) -> None:
    desk.goto("/concierge")
    desk.get_by_role("link", name=name).click()
    expect(desk.get_by_role("heading", name=name, level=1)).to_be_visible()
    desk.get_by_role("button", name="Complete").click()
    expect(desk.get_by_text("Completed", exact=True).first).to_be_visible()


def test_rating_from_the_request_page_and_the_email_link(
    demo, pages: dict, viewport_name: str
) -> None:
    """Issue 'Satisfaction (CSAT)': request page rating; the completion email's one-tap,
    single-use link; the desk's rating and averages."""
    desk, employee, mailbox = pages["concierge"], pages["employee"], pages["email"]
    dana = User.objects.get(email=EMPLOYEE_EMAIL)
    casey = User.objects.get(email=CONCIERGE_EMAIL)
    walker = services.request_create(user=dana, name="Find a dog walker")
    dinner = services.request_create(user=dana, name="Book a birthday dinner")
    for service_request in (walker, dinner):
        services.request_assign(request=service_request, assignee=casey)

    sign_in(desk, CONCIERGE_EMAIL, DEMO_PASSWORD, "/concierge")
    complete_on_desk(desk, "Find a dog walker")
    complete_on_desk(desk, "Book a birthday dinner")
    # The completion emails go out (COMPLETION_EMAIL_DELAY_SECONDS after each completion; at
    # once here) before the employee opens the app.
    call_command("task_worker", "--batch", "--no-reload", stdout=io.StringIO())

    # The request page: one tap on 5 records it; then a comment.
    sign_in(employee, EMPLOYEE_EMAIL, DEMO_PASSWORD)
    employee.goto(f"/requests/{walker.pk}")
    rate = employee.get_by_role("region", name="How did we do?")
    expect(rate).to_be_visible()
    five = employee.get_by_role("radio", name="5 out of 5: Excellent")
    if viewport_name == "desktop":
        # The keyboard: the arrow keys pass the other faces without rating them; Space rates.
        employee.get_by_role("radio", name="1 out of 5: Very poor").focus()
        employee.keyboard.press("ArrowRight")
        employee.keyboard.press("ArrowRight")
        employee.keyboard.press("ArrowRight")
        employee.keyboard.press("ArrowRight")
        expect(five).to_be_focused()
        expect(five).not_to_be_checked()
        expect(employee.get_by_text("You rated this request")).to_have_count(0)
        employee.keyboard.press("Space")
    else:
        # One tap on the face (its label): the radio itself is visually hidden.
        employee.locator("label").filter(has=five).click()
    expect(employee.get_by_text("You rated this request 5 out of 5 (Excellent).")).to_be_visible()
    employee.get_by_role("textbox", name=re.compile("Anything you'd like to add")).fill(
        "Rex loves his new walker!"
    )
    employee.get_by_role("button", name="Send comment").click()
    expect(employee.get_by_text("“Rex loves his new walker!”", exact=False)).to_be_visible()
    employee.get_by_role("region", name="Thanks for your rating").scroll_into_view_if_needed()
    shot(employee, "request-page", viewport_name)

    # The completion email: one tap (score 4) records the rating without signing in, once.
    call_command("task_worker", "--batch", "--no-reload", stdout=io.StringIO())
    emails = [
        e for e in outbox_items("email", EMPLOYEE_EMAIL) if "Book a birthday dinner" in e.subject
    ]
    assert emails, "no completion email for the dinner"
    prefix, _ = RATE_LINK.search(emails[0].body).groups()
    mailbox.goto(f"{prefix}4")
    expect(mailbox.get_by_text("Thank you for your rating!")).to_be_visible()
    expect(mailbox.get_by_text("You rated your request 4 out of 5 (Good).")).to_be_visible()
    mailbox.get_by_role("textbox").fill("Great table, thank you")
    mailbox.get_by_role("button", name="Send comment").click()
    expect(mailbox.get_by_text("Thanks, we've added your comment.")).to_be_visible()
    shot(mailbox, "email-link", viewport_name)
    mailbox.goto(f"{prefix}1")  # the same link again: thanks, the rating stays 4
    expect(
        mailbox.get_by_role("heading", name="Thank you, we already have your rating!")
    ).to_be_visible()
    expect(mailbox.get_by_text("You rated this request 4 out of 5 (Good).")).to_be_visible()

    # The walker's email link after its rating on the request page: thanks, the 5 is kept.
    walker_email = next(
        e for e in outbox_items("email", EMPLOYEE_EMAIL) if "Find a dog walker" in e.subject
    )
    walker_prefix, _ = RATE_LINK.search(walker_email.body).groups()
    mailbox.goto(f"{walker_prefix}2")
    expect(
        mailbox.get_by_role("heading", name="Thank you, we already have your rating!")
    ).to_be_visible()
    expect(mailbox.get_by_text("You rated this request 5 out of 5 (Excellent).")).to_be_visible()
    shot(mailbox, "email-link-already-rated", viewport_name)

    # The desk: the rating on the request, and the averages.
    desk.goto(f"/concierge/requests/{walker.pk}")
    panel = desk.get_by_role("region", name="Employee rating")
    expect(panel).to_contain_text("5 out of 5 (Excellent)")
    expect(panel).to_contain_text("Rex loves his new walker!")
    panel.scroll_into_view_if_needed()
    shot(desk, "desk-request", viewport_name)
    desk.get_by_role("link", name="Satisfaction").click()
    expect(desk.get_by_test_id("csat-overall")).to_contain_text("4.50")
    expect(desk.get_by_role("row", name=re.compile("Casey Concierge"))).to_contain_text("4.50")
    expect(desk.get_by_role("row", name=re.compile("Acme Corp"))).to_contain_text("4.50")
    shot(desk, "desk-averages", viewport_name, full_page=True)
