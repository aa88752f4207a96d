"""Browser test for issue 5 'The concierge side', its first 'Done when': two browser contexts,
an employee and a concierge, and everything between them arrives live (Server-Sent Events),
never by a reload.

The employee submits a request; it appears in the concierge's queue; the concierge claims it,
adds an internal note and replies with a PDF; the employee's open Request page shows the reply
and 'In Progress'; the concierge completes it; the employee sees it under 'Completed (1)'.

The reply email follows the rule as implemented (concierge.servicerequests.tasks): a reply the
employee has already opened sends no email; a reply they have not seen does. So the reply the
employee watches arrive sends none, and the concierge's closing reply, sent while the employee
is on the Requests list, is the one emailed. The worker runs as in production, separately:
`manage.py task_worker --batch`, with REPLY_NOTIFICATION_DELAY_SECONDS = 0.

The concierge is at 1440x900 in both runs; the employee is at 1440x900 ('desktop') or 375x812
('mobile'). The demo data (`seed_demo`) provides the people and the surveys.
"""

from __future__ import annotations

import io
import json
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from playwright.sync_api import Browser, Locator, Page, expect

from concierge.accounts.models import User
from concierge.concierge_desk.models import InternalNote
from concierge.demo.management.commands.seed_demo import simple_pdf
from concierge.servicerequests import services
from concierge.servicerequests.models import Message, ServiceRequest
from concierge.surveys.models import SurveyCategory
from e2e.a11y import expect_axe_clean, focus_ring
from e2e.conftest import (
    DEMO_PASSWORD,
    VIEWPORTS,
    asked,
    continue_button,
    expect_no_sideways_scroll,
    outbox_items,
    save_screenshot,
    settle,
)
from e2e.journeys import sign_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.phone_screenshots]

EMPLOYEE_EMAIL = "demo@example.com"  # Dana Demo, Acme Corp
CONCIERGE_EMAIL = "concierge@example.com"  # Casey Concierge
PASSPORT = "Renew my passport"  # survey 628: a select, an optional text, the phone
Q_PASSPORT = "Your current passport is…"
Q_TRIP = "When is your next international trip?"
Q_PHONE = "What's the best phone number to reach you?"
RECEIVED = "We've received your request"
SIGNATURE = "Casey from Concierge"  # how a concierge's reply is signed to the employee

REPLY = "Hi Dana! Here is the renewal checklist.\nBring the old passport and one photo."
CLOSING = "All set: your appointment is booked for Friday at 10:00. Safe travels!"
NOTE = "Internal: Dana prefers phone calls; the photo booth on 5th is closed Mondays."

# Live updates must beat every fallback: the employee's Request page polls every 15 s and a
# stream that is down polls every 10 s, so 5 s can only be the event stream.
LIVE_MS = 5_000

# Records every event the page's EventSource receives (the app's own handlers still run).
EVENT_RECORDER = """
window.__liveEvents = [];
const NativeEventSource = window.EventSource;
window.EventSource = class extends NativeEventSource {
  constructor(url, init) {
    super(url, init);
    this.addEventListener('message', (e) => window.__liveEvents.push(e.data));
  }
};
"""


# --------------------------------------------------------------------------- fixtures


@pytest.fixture
def demo(demo, settings) -> None:
    """The demo data (e2e/conftest.py), with reply emails due at once (the test runs the
    worker itself)."""
    settings.REPLY_NOTIFICATION_DELAY_SECONDS = 0


@pytest.fixture
def pages(browser: Browser, browser_context_args: dict, viewport_name: str) -> Iterator[dict]:
    """Two browser contexts, each with its own session: the concierge at desktop size and the
    employee at `viewport_name`."""
    contexts = []

    def open_page(viewport: str) -> Page:
        context = browser.new_context(**{**browser_context_args, "viewport": VIEWPORTS[viewport]})
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        page.add_init_script(EVENT_RECORDER)
        return page

    yield {"concierge": open_page("desktop"), "employee": open_page(viewport_name)}
    for context in contexts:
        context.close()


@pytest.fixture
def pdf(tmp_path: Path) -> Path:
    path = tmp_path / "passport-checklist.pdf"
    path.write_bytes(simple_pdf("Passport renewal", ("Form DS-82", "One photo, 2x2 in")))
    return path


def shot(page: Page, name: str, *, full_page: bool = False) -> None:
    """var/screenshots/concierge-<name>.png: the viewport, or the whole page."""
    save_screenshot(page, f"concierge-{name}", full_page=full_page)


# --------------------------------------------------------------------------- helpers


def live_events(page: Page) -> list[dict]:
    return [json.loads(data) for data in page.evaluate("window.__liveEvents")]


def expect_live(page: Page, event_type: str, request_id: int, **fields) -> None:
    """The page's event stream delivered this event (what made the page update)."""

    def arrived() -> bool:
        return any(
            e.get("type") == event_type
            and e.get("request_id") == request_id
            and all(e.get(k) == v for k, v in fields.items())
            for e in live_events(page)
        )

    deadline = time.monotonic() + LIVE_MS / 1000
    while not arrived():
        assert time.monotonic() < deadline, (event_type, request_id, live_events(page))
        page.wait_for_timeout(50)


def submit_passport_request(page: Page) -> None:
    """The Travel category page → 'Renew my passport' → the drawer's three questions → Submit."""
    travel = SurveyCategory.objects.get(icon=SurveyCategory.Icon.TRAVEL)
    page.goto(f"/requests/category/{travel.pk}")
    page.get_by_role("button", name=PASSPORT).click()
    drawer = page.get_by_role("dialog", name=PASSPORT)
    expect(drawer).to_be_visible()

    asked(page, Q_PASSPORT)
    radio = page.get_by_role("radio", name="Expired less than 5 years ago")
    radio.locator("xpath=ancestor::label[1]").click()
    expect(radio).to_be_checked()
    continue_button(page).click()

    asked(page, Q_TRIP)
    page.get_by_role("button", name="Skip", exact=True).click()

    asked(page, Q_PHONE)
    phone = page.get_by_role("textbox", name=Q_PHONE, exact=True)
    expect(phone).to_have_value("(555) 010-2030")  # from Dana's onboarding answers
    continue_button(page).click()

    review = page.get_by_role("region", name="Review your request")
    settle(page)
    review.get_by_role("button", name="Submit", exact=True).click()
    expect(page.get_by_role("heading", name=RECEIVED)).to_be_visible()


def nav_link(page: Page, name: str) -> Locator:
    """The main navigation's link (top bar on wide screens, bottom bar on small ones)."""
    return page.get_by_role("navigation", name="Main").get_by_role("link", name=name, exact=True)


def reply_emails() -> list:
    return [i for i in outbox_items("email", EMPLOYEE_EMAIL) if "New reply" in i.subject]


# --------------------------------------------------------------------------- the test


@pytest.mark.both_viewports
def test_request_answered_live_between_employee_and_concierge(
    demo, pages: dict, pdf: Path, viewport_name: str
) -> None:
    """Issue 5 'Done when' 1: submit → live in the queue → claim, note, reply with a PDF → live
    on the employee's Request page ('In Progress') → complete → 'Completed (1)' live on the
    Requests list → the reply email in the outbox. Internal notes never reach the employee."""
    desk, employee = pages["concierge"], pages["employee"]

    # The concierge signs in on the same sign-in page and lands on the desk, live.
    sign_in(desk, CONCIERGE_EMAIL, DEMO_PASSWORD, "/concierge")
    expect(desk.locator('[data-live="open"]')).to_be_visible()
    queue_tabs = desk.get_by_role("tablist", name="Requests by status")
    expect(queue_tabs.get_by_role("tab", name="In Queue (0)")).to_be_visible()
    expect(desk.get_by_text("Nothing here right now")).to_be_visible()

    # The employee signs in and asks for something. From here on the employee's page is never
    # loaded again (the marker would be gone): every screen change is client side.
    sign_in(employee, EMPLOYEE_EMAIL, DEMO_PASSWORD)
    submit_passport_request(employee)
    employee.evaluate("window.__noReloadSince = true")
    request = ServiceRequest.objects.get(user__email=EMPLOYEE_EMAIL)
    assert request.name == PASSPORT
    assert request.status == ServiceRequest.Status.OPEN

    # 1. The request appears in the concierge's queue without a reload.
    row = desk.get_by_role("table", name="Requests").get_by_role("row").filter(has_text=PASSPORT)
    expect(row).to_be_visible(timeout=LIVE_MS)
    expect_live(desk, "request.created", request.pk)
    expect(row).to_contain_text("Dana Demo")
    expect(row).to_contain_text(EMPLOYEE_EMAIL)
    expect(row).to_contain_text("Acme Corp")
    expect(row).to_contain_text("Travel")
    expect(row).to_contain_text("Unassigned")
    expect(queue_tabs.get_by_role("tab", name="In Queue (1)")).to_be_visible()
    if viewport_name == "desktop":  # the desk is at 1440x900 in both runs
        shot(desk, "desk-queue-desktop")

    # The employee opens the request: Requests list → the request's card (client side).
    employee.get_by_role("link", name="View my requests").click()
    expect(employee).to_have_url(re.compile(r"/requests$"))
    expect(employee.get_by_role("tab", name="To do (1)")).to_be_visible()
    employee.get_by_role("link", name=re.compile(PASSPORT)).click()
    expect(employee).to_have_url(re.compile(rf"/requests/{request.pk}$"))
    employee_header = employee.locator("header").filter(
        has=employee.get_by_role("heading", level=1, name=PASSPORT)
    )
    expect(employee_header.get_by_text("In Queue", exact=True)).to_be_visible()

    # 2. The concierge opens it: the survey answers, then claims it.
    row.get_by_role("link", name=PASSPORT).click()
    expect(desk).to_have_url(re.compile(rf"/concierge/requests/{request.pk}$"))
    expect(desk.get_by_role("heading", level=1, name=PASSPORT)).to_be_visible()
    details = desk.get_by_role("article", name="Request details")
    expect(details).to_contain_text(f"{Q_PASSPORT} Expired less than 5 years ago")
    desk.get_by_role("button", name="Claim", exact=True).click()
    expect(desk.get_by_role("button", name="Claim", exact=True)).to_have_count(0)
    expect(desk.get_by_text("Assignee: Casey Concierge")).to_be_visible()
    request.refresh_from_db()
    assert request.assignee.email == CONCIERGE_EMAIL

    # An internal note, for concierges only.
    notes = desk.get_by_role("complementary", name="About this request")
    notes.get_by_role("textbox", name="Add an internal note").fill(NOTE)
    notes.get_by_role("button", name="Add note").click()
    expect(notes.get_by_role("list", name="Notes")).to_contain_text(NOTE)
    assert InternalNote.objects.filter(request=request, body=NOTE).exists()

    # 3. The reply, with a PDF through the upload pipeline.
    composer = desk.get_by_role("form", name="Reply to the employee")
    composer.get_by_role("textbox", name="Reply to Dana").fill(REPLY)
    composer.locator('input[type="file"]').set_input_files(pdf)
    expect(composer.get_by_text("passport-checklist.pdf", exact=True)).to_be_visible()
    expect(composer.get_by_text("Uploaded", exact=True)).to_be_visible()
    composer.get_by_role("button", name="Send reply").click()
    desk_reply = desk.get_by_role("article", name=f"Message from {SIGNATURE}")
    expect(desk_reply).to_contain_text("Here is the renewal checklist.")
    expect(composer.get_by_role("textbox", name="Reply to Dana")).to_have_value("")
    desk_status = desk.locator("main header [data-status]")
    expect(desk_status).to_have_text("In Progress")
    if viewport_name == "desktop":
        desk.evaluate("window.scrollTo(0, 0)")
        shot(desk, "desk-request-desktop")
        shot(desk, "desk-request-desktop-full", full_page=True)

    # 4. The employee's open Request page shows the reply and 'In Progress', no reload.
    reply = employee.get_by_role("article", name=f"Message from {SIGNATURE}")
    expect(reply).to_be_visible(timeout=LIVE_MS)
    expect_live(employee, "message.created", request.pk)
    expect(reply).to_contain_text("Here is the renewal checklist.")
    expect(reply).to_contain_text("Bring the old passport and one photo.")
    expect(reply.get_by_role("link", name=re.compile("passport-checklist.pdf"))).to_be_visible()
    expect(employee_header.get_by_text("In Progress", exact=True)).to_be_visible(timeout=LIVE_MS)
    shot(employee, f"employee-reply-{viewport_name}")

    # The note never reaches the employee: not on the page, not in their event stream.
    expect(employee.get_by_text(NOTE)).to_have_count(0)
    assert NOTE not in employee.content()
    employee_events = live_events(employee)
    assert all(e["type"] != "note.created" for e in employee_events), employee_events
    assert any(e["type"] == "note.created" for e in live_events(desk))

    # The employee has opened this reply, so the worker sends no email for it.
    message = Message.objects.get(request=request, source=Message.Source.LIFE_CONCIERGE)
    assert [a.filename for a in message.attachments.all()] == ["passport-checklist.pdf"]
    call_command("task_worker", "--batch", "--no-reload", stdout=io.StringIO())
    request.refresh_from_db()
    assert request.seen_by_employee_at >= message.external_created_at
    message.refresh_from_db()
    assert message.employee_notified_at is None
    assert reply_emails() == []

    # 5. The employee goes to Requests (client side); the concierge signs off and completes.
    nav_link(employee, "Requests").click()
    expect(employee).to_have_url(re.compile(r"/requests$"))
    expect(employee.get_by_role("tab", name="To do (1)")).to_be_visible()
    expect(employee.get_by_role("tab", name=re.compile("Completed"))).to_have_count(0)

    composer.get_by_role("textbox", name="Reply to Dana").fill(CLOSING)
    composer.get_by_role("button", name="Send reply").click()
    expect(desk.get_by_role("article", name=f"Message from {SIGNATURE}")).to_have_count(2)
    desk.get_by_role("button", name="Complete", exact=True).click()
    expect(desk_status).to_have_text("Completed")
    expect(desk.get_by_role("button", name="Reopen", exact=True)).to_be_visible()
    request.refresh_from_db()
    assert request.status == ServiceRequest.Status.CLOSED

    # 6. 'Completed (1)' appears on the employee's Requests list without a reload.
    completed = employee.get_by_role("tab", name="Completed (1)")
    expect(completed).to_be_visible(timeout=LIVE_MS)
    expect_live(employee, "request.updated", request.pk, status="closed")
    expect(employee.get_by_role("tab", name="To do (0)")).to_be_visible()
    completed.click()
    card = employee.get_by_role("link", name=re.compile(PASSPORT))
    expect(card).to_contain_text("Completed")
    shot(employee, f"employee-completed-{viewport_name}")
    assert employee.evaluate("window.__noReloadSince") is True

    # 7. The closing reply, which the employee has not opened, is emailed by the worker.
    call_command("task_worker", "--batch", "--no-reload", stdout=io.StringIO())
    emails = reply_emails()
    assert len(emails) == 1, emails
    email = emails[0]
    assert email.subject == f"{settings.PRODUCT_NAME}: New reply to your request: {PASSPORT}"
    assert "Hello Dana," in email.body
    assert CLOSING in email.body
    assert f"/requests/{request.pk}" in email.body
    assert NOTE not in email.body
    closing = Message.objects.get(request=request, body_html__contains="All set")
    assert closing.employee_notified_at is not None

    # The desk's queue: the request under Completed, assigned to Casey.
    desk.get_by_role("link", name="Back to the queue").click()
    expect(desk).to_have_url(re.compile(r"/concierge(\?.*)?$"))
    expect(queue_tabs.get_by_role("tab", name="Completed (1)")).to_be_visible()
    queue_tabs.get_by_role("tab", name="Completed (1)").click()
    done = desk.get_by_role("table", name="Requests").get_by_role("row").filter(has_text=PASSPORT)
    expect(done).to_contain_text("Casey Concierge")
    expect(done).to_contain_text(CLOSING)
    expect_no_sideways_scroll(desk)

    # The desk at the employee's size too (the same screens on a phone).
    if viewport_name == "mobile":
        desk.set_viewport_size(VIEWPORTS["mobile"])
        cards = desk.get_by_role("list", name="Requests")
        expect(cards.get_by_role("link", name=re.compile(PASSPORT))).to_be_visible()
        expect_no_sideways_scroll(desk)
        shot(desk, "desk-queue-mobile")
        cards.get_by_role("link", name=re.compile(PASSPORT)).click()
        expect(desk.get_by_role("heading", level=1, name=PASSPORT)).to_be_visible()
        expect_no_sideways_scroll(desk)
        shot(desk, "desk-request-mobile")
        shot(desk, "desk-request-mobile-full", full_page=True)


# --------------------------------------------------------------------------- issue 29: undo


def settle_toasts(page: Page) -> None:
    """Waits for the toasts' entrance animations to end (for a screenshot of them as shown)."""
    page.get_by_role("region", name="Notifications").evaluate(
        "el => Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished))"
    )


def test_issue_29_desk_complete_can_be_undone(demo, pages, viewport_name) -> None:
    """Issue 29 desk: Complete can be undone for a few seconds. The concierge (at the run's
    size) completes from the keyboard: 'Request completed.' shows with Undo, focused with a
    visible ring, in the polite Notifications region; the employee's open thread turns
    Completed with 'How did we do?'. Undo (Enter): the request is In Progress again on the
    desk, focus on Complete, and live on the employee's thread, the rating card gone; the
    worker then sends no completion email."""
    desk, employee = pages["concierge"], pages["employee"]
    desk.set_viewport_size(VIEWPORTS[viewport_name])
    dana = User.objects.get(email=EMPLOYEE_EMAIL)
    casey = User.objects.get(email=CONCIERGE_EMAIL)
    request = services.request_create(user=dana, name="Find a dog groomer")
    services.concierge_reply_create(
        request=request, author=casey, body="I'm calling three groomers near you now."
    )

    sign_in(employee, EMPLOYEE_EMAIL, DEMO_PASSWORD)
    employee.goto(f"/requests/{request.pk}")
    employee_status = employee.locator("main header [data-status]")
    expect(employee_status).to_have_text("In Progress")

    sign_in(desk, CONCIERGE_EMAIL, DEMO_PASSWORD, "/concierge")
    desk.goto(f"/concierge/requests/{request.pk}")
    expect(desk.get_by_role("heading", level=1, name="Find a dog groomer")).to_be_visible()
    desk_status = desk.locator("main header [data-status]")
    expect(desk_status).to_have_text("In Progress")

    desk.get_by_role("button", name="Complete", exact=True).focus()
    desk.keyboard.press("Enter")
    expect(desk_status).to_have_text("Completed")
    notifications = desk.get_by_role("region", name="Notifications")
    expect(notifications.locator("[aria-live=polite]")).to_contain_text("Request completed.")
    undo = notifications.get_by_role("button", name="Undo", exact=True)
    expect(undo).to_be_focused()
    assert focus_ring(desk)["ring"], focus_ring(desk)
    expect(undo).to_be_in_viewport()
    expect_axe_clean(desk, "the desk's Undo toast", include="section[aria-label=Notifications]")
    expect_no_sideways_scroll(desk)
    settle_toasts(desk)
    shot(desk, f"undo-toast-{viewport_name}")

    expect(employee_status).to_have_text("Completed", timeout=LIVE_MS)
    expect(employee.get_by_role("region", name="How did we do?")).to_be_visible()
    shot(employee, f"undo-employee-completed-{viewport_name}")

    desk.keyboard.press("Enter")
    expect(desk_status).to_have_text("In Progress")
    expect(notifications).to_contain_text("Completion undone: the request is In Progress again.")
    expect(notifications).not_to_contain_text("Request completed.")
    expect(desk.get_by_role("button", name="Complete", exact=True)).to_be_focused()
    settle_toasts(desk)
    shot(desk, f"undo-done-{viewport_name}")

    expect(employee_status).to_have_text("In Progress", timeout=LIVE_MS)
    expect_live(employee, "request.updated", request.pk, status="in_progress")
    expect(employee.get_by_role("region", name="How did we do?")).to_have_count(0)
    shot(employee, f"undo-employee-undone-{viewport_name}")
    request.refresh_from_db()
    assert (request.status, request.completed_at) == (ServiceRequest.Status.IN_PROGRESS, None)

    call_command("task_worker", "--batch", "--no-reload", stdout=io.StringIO())
    assert [e for e in outbox_items("email", EMPLOYEE_EMAIL) if "is complete" in e.subject] == []
