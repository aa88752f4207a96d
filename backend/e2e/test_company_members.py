"""Browser test of issue 26's members page: the company admin finds a person by search,
deactivates them (the person is signed out at once: their next API call is refused and their
open page goes to sign-in, where signing in again is refused with the reason), reactivates them
(they sign in again), and makes an invite link. At 1440x900 and 375x812, axe clean, with
screenshots.

The web app is served with the API and the live events by one process (`custom_app`)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from concierge.accounts.models import Company, EmployeeRecord, User
from concierge.accounts.services.memberships import membership_join
from concierge.company_reports.models import CompanyAdmin
from e2e.a11y import expect_axe_clean
from e2e.conftest import PASSWORD, VIEWPORTS, save_screenshot
from e2e.journeys import sign_in
from e2e.test_concierge import expect_no_sideways_scroll

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.both_viewports]

ADMIN_EMAIL = "harper@acme.example"
EMPLOYEE_EMAIL = "dana@acme.example"
ENDED = "Your access through Acme Corp has ended."


@pytest.fixture(scope="session")
def members_app(custom_app):
    return custom_app()


# Session-scoped, as pytest-playwright's base_url they feed is.
@pytest.fixture(scope="session")
def base_url(members_app) -> str:
    return members_app.api_url


@pytest.fixture
def contexts(browser: Browser, base_url: str, viewport_name: str) -> Iterator[dict]:
    opened: list[BrowserContext] = []

    def open_page() -> Page:
        context = browser.new_context(base_url=base_url, viewport=VIEWPORTS[viewport_name])
        context.set_default_timeout(10_000)
        opened.append(context)
        return context.new_page()

    yield {"admin": open_page(), "employee": open_page()}
    for context in opened:
        context.close()


@pytest.fixture
def people(acme: Company, make_employee) -> dict[str, User]:
    """Acme's admin Harper, Dana (employee id E-2041) and a few colleagues, each joined as
    sign-up does (with the employer's record)."""
    admin = make_employee(ADMIN_EMAIL, first_name="Harper", last_name="Hughes")
    membership_join(user=admin, company=acme, source=EmployeeRecord.Source.SIGN_UP)
    CompanyAdmin.objects.create(user=admin, company=acme)
    dana = make_employee(EMPLOYEE_EMAIL, first_name="Dana", last_name="Reyes")
    membership_join(
        user=dana, company=acme, source=EmployeeRecord.Source.SIGN_UP, employee_id="E-2041"
    )
    for n, (first, last) in enumerate([("Ali", "Khan"), ("Bea", "Moreau"), ("Cy", "Ortiz")]):
        colleague = make_employee(f"{first.lower()}@acme.example", first_name=first, last_name=last)
        membership_join(
            user=colleague, company=acme, source=EmployeeRecord.Source.SIGN_UP,
            employee_id=f"E-10{n}",
        )  # fmt: skip
    EmployeeRecord.objects.create(
        company=acme, email="new.hire@acme.example", first_name="Noor", last_name="Aziz",
        employee_id="E-3001", source=EmployeeRecord.Source.ROSTER,
    )  # fmt: skip
    return {"admin": admin, "dana": dana}


def api_status(page: Page, path: str) -> int:
    """The status of a call with the page's own session (as the web app makes it)."""
    return page.evaluate(
        """async (path) => {
            const token = localStorage.getItem('session.token')
            const response = await fetch(path, { headers: { Authorization: `Bearer ${token}` } })
            return response.status
        }""",
        path,
    )


def person(page: Page, viewport_name: str, name: str):
    """Dana's row (desktop table) or card (phone)."""
    if viewport_name == "mobile":
        return page.get_by_role("list", name="People").get_by_role("listitem").filter(has_text=name)
    return page.get_by_role("table", name="People").get_by_role("row").filter(has_text=name)


def test_admin_searches_deactivates_and_reactivates_a_member(
    contexts: dict, people: dict, viewport_name: str
) -> None:
    """Issue 26 members page: search → deactivate (the person's next API call is 401 and their
    page goes to sign-in, where signing in is refused with the reason) → reactivate (they sign
    in again); invite link made; axe clean; no sideways scroll at 375 px"""
    admin, employee = contexts["admin"], contexts["employee"]

    # Dana is signed in, on her dashboard (its live event stream open).
    sign_in(employee, EMPLOYEE_EMAIL, PASSWORD)
    assert api_status(employee, "/api/v1/users/current") == 200

    # The company admin goes from the report to the members page.
    sign_in(admin, ADMIN_EMAIL, PASSWORD)
    admin.goto("/company")
    admin.get_by_role("link", name="Members").click()
    expect(admin).to_have_url(re.compile(r"/company/members\?company=\d+$"))  # the report's
    expect(admin.get_by_role("heading", name="Acme Corp: members")).to_be_visible()
    expect(admin.get_by_text("Page 1 of 1").or_(admin.get_by_text("6 people"))).to_be_visible()
    expect(person(admin, viewport_name, "Noor Aziz")).to_contain_text("Not joined yet")
    expect_no_sideways_scroll(admin)
    expect_axe_clean(admin, "members page")
    save_screenshot(admin, f"company-members-{viewport_name}", full_page=True)

    # Search by employee id, then by name.
    search = admin.get_by_role("searchbox", name="Search people")
    search.fill("E-2041")
    dana = person(admin, viewport_name, "Dana Reyes")
    expect(dana).to_have_count(1)
    expect(person(admin, viewport_name, "Ali Khan")).to_have_count(0)
    search.fill("reyes")
    expect(dana).to_contain_text("Active")

    # Deactivate, after the confirmation.
    admin.get_by_role("button", name="Deactivate Dana Reyes").click()
    dialog = admin.get_by_role("alertdialog", name="Deactivate Dana Reyes?")
    expect(dialog).to_contain_text("signed out everywhere")
    expect(dialog.get_by_role("button", name="Cancel")).to_be_focused()
    expect_axe_clean(admin, "deactivate confirmation")
    save_screenshot(admin, f"company-members-confirm-{viewport_name}")
    dialog.get_by_role("button", name="Deactivate").click()
    expect(admin.get_by_text("Dana Reyes no longer has access through Acme Corp")).to_be_visible()
    expect(dana).to_contain_text("Deactivated")
    expect(admin.get_by_role("button", name="Reactivate Dana Reyes")).to_be_focused()

    # Dana is signed out: her next API call is refused, her page goes to sign-in, and signing
    # in again says why.
    assert api_status(employee, "/api/v1/users/current") == 401
    expect(employee).to_have_url(re.compile("/sign-in"), timeout=15_000)
    sign_in(employee, EMPLOYEE_EMAIL, PASSWORD, lands_on=None)
    expect(employee.get_by_text(ENDED)).to_be_visible()
    expect(employee).to_have_url(re.compile("/sign-in"))

    # Reactivated, she signs in again.
    admin.get_by_role("button", name="Reactivate Dana Reyes").click()
    admin.get_by_role("alertdialog", name="Reactivate Dana Reyes?").get_by_role(
        "button", name="Reactivate"
    ).click()
    expect(dana).to_contain_text("Active")
    expect(admin.get_by_role("button", name="Deactivate Dana Reyes")).to_be_focused()
    sign_in(employee, EMPLOYEE_EMAIL, PASSWORD)

    # An invite link, shown once.
    search.fill("")
    admin.get_by_role("textbox", name=re.compile("^Who it is for")).fill("Sales team")
    admin.get_by_role("button", name="Create invite link").click()
    link = admin.get_by_role("textbox", name="Your new invite link for Sales team")
    expect(link).to_have_value(re.compile(r"/sign-up/acme\?invite=\S+$"))
    expect(link).to_be_focused()
    expect(admin.get_by_role("button", name="Revoke Sales team")).to_be_visible()
    expect_no_sideways_scroll(admin)
    expect_axe_clean(admin, "members page with an invite link")
    save_screenshot(admin, f"company-members-invite-{viewport_name}", full_page=True)


def test_a_long_employee_id_wraps_and_leaves_the_access_button_in_view(
    contexts, people, acme, viewport_name
) -> None:
    """issue 26 members page: an employee id of the full 100 characters, one unbroken word,
    wraps in its cell (desktop) or is cut in its card (phone): the row's Deactivate stays
    inside the list, and the page never scrolls sideways."""
    EmployeeRecord.objects.filter(company=acme, email="ali@acme.example").update(
        employee_id="E-" + "7" * 98
    )
    admin = contexts["admin"]
    sign_in(admin, ADMIN_EMAIL, PASSWORD)
    admin.goto("/company/members")
    row = person(admin, viewport_name, "Ali Khan")
    button = row.get_by_role("button", name=re.compile("^Deactivate"))
    expect(button).to_be_visible()
    people_list = admin.get_by_role(
        "table" if viewport_name == "desktop" else "list", name="People"
    )
    button_box, list_box = button.bounding_box(), people_list.bounding_box()
    assert button_box is not None and list_box is not None
    assert button_box["x"] + button_box["width"] <= list_box["x"] + list_box["width"]
    save_screenshot(admin, f"company-members-long-id-{viewport_name}")  # also: no sideways scroll
