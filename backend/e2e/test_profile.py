"""Browser tests for issue 29 'The account': the employee changes their name, email, contact
details and password from the Account page, and names a sign-in method."""

from __future__ import annotations

import re

import pyotp
import pytest
from playwright.sync_api import Browser, Page, expect

from concierge.accounts.models import MfaFactor, OnboardingAnswer, User
from concierge.accounts.onboarding import Answer
from e2e.a11y import axe_violations
from e2e.conftest import PASSWORD, link_from_outbox, outbox_items, wait_until
from e2e.journeys import sign_in

pytestmark = pytest.mark.django_db(transaction=True)
NEW_PASSWORD = "Another-Sturdy-Pass9"


def _details(page: Page):
    return page.get_by_role("region", name="Your details")


@pytest.mark.phone_screenshots
def test_name_and_contact_details_are_changed_in_place(
    page: Page, acme, make_employee, screenshot
) -> None:
    """Issue 29 account: the name and the contact details (§5 onboarding rules) are edited on
    the Account page; the focus goes to the form and back; axe finds nothing"""
    user = make_employee("dana@example.com", company=acme)
    sign_in(page, user.email, PASSWORD)
    page.goto("/account")
    details = _details(page)
    expect(details.get_by_text("Not given").first).to_be_visible()
    screenshot("account-details")
    assert axe_violations(page) == []

    details.get_by_role("button", name="Edit").first.click()
    expect(details.get_by_label("First name")).to_be_focused()
    details.get_by_label("Last name").fill("")
    details.get_by_role("button", name="Save changes").click()
    expect(details.get_by_text("Please enter your last name")).to_be_visible()
    details.get_by_label("Last name").fill("King")
    details.get_by_role("button", name="Save changes").click()
    expect(page.get_by_text("Your name is saved.")).to_be_visible()
    expect(page.get_by_role("region", name="Your account")).to_contain_text("Dana King")

    details.get_by_role("button", name="Edit", exact=True).nth(1).click()
    details.get_by_label("Phone number").fill("555010")
    details.get_by_label(re.compile("^City")).fill("Austin")
    details.get_by_role("button", name="Save changes").click()
    expect(details.get_by_text("Please enter a valid phone number")).to_be_visible()
    details.get_by_label("Phone number").fill("5550102030")
    details.get_by_role("button", name="Save changes").click()
    expect(details.get_by_text("Please enter your address")).to_be_visible()
    screenshot("account-contact-errors")
    assert axe_violations(page) == []
    details.get_by_label(re.compile("^Address line 1")).fill("2 New St")
    details.get_by_label(re.compile("^State")).fill("TX")
    details.get_by_label(re.compile("^Postal code")).fill("73301")
    details.get_by_label(re.compile("^Country")).fill("USA")
    details.get_by_role("button", name="Save changes").click()
    expect(page.get_by_text("Your contact details are saved.")).to_be_visible()
    expect(details).to_contain_text("(555) 010-2030")
    expect(details).to_contain_text("2 New St, Austin, TX, 73301, USA")
    user.refresh_from_db()
    assert user.full_name == "Dana King"
    assert OnboardingAnswer.objects.get(user=user, answer_id=Answer.PHONE).value == "5550102030"


@pytest.mark.phone_screenshots
def test_email_changes_once_the_link_is_opened(page: Page, acme, make_employee, screenshot) -> None:
    """Issue 29 account: a new email needs the password; it shows as waiting until the link
    sent to it is opened, then the account signs in with it and the old address is told"""
    user = make_employee("dana@example.com", company=acme)
    sign_in(page, user.email, PASSWORD)
    page.goto("/account")
    details = _details(page)
    details.get_by_role("button", name="Change").first.click()
    expect(details.get_by_label(re.compile("^New email address"))).to_be_focused()
    details.get_by_label(re.compile("^New email address")).fill("dana@new.example")
    details.get_by_label(re.compile("^Current password")).fill("wrong-password")
    details.get_by_role("button", name="Send confirmation link").click()
    expect(details.get_by_text("That password or code is incorrect.")).to_be_visible()
    expect(page).to_have_url(re.compile(r"/account$"))  # a wrong proof keeps the session
    details.get_by_label(re.compile("^Current password")).fill(PASSWORD)
    details.get_by_role("button", name="Send confirmation link").click()
    expect(page.get_by_text("We sent a confirmation link to dana@new.example.")).to_be_visible()
    expect(details.get_by_role("status")).to_contain_text("dana@new.example")
    screenshot("account-email-pending")

    page.goto(link_from_outbox("dana@new.example", r"/change-email/\S+"))
    expect(page.get_by_text("Your email address is changed.")).to_be_visible()
    screenshot("change-email-done")
    page.get_by_role("link", name="Back to your account").click()
    expect(page.get_by_role("region", name="Your account")).to_contain_text("dana@new.example")
    expect(details.get_by_role("status")).to_have_count(0)
    assert [e.subject for e in outbox_items("email", "dana@example.com")][0].endswith(
        "Your email address was changed"
    )
    assert User.objects.get(pk=user.pk).email == "dana@new.example"


def test_password_change_signs_out_the_other_devices(
    page: Page, browser: Browser, base_url: str, acme, make_employee
) -> None:
    """Issue 29 account: the current password and a §5-valid new one; this tab stays signed
    in, another device is signed out at once (issue 26: its open event stream ends when its
    session is revoked, and its next call is refused), back at sign-in untouched"""
    user = make_employee("dana@example.com", company=acme)
    other = browser.new_context(base_url=base_url)
    phone = other.new_page()
    sign_in(phone, user.email, PASSWORD)
    sign_in(page, user.email, PASSWORD)
    page.goto("/account")
    details = _details(page)
    details.get_by_role("button", name="Change").nth(1).click()
    details.get_by_label(re.compile("^Current password")).fill(PASSWORD)
    details.get_by_label(re.compile("^New password")).fill(NEW_PASSWORD)
    details.get_by_label(re.compile("^Confirm new password")).fill("Something-Else-1")
    details.get_by_role("button", name="Change password").click()
    expect(details.get_by_text("Passwords do not match")).to_be_visible()
    details.get_by_label(re.compile("^Confirm new password")).fill(NEW_PASSWORD)
    details.get_by_role("button", name="Change password").click()
    expect(
        page.get_by_text("Your password is changed. Other devices were signed out.")
    ).to_be_visible()

    page.get_by_role("link", name="Requests").first.click()
    expect(page).to_have_url(re.compile(r"/requests$"))
    expect(phone).to_have_url(re.compile(r"/sign-in"))
    other.close()
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)


IPHONE = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"
)


@pytest.mark.phone_screenshots
def test_a_signed_in_device_is_signed_out_from_the_account_page(
    page: Page, browser: Browser, base_url: str, acme, make_employee, screenshot
) -> None:
    """Account, signed-in devices: signing in from a second device emails the account; the phone
    signed in elsewhere is listed by its browser beside this device; signing it out from here sends the phone back to sign-in at once (its event
    stream ends) while this device stays, and the focus stays in the list."""
    user = make_employee("dana@example.com", company=acme)
    other = browser.new_context(base_url=base_url, user_agent=IPHONE)
    phone = other.new_page()
    sign_in(phone, user.email, PASSWORD)
    sign_in(page, user.email, PASSWORD)
    # The second device is news to the account; the first sign-in was not.
    wait_until(page, lambda: len(_new_sign_in_emails(user.email)) == 1)
    assert "HeadlessChrome on Linux" in _new_sign_in_emails(user.email)[0].body
    page.goto("/account")
    devices = page.get_by_role("region", name="Signed-in devices")
    rows = devices.get_by_test_id("signed-in-device")
    expect(rows).to_have_count(2)
    expect(rows.first).to_contain_text("This device")
    expect(rows.nth(1)).to_contain_text("Mobile Safari on iPhone")
    expect(rows.nth(1)).to_contain_text("Signed in just now")
    devices.scroll_into_view_if_needed()
    screenshot("account-signed-in-devices")

    devices.get_by_role("button", name=re.compile("^Sign out of Mobile Safari on iPhone")).click()

    expect(page.get_by_text("Signed out of Mobile Safari on iPhone.")).to_be_visible()
    expect(rows).to_have_count(1)
    expect(devices.get_by_text("Only this device is signed in to your account.")).to_be_focused()
    expect(phone).to_have_url(re.compile(r"/sign-in"))
    page.get_by_role("link", name="Requests").first.click()
    expect(page).to_have_url(re.compile(r"/requests$"))
    other.close()


def _new_sign_in_emails(address: str) -> list:
    return [e for e in outbox_items("email", address) if "New sign-in to your" in e.subject]


def test_a_sign_in_method_is_renamed(page: Page, acme, make_employee) -> None:
    """Issue 29 account: an authenticator app (or a passkey) gets a name of the owner's choice;
    an empty name is refused; the focus returns to its Rename button"""
    user = make_employee("dana@example.com", company=acme)
    sign_in(page, user.email, PASSWORD)
    page.goto("/account")
    page.get_by_role("button", name="Add an authenticator app").click()
    secret = page.get_by_test_id("totp-secret").inner_text().replace(" ", "")
    page.get_by_label("Code from the app").fill(pyotp.TOTP(secret).now())
    page.get_by_role("button", name="Turn on", exact=True).click()
    page.get_by_role("button", name="I’ve saved my codes").click()

    row = page.get_by_test_id("factor-totp")
    row.get_by_role("button", name="Rename Authenticator app").click()
    name = row.get_by_label(re.compile("^Name"))
    expect(name).to_be_focused()
    name.fill(" ")
    row.get_by_role("button", name="Save name").click()
    expect(row.get_by_text("Please enter a name")).to_be_visible()
    name.fill("Work phone")
    row.get_by_role("button", name="Save name").click()
    expect(row.get_by_role("button", name="Rename Work phone")).to_be_focused()
    assert MfaFactor.objects.get(user=user).name == "Work phone"
