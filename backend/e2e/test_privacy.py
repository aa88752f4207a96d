"""Browser tests for issue 27 'The employee's data': an employee downloads their data from the
Account page through the emailed link and opens the zip's JSON; support erases an account
from Django admin after its confirmation page. At both sizes, with screenshots."""

from __future__ import annotations

import json
import re
import zipfile
from datetime import timedelta

import pytest
from playwright.sync_api import Page, expect

from concierge.accounts.models import User
from concierge.privacy.models import RetentionPolicy
from concierge.servicerequests import services as request_services
from e2e.a11y import axe_violations
from e2e.conftest import PASSWORD, link_from_outbox
from e2e.journeys import admin_sign_in, sign_in, sign_in_form_submit

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.both_viewports]
ADMIN_EMAIL = "support@example.com"
ADMIN_PASSWORD = "Support-Sturdy-Pass9"


def test_employee_downloads_their_data_and_opens_the_json(
    page: Page, acme, make_employee, screenshot
) -> None:
    """Issue 27 Download my data: asked on the Account page ('we'll email you a link'), built in
    the background, downloaded once through the emailed link (its token in the fragment, kept
    through the sign-in, then out of the address); data.json holds the request"""
    user = make_employee("dana@example.com", company=acme)
    request_services.request_create(user=user, name="Find a dog walker", details="Two walks")
    sign_in(page, user.email, PASSWORD)
    page.goto("/account")
    section = page.get_by_role("region", name="Your data")
    section.get_by_role("button", name="Download my data").click()
    expect(section.get_by_text("We're preparing your data.")).to_be_visible()
    section.scroll_into_view_if_needed()
    screenshot("privacy-export-asked")
    assert axe_violations(page) == []

    # The token is in the link's fragment, which the browser never sends to a server. Opened
    # signed out, the link goes through the sign-in and comes back with its token.
    link = link_from_outbox(user.email, r"/account/data#[A-Za-z0-9_\-]+")  # runs the build
    page.evaluate("window.localStorage.clear()")
    page.goto(link)
    expect(page).to_have_url(re.compile(r"/sign-in$"))
    sign_in_form_submit(page, user.email, PASSWORD)
    ready = page.get_by_role("region", name="Your data")
    expect(ready.get_by_text("Your copy is ready.")).to_be_visible()
    expect(page).to_have_url(re.compile(r"/account/data$"))  # out of the address and history
    ready.scroll_into_view_if_needed()
    screenshot("privacy-export-link")
    with page.expect_download() as download_info:
        ready.get_by_role("button", name="Download my data (zip)").click()
    download = download_info.value
    assert download.suggested_filename == "my-data.zip"
    with zipfile.ZipFile(download.path()) as archive:
        data = json.loads(archive.read("data.json"))
    assert data["profile"]["email"] == "dana@example.com"
    assert [r["name"] for r in data["requests"]] == ["Find a dog walker"]
    assert data["requests"][0]["details"] == "Two walks"
    expect(ready.get_by_text("Downloaded: my-data.zip.")).to_be_visible()

    page.goto("about:blank")
    page.goto(link)  # used once
    page.get_by_role("button", name="Download my data (zip)").click()
    expect(page.get_by_text(re.compile("This download link was already used"))).to_be_visible()


def test_request_page_says_when_its_messages_will_be_erased(
    page: Page, acme, make_employee, screenshot
) -> None:
    """Issue 27 retention: with the company's 30-day window, a completed request's page says
    on which date its messages will be erased"""
    from django.utils import timezone

    RetentionPolicy.objects.create(company=acme, erase_completed_after_days=30)
    user = make_employee("dana@example.com", company=acme)
    done = request_services.request_create(user=user, name="Find a dog walker")
    completed_at = timezone.now() - timedelta(days=1)
    type(done).objects.filter(pk=done.pk).update(status="closed", completed_at=completed_at)
    erase_on = (completed_at + timedelta(days=30)).date()
    sign_in(page, user.email, PASSWORD)
    page.goto(f"/requests/{done.pk}")
    notice = page.get_by_text(
        f"This request's messages will be erased on {erase_on:%B} {erase_on.day}, {erase_on.year}."
    )
    expect(notice).to_be_visible()
    notice.scroll_into_view_if_needed()
    screenshot("privacy-retention-date")


def test_support_erases_an_account_from_the_admin(
    page: Page, acme, make_employee, screenshot
) -> None:
    """Issue 27 erasure: support selects the person, reads the confirmation page naming them
    and what is erased, confirms; the account is anonymised, the request stays"""
    User.objects.create_superuser(email=ADMIN_EMAIL, password=ADMIN_PASSWORD, first_name="Sam")
    user = make_employee("dana@example.com", company=acme)
    kept = request_services.request_create(user=user, name="Find a dog walker")
    admin_sign_in(page, ADMIN_EMAIL, ADMIN_PASSWORD)
    page.goto("/admin/accounts/user/?q=dana")
    page.locator(f"input[name='_selected_action'][value='{user.pk}']").check()
    page.locator("select[name='action']").select_option("erase_people")
    page.get_by_role("button", name="Go").click()
    expect(page.get_by_text("This erases the people below and cannot be undone")).to_be_visible()
    expect(page.locator(".erase-people")).to_contain_text("Dana Reyes")
    expect(page.locator(".erase-people")).to_contain_text("dana@example.com")
    screenshot("privacy-erase-confirmation")
    page.get_by_role("button", name="Yes, erase 1 person").click()
    expect(
        page.get_by_text(
            f"Erased person #{user.pk}: 1 request kept, anonymised; 0 files and 0 answers deleted."
        )
    ).to_be_visible()
    screenshot("privacy-erase-done")

    user.refresh_from_db()
    assert user.email == f"erased-{user.pk}@erased.invalid" and not user.is_active
    kept.refresh_from_db()
    assert kept.user_id == user.pk  # an anonymous row the company's report still counts
