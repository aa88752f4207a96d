"""Browser test for issue 27 'The audit trail', access transparency: a concierge opens a
request on the desk, and the employee sees "Seen by Casey (Concierge) · <when>" on the
request's page, from the audit trail. The concierge is at 1440x900; the employee at 1440x900
('desktop') and 375x812 ('mobile'), with screenshots."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect

from concierge.accounts.models import User
from concierge.audit import actions
from concierge.audit.models import AuditEvent
from concierge.servicerequests import services as request_services
from e2e.a11y import expect_axe_clean
from e2e.conftest import DEMO_PASSWORD, VIEWPORTS, save_screenshot
from e2e.journeys import sign_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.both_viewports]

EMPLOYEE_EMAIL = "demo@example.com"  # Dana Demo, Acme Corp
CONCIERGE_EMAIL = "concierge@example.com"  # Casey Concierge


def test_the_employee_sees_who_on_the_concierge_side_opened_their_request(
    browser: Browser, browser_context_args: dict, demo, viewport_name: str
) -> None:
    """Issue 27 access transparency: nobody has opened the new request, so no "Seen by"; the
    concierge opens it on the desk; the employee's page then says "Seen by Casey (Concierge)"
    with when. An internal note by the concierge adds nobody."""
    dana = User.objects.get(email=EMPLOYEE_EMAIL)
    request = request_services.request_create(user=dana, name="Find a piano teacher")
    context = browser.new_context(**browser_context_args)
    desk_context = browser.new_context(**{**browser_context_args, "viewport": VIEWPORTS["desktop"]})
    try:
        page = context.new_page()
        sign_in(page, EMPLOYEE_EMAIL, DEMO_PASSWORD)
        page.goto(f"/requests/{request.pk}")
        expect(page.get_by_role("heading", level=1, name="Find a piano teacher")).to_be_visible()
        expect(page.get_by_role("region", name="Who opened this request")).to_have_count(0)

        desk = desk_context.new_page()
        sign_in(desk, CONCIERGE_EMAIL, DEMO_PASSWORD, "/concierge")
        desk.goto(f"/concierge/requests/{request.pk}")
        expect(desk.get_by_text("Find a piano teacher").first).to_be_visible()
        opened = AuditEvent.objects.filter(action=actions.REQUEST_OPENED, target_id=str(request.pk))
        assert [(e.actor_role, e.actor_id) for e in opened] == [
            ("concierge", User.objects.get(email=CONCIERGE_EMAIL).pk)
        ]

        page.reload()
        seen = page.get_by_role("region", name="Who opened this request")
        expect(seen).to_contain_text(re.compile(r"Seen by Casey \(Concierge\) · \S"))
        expect(seen.locator("time")).to_have_count(1)
        expect_axe_clean(page, "the request page with 'Seen by'")
        save_screenshot(page, f"audit-seen-by-{viewport_name}")
    finally:
        context.close()
        desk_context.close()
