"""Browser test of issue 26's provisioning settings on the members page: the company admin
creates a SCIM token (shown once, copied from the page), the identity provider uses the shown
base URL and token to add a person and deactivate one (real HTTP to the running app), the
token is replaced and revoked; then a roster CSV is previewed row by row (changes and errors)
and imported. At 1440x900 and 375x812, axe clean, with screenshots.

The web app is served with the API by one process (`custom_app`)."""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import Page, expect

from concierge.accounts.models import Company, EmployeeRecord, User
from concierge.accounts.services.memberships import membership_join
from concierge.company_reports.models import CompanyAdmin
from e2e.a11y import expect_axe_clean
from e2e.conftest import PASSWORD, save_screenshot
from e2e.journeys import sign_in
from e2e.test_concierge import expect_no_sideways_scroll

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.both_viewports]

ADMIN_EMAIL = "harper@acme.example"
ROSTER = (
    "\ufeffEmail;Employee ID;First name;Last name;Status\n"
    "dana@acme.example;E-2041;Dana;Reyes;active\n"
    "noor@acme.example;E-3001;Noor;Aziz;active\n"
    "leaver@acme.example;E-0999;Lee;Ver;inactive\n"
    "not-an-email;E-4000;Bad;Row;active\n"
    "noor@acme.example;E-3002;Noor;Again;active\n"
)


@pytest.fixture(scope="session")
def provisioning_app(custom_app):
    return custom_app()


@pytest.fixture(scope="session")
def base_url(provisioning_app) -> str:
    return provisioning_app.api_url


@pytest.fixture
def admin(acme: Company, make_employee) -> User:
    harper = make_employee(ADMIN_EMAIL, first_name="Harper", last_name="Hughes")
    membership_join(user=harper, company=acme, source=EmployeeRecord.Source.SIGN_UP)
    CompanyAdmin.objects.create(user=harper, company=acme)
    dana = make_employee("dana@acme.example", first_name="Dana", last_name="Reyes")
    membership_join(user=dana, company=acme, source=EmployeeRecord.Source.SIGN_UP)
    leaver = make_employee("leaver@acme.example", first_name="Lee", last_name="Ver")
    membership_join(user=leaver, company=acme, source=EmployeeRecord.Source.SIGN_UP)
    return harper


def provisioning(page: Page):
    return page.get_by_role("region", name="Automatic provisioning (SCIM)")


def test_scim_token_and_roster_import_on_the_members_page(
    page: Page, admin: User, acme: Company, viewport_name: str
) -> None:
    """Issue 26 SCIM settings and roster import: token made, used by an identity provider
    over HTTP, replaced and revoked; a roster previewed with per-row errors, then imported;
    axe clean, no sideways scroll at 375 px"""
    sign_in(page, ADMIN_EMAIL, PASSWORD)
    page.goto("/company/members")
    scim = provisioning(page)
    expect(scim.get_by_text("No token: provisioning is off.")).to_be_visible()
    base = scim.get_by_role("textbox", name="SCIM base URL").input_value()
    assert base.endswith("/scim/v2")

    scim.get_by_role("button", name="Create SCIM token").click()
    token_box = scim.get_by_role("textbox", name="Your new SCIM token")
    expect(token_box).to_be_focused()
    token = token_box.input_value()
    assert token.startswith("scim_")
    expect(scim.get_by_text(re.compile("^Active since"))).to_be_visible()
    scim.scroll_into_view_if_needed()
    expect_no_sideways_scroll(page)
    expect_axe_clean(page, "members page with a new SCIM token")
    save_screenshot(page, f"provisioning-scim-token-{viewport_name}", full_page=True)

    # The identity provider, with the base URL and token as shown: adds a person, and
    # deactivates Dana (her membership ends).
    idp = httpx.Client(base_url=base, headers={"Authorization": f"Bearer {token}"}, timeout=10)
    created = idp.post("/Users", json={"userName": "new.hire@acme.example", "active": True})
    assert created.status_code == 201, created.text
    found = idp.get("/Users", params={"filter": 'userName eq "dana@acme.example"'}).json()
    dana_id = found["Resources"][0]["id"]
    patch = {"Operations": [{"op": "Replace", "path": "active", "value": "False"}]}
    assert idp.patch(f"/Users/{dana_id}", json=patch).json()["active"] is False
    assert not acme.members.filter(email="dana@acme.example").exists()

    # Replaced: the old token stops working; revoked: the new one too.
    scim.get_by_role("button", name="Replace token").click()
    page.get_by_role("alertdialog", name="Replace the SCIM token?").get_by_role(
        "button", name="Replace token"
    ).click()
    expect(token_box).not_to_have_value(token)
    new_token = token_box.input_value()
    assert idp.get("/Users").status_code == 401
    scim.get_by_role("button", name="Revoke token").click()
    page.get_by_role("alertdialog", name="Revoke the SCIM token?").get_by_role(
        "button", name="Revoke token"
    ).click()
    expect(scim.get_by_text("No token: provisioning is off.")).to_be_visible()
    expect(page.get_by_role("heading", name="Automatic provisioning (SCIM)")).to_be_focused()
    revoked = httpx.get(f"{base}/Users", headers={"Authorization": f"Bearer {new_token}"})
    assert revoked.status_code == 401

    # The roster: a semicolon CSV with a BOM; the preview lists changes and errors per row.
    roster = page.get_by_role("region", name="Roster import")
    roster.locator('input[type="file"]').set_input_files(
        {"name": "staff.csv", "mimeType": "text/csv", "buffer": ROSTER.encode()}
    )
    preview = roster.get_by_role("heading", name="Preview: nothing has changed yet")
    expect(preview).to_be_focused()

    def row(text: str):
        """A row of the preview: the table's (desktop) or its card (phone)."""
        if viewport_name == "mobile":
            return (
                roster.get_by_role("list", name="Rows to import")
                .get_by_role("listitem")
                .filter(has_text=text)
            )
        return roster.get_by_role("table").get_by_role("row").filter(has_text=text)

    expect(row("not-an-email")).to_contain_text("is not an email address")
    expect(row("Duplicate row")).to_contain_text("6")
    expect(row("leaver@acme.example")).to_contain_text("Deactivate")
    expect(row("dana@acme.example")).to_contain_text("Reactivate")
    expect_no_sideways_scroll(page)
    expect_axe_clean(page, "roster preview")
    save_screenshot(page, f"provisioning-roster-preview-{viewport_name}", full_page=True)
    assert not EmployeeRecord.objects.filter(company=acme, email="noor@acme.example").exists()

    roster.get_by_role("button", name="Import 3 changes").click()
    expect(roster.get_by_role("heading", name="Imported")).to_be_focused()
    expect(roster.get_by_role("list", name="Import result")).to_contain_text("1 added")
    assert (
        EmployeeRecord.objects.get(company=acme, email="noor@acme.example").employee_id == "E-3001"
    )
    assert not acme.members.filter(email="leaver@acme.example").exists()
    assert acme.members.filter(email="dana@acme.example").exists()
    expect_axe_clean(page, "roster imported")
    save_screenshot(page, f"provisioning-roster-imported-{viewport_name}", full_page=True)
