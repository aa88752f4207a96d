"""Browser test of the whole story of 'Beyond the helpdesks': a concierge answers with a saved
reply before the reply-time deadline; the employee rates 5 from the request page; the company
admin sees the month's figures at /company and downloads the CSV. Everyone at the run's
viewport (1440x900 and 375x812)."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.management import call_command
from playwright.sync_api import Browser, Page, expect

from concierge.accounts.models import User
from concierge.servicerequests import services
from concierge.servicerequests.models import ServiceRequest
from e2e.conftest import VIEWPORTS, save_screenshot
from e2e.test_concierge import CONCIERGE_EMAIL, DEMO_PASSWORD, EMPLOYEE_EMAIL, sign_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.both_viewports]

ADMIN_EMAIL = "hr@example.com"  # Harper Hughes, Acme Corp's company admin in the demo data


@pytest.fixture
def demo(transactional_db, monkeypatch) -> None:
    monkeypatch.setenv("DEMO_PASSWORD", DEMO_PASSWORD)
    call_command("seed_demo", stdout=io.StringIO())


@pytest.fixture
def pages(browser: Browser, browser_context_args: dict, viewport_name: str) -> Iterator[dict]:
    contexts = []

    def open_page() -> Page:
        context = browser.new_context(
            **{
                **browser_context_args,
                "viewport": VIEWPORTS[viewport_name],
                "accept_downloads": True,
            }
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    yield {"concierge": open_page(), "employee": open_page(), "admin": open_page()}
    for context in contexts:
        context.close()


def shot(page: Page, name: str, viewport_name: str, *, full_page: bool = False) -> None:
    save_screenshot(page, f"story-{name}-{viewport_name}", full_page=full_page)


def test_saved_reply_before_deadline_rating_and_company_report(
    demo, pages: dict, viewport_name: str, tmp_path: Path
) -> None:
    """Issue 'Done when': saved reply before the deadline → rating 5 → the month's figures
    and the CSV for the company admin, who never sees the request itself."""
    desk, employee, admin = pages["concierge"], pages["employee"], pages["admin"]
    dana = User.objects.get(email=EMPLOYEE_EMAIL)
    secret = "Find a discreet family lawyer"
    service_request = services.request_create(user=dana, name=secret)
    assert service_request.reply_clock.due_at is not None  # Acme's promise is running

    # The concierge answers with a saved reply, before the deadline, and completes it.
    sign_in(desk, CONCIERGE_EMAIL, "/concierge")
    desk.get_by_role("link", name=secret).click()
    badge = desk.locator("header [data-sla]")
    expect(badge).to_have_attribute("data-sla", re.compile("on_track|due_soon"))
    composer = desk.get_by_role("textbox", name="Reply to Dana")
    composer.click()
    composer.press("Control+/")
    desk.get_by_role("combobox", name="Filter saved replies").fill("on it")
    expect(desk.get_by_role("option")).to_have_count(1)
    desk.get_by_role("combobox", name="Filter saved replies").press("Enter")
    expect(composer).to_have_value(re.compile(r"^Hi Dana! Thanks for your request"))
    desk.get_by_role("button", name=re.compile(r"^Send reply")).click()
    expect(badge).to_have_text(re.compile("Clock paused"))
    service_request.refresh_from_db()
    clock = service_request.reply_clock
    assert clock.first_responded_at is not None
    assert clock.first_responded_at <= clock.first_response_due_at  # before the deadline
    desk.get_by_role("button", name="Complete").click()
    expect(desk.get_by_text("Completed", exact=True).first).to_be_visible()

    # The employee rates 5 from the request page.
    sign_in(employee, EMPLOYEE_EMAIL, "/dashboard")
    employee.goto(f"/requests/{service_request.pk}")
    expect(employee.get_by_role("region", name="How did we do?")).to_be_visible()
    # One tap on the face (its label): the radio itself is visually hidden.
    five = employee.get_by_role("radio", name="5 out of 5: Excellent")
    employee.locator("label").filter(has=five).click()
    expect(employee.get_by_text("You rated this request 5 out of 5 (Excellent).")).to_be_visible()
    employee.wait_for_timeout(300)  # the face's colour transition
    shot(employee, "rating", viewport_name)

    # The company admin: the month's figures, aggregates only, and the CSV.
    sign_in(admin, ADMIN_EMAIL, "/dashboard")
    admin.goto("/company")
    expect(admin.get_by_role("heading", name="Acme Corp: concierge report")).to_be_visible()
    latest = admin.get_by_role("region", name=re.compile(r"^\w+ \d{4}$"))
    expect(latest.get_by_role("definition").first).to_have_text("1")
    expect(admin.get_by_text("1 rating (1–5)")).to_be_visible()
    expect(admin.locator("canvas").first).to_be_visible()  # the lazily loaded charts drew
    expect(admin.get_by_text(secret)).to_have_count(0)
    admin.wait_for_timeout(300)
    shot(admin, "company-report", viewport_name, full_page=True)
    with admin.expect_download() as download_info:
        admin.get_by_role("button", name="Download CSV").click()
    download = download_info.value
    assert download.suggested_filename == "acme-corp-report.csv"
    path = tmp_path / "report.csv"
    download.save_as(path)
    rows = list(csv.DictReader(io.StringIO(path.read_text())))
    assert rows[-1]["requests_created"] == "1"
    assert rows[-1]["requests_completed"] == "1"
    assert rows[-1]["csat_average"] == "5.0"
    assert secret not in path.read_text()
    assert ServiceRequest.objects.get(pk=service_request.pk).rating.score == 5
