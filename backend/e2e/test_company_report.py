"""Browser test of the whole story of 'Beyond the helpdesks': a concierge answers with a saved
reply before the reply-time deadline; the employee rates 5 from the request page; the company
admin sees the month's figures at /company and downloads the CSV. And the report's privacy:
a figure about fewer than 5 people, requests or ratings is a placeholder on the page and an
empty cell in the CSV, until there are 5. Everyone at the run's viewport (1440x900 and
375x812)."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.contrib.auth.models import Group
from playwright.sync_api import Browser, Locator, Page, expect

from concierge.accounts.models import Company, User
from concierge.company_reports.models import CompanyAdmin
from concierge.company_reports.selectors import company_report
from concierge.satisfaction.services import rating_create
from concierge.servicerequests import services
from concierge.servicerequests.models import ServiceRequest
from concierge.surveys.models import SurveyCategory
from e2e.a11y import expect_axe_clean
from e2e.conftest import DEMO_PASSWORD, PASSWORD, VIEWPORTS, save_screenshot
from e2e.journeys import sign_in
from e2e.test_concierge import (
    CONCIERGE_EMAIL,
    EMPLOYEE_EMAIL,
    expect_no_sideways_scroll,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.phone_screenshots]

ADMIN_EMAIL = "hr@example.com"  # Harper Hughes, Acme Corp's company admin in the demo data
PRIVACY_NOTE = (
    "To protect everyone’s privacy, figures about fewer than 5 people, requests or ratings"
    " are hidden."
)
HIDDEN_REQUESTS = "Fewer than 5 requests, hidden to protect privacy"
HIDDEN_RATINGS = "Fewer than 5 ratings, hidden to protect privacy"
HIDDEN_USAGE = (
    "Hidden to protect privacy: fewer than 5 employees used the service, or fewer than 5 didn’t"
)


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


def latest_kpis(page: Page) -> Locator:
    """The latest month's figures: a value and a detail per figure (requests, median first
    reply, satisfaction, usage)."""
    return page.get_by_role("region", name=re.compile(r"^\w+ \d{4}$")).get_by_role("definition")


def expect_figure(kpi: Locator, value: float | None, show, hidden: str) -> None:
    """The figure, or the placeholder (named for screen readers) when the server withheld it."""
    if value is None:
        expect(kpi).to_have_text(re.compile(re.escape(hidden)))
    else:
        expect(kpi).to_have_text(show(value))


def cell(value: float | None) -> str:
    return "" if value is None else str(value)


def download_csv(page: Page, folder: Path) -> list[dict[str, str]]:
    with page.expect_download() as download_info:
        page.get_by_role("button", name="Download CSV").click()
    path = folder / download_info.value.suggested_filename
    download_info.value.save_as(path)
    return list(csv.DictReader(io.StringIO(path.read_text())))


def rated_requests(employees: list[User], concierge: User, scores: list[int]) -> None:
    """Each employee makes a 'Home' request this month; the concierge answers and completes
    it; the employee rates it."""
    home, _ = SurveyCategory.objects.get_or_create(name="Home", defaults={"icon": "home"})
    for employee, score in zip(employees, scores, strict=True):
        made = services.request_create(
            user=employee, name="Fix the porch light", survey_category_id=home.pk
        )
        services.concierge_reply_create(request=made, author=concierge, body="On it")
        services.request_status_change(request=made, action="complete")
        made.refresh_from_db()
        rating_create(request=made, score=score)


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
    sign_in(desk, CONCIERGE_EMAIL, DEMO_PASSWORD, "/concierge")
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
    sign_in(employee, EMPLOYEE_EMAIL, DEMO_PASSWORD)
    employee.goto(f"/requests/{service_request.pk}")
    expect(employee.get_by_role("region", name="How did we do?")).to_be_visible()
    # One tap on the face (its label): the radio itself is visually hidden.
    five = employee.get_by_role("radio", name="5 out of 5: Excellent")
    employee.locator("label").filter(has=five).click()
    expect(employee.get_by_text("You rated this request 5 out of 5 (Excellent).")).to_be_visible()
    employee.wait_for_timeout(300)  # the face's colour transition
    shot(employee, "rating", viewport_name)

    # The company admin: the month's figures as the server publishes them (a placeholder for
    # those about fewer than 5), aggregates only, and the CSV.
    month = company_report(company=Company.objects.get(slug="acme"), months=1)[-1]
    sign_in(admin, ADMIN_EMAIL, DEMO_PASSWORD)
    admin.goto("/company")
    expect(admin.get_by_role("heading", name="Acme Corp: concierge report")).to_be_visible()
    expect(admin.get_by_text(PRIVACY_NOTE)).to_be_visible()
    kpis = latest_kpis(admin)
    expect_figure(kpis.nth(0), month.requests_created, str, HIDDEN_REQUESTS)
    expect_figure(kpis.nth(4), month.csat_average, "{:.2f}".format, HIDDEN_RATINGS)
    # The lazily loaded charts drew, or say that every month is withheld.
    expect(
        admin.locator("canvas").or_(admin.get_by_text("No month has enough to show yet.")).first
    ).to_be_visible()
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
    assert rows[-1]["requests_created"] == cell(month.requests_created)
    assert rows[-1]["requests_completed"] == cell(month.requests_completed)
    assert rows[-1]["csat_average"] == cell(month.csat_average)
    assert secret not in path.read_text()
    assert ServiceRequest.objects.get(pk=service_request.pk).rating.score == 5


def test_report_privacy_placeholders_until_5_then_the_figures(
    page: Page, make_employee, acme: Company, viewport_name: str, tmp_path: Path
) -> None:
    """A team of 4 with 1 rating: the report shows 'Fewer than 5' placeholders, named for
    screen readers, and says why; the CSV has empty cells; axe finds nothing. Once 5 of 11
    employees have made and rated a request, every figure shows, on the page and in the CSV."""
    admin = make_employee(ADMIN_EMAIL, company=acme, first_name="Harper", last_name="Hughes")
    CompanyAdmin.objects.create(user=admin, company=acme)
    desk = make_employee("casey@example.com", first_name="Casey", is_staff=True)
    desk.groups.add(Group.objects.get_or_create(name="Concierges")[0])
    team = [make_employee(f"member{n}@example.com", company=acme) for n in range(3)]
    rated_requests(team[:1], desk, [4])

    sign_in(page, ADMIN_EMAIL, PASSWORD)
    page.goto("/company")
    expect(page.get_by_text(PRIVACY_NOTE)).to_be_visible()
    kpis = latest_kpis(page)
    expect(kpis.nth(0)).to_have_text(re.compile(re.escape(HIDDEN_REQUESTS)))
    expect(kpis.nth(4)).to_have_text(re.compile(re.escape(HIDDEN_RATINGS)))
    expect(kpis.nth(6)).to_have_text(re.compile(re.escape(HIDDEN_USAGE)))
    expect(page.get_by_text("Fewer than 5 ratings", exact=True).first).to_be_visible()
    expect(page.get_by_text("No category had 5 or more requests this month.")).to_be_visible()
    expect(page.get_by_text("Months with fewer than 5 ratings are left out.")).to_be_visible()
    expect(page.get_by_text("4.00")).to_have_count(0)
    expect(page.get_by_text("No month has enough to show yet.")).to_have_count(4)  # no charts
    expect_no_sideways_scroll(page)
    expect_axe_clean(page, "company report, figures withheld")
    save_screenshot(page, f"company-report-withheld-{viewport_name}", full_page=True)
    (row,) = download_csv(page, tmp_path)[-1:]
    assert {row[k] for k in row if k != "month"} == {""}

    idle = [make_employee(f"idle{n}@example.com", company=acme) for n in range(3)]
    more = [make_employee(f"more{n}@example.com", company=acme) for n in range(4)]
    rated_requests(more, desk, [5, 4, 3, 5])  # with the first: 5 ratings, average 4.2
    assert len(team) + len(idle) + len(more) + 1 == 11  # 5 used it, 6 didn't
    page.reload()
    expect(kpis.nth(0)).to_have_text("5")
    expect(kpis.nth(4)).to_have_text("4.20")
    expect(kpis.nth(5)).to_have_text("5 ratings (1–5)")
    expect(kpis.nth(6)).to_have_text("45 %")
    expect(kpis.nth(7)).to_have_text("5 of 11")
    expect(page.get_by_role("list", name="Top categories")).to_have_text("Home: 5")
    expect(page.get_by_text(PRIVACY_NOTE)).to_be_visible()
    expect(page.locator("canvas")).to_have_count(4)  # November's points
    expect_no_sideways_scroll(page)
    expect_axe_clean(page, "company report, figures shown")
    save_screenshot(page, f"company-report-shown-{viewport_name}", full_page=True)
    (row,) = download_csv(page, tmp_path)[-1:]
    assert (row["csat_average"], row["csat_count"], row["employees_using"]) == ("4.2", "5", "5")
