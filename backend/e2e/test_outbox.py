"""Browser test for issue 29 'Emails': the development outbox (/dev/outbox, with DEBUG) shows an
email's HTML part as a mail app would, in a sandboxed frame where no script runs, with its plain
text a click away. Served here by Django's own live server: the page exists only with DEBUG,
which the production layout never has."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from concierge.notifications.delivery import email_send
from concierge.servicerequests import services
from e2e.conftest import expect_no_sideways_scroll, outbox_items, save_screenshot

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.phone_screenshots]

HOSTILE = (
    "<html><head><title>Hostile</title></head><body><p>Only words here.</p>"
    "<script>document.body.insertAdjacentHTML('beforeend', '<p>script ran</p>');"
    "parent.document.title = 'pwned';</script>"
    "<img src=x onerror=\"document.body.append('handler ran')\"></body></html>"
)


def test_issue_29_outbox_shows_the_html_completion_email_and_runs_no_script(
    live_server, settings, make_employee, acme, page: Page, viewport_name: str
) -> None:
    """Issue 29 outbox: the completion email shows its HTML (the request's name, five face
    buttons) in a frame, its plain text under 'Plain text'; an HTML part with a script and
    an event handler shows its words, and neither runs, in the frame nor on the page."""
    settings.DEBUG = True
    dana = make_employee(company=acme)
    request = services.request_create(user=dana, name="Find a dog walker")
    services.request_status_change(request=request, action="complete")
    email_send(to="eve@example.com", subject="Hostile", body="Only words here.", html=HOSTILE)
    assert [i.subject for i in outbox_items("email", dana.email)] == [
        "Concierge: Your request is complete: Find a dog walker"
    ]

    page.goto(f"{live_server.url}/dev/outbox")
    expect(page).to_have_title("Outbox")
    completion = page.get_by_role(
        "article", name="Concierge: Your request is complete: Find a dog walker"
    )
    frame = completion.frame_locator("iframe")
    expect(
        frame.get_by_role("heading", name="Your request \u201cFind a dog walker\u201d is complete")
    ).to_be_visible()
    for label in ("Very poor", "Poor", "OK", "Good", "Excellent"):
        expect(frame.get_by_role("link", name=label, exact=True)).to_be_visible()
    expect(frame.get_by_role("link", name="Excellent", exact=True)).to_have_attribute(
        "href", re.compile(r"/rate/[^?]+\?score=5$")
    )
    completion.evaluate("el => el.scrollIntoView({ block: 'start' })")
    save_screenshot(page, f"outbox-completion-email-{viewport_name}")
    expect(completion.locator("pre")).to_be_hidden()
    completion.get_by_text("Plain text", exact=True).click()
    expect(completion.locator("pre")).to_contain_text("How did we do? One tap records your rating")

    hostile = page.get_by_role("article", name="Concierge: Hostile")
    # Sandboxed without allow-scripts (and the page's CSP, which the frame inherits, refuses
    # inline scripts too).
    expect(hostile.locator("iframe")).to_have_attribute(
        "sandbox", "allow-popups allow-popups-to-escape-sandbox"
    )
    hostile_frame = hostile.frame_locator("iframe")
    expect(hostile_frame.get_by_text("Only words here.")).to_be_visible()
    expect(hostile_frame.get_by_text("script ran")).to_have_count(0)
    expect(hostile_frame.get_by_text("handler ran")).to_have_count(0)
    expect(page).to_have_title("Outbox")
    expect_no_sideways_scroll(page)
