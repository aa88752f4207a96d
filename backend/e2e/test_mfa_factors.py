"""Browser tests for issue 13, second factors beyond SMS: an authenticator app enrolled from the
Account page (its codes computed with pyotp from the key shown) and used to sign in; a passkey
registered with Chromium's virtual authenticator and used as the second factor and alone."""

from __future__ import annotations

import re
import time
from datetime import timedelta

import pyotp
import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from concierge.accounts.models import AuthToken, MfaFactor, User
from e2e.conftest import PASSWORD, code_from_sms, outbox_items
from e2e.journeys import sign_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.phone_screenshots]


def sign_out(page: Page) -> None:
    page.goto("/account")
    page.get_by_role("button", name="Sign Out").click()
    expect(page).to_have_url(re.compile(r"/sign-in$"))


def open_account(page: Page) -> None:
    page.goto("/account")
    expect(page.get_by_role("heading", name="Two-step verification")).to_be_visible()


def test_authenticator_app_enrol_and_sign_in(page: Page, acme, make_employee, screenshot) -> None:
    """Issue 13 TOTP: enrol an authenticator app from the Account page (QR code and key), save
    the recovery codes, then sign in with the app's code; 'Send a text instead' is offered when
    a phone is enrolled too."""
    user = make_employee(company=acme)
    sign_in(page, user.email, PASSWORD)
    # Signed in a while ago: adding a way to sign in asks the person to confirm it's them.
    AuthToken.objects.filter(user=user).update(created_at=timezone.now() - timedelta(minutes=20))
    open_account(page)
    expect(page.get_by_text("Add a second step to signing in")).to_be_visible()
    screenshot("account-two-step-empty")

    page.get_by_role("button", name="Add an authenticator app").click()
    expect(
        page.get_by_text("To add a sign-in method, please confirm it’s you first.")
    ).to_be_visible()
    expect(page.get_by_label(re.compile("Confirm with your password"))).to_be_focused()
    screenshot("account-add-confirm")
    page.get_by_label(re.compile("Confirm with your password")).fill(PASSWORD)
    page.get_by_role("button", name="Continue").click()
    expect(page.get_by_role("img", name=re.compile("QR code"))).to_be_visible()
    expect(page.get_by_role("heading", name="Add an authenticator app")).to_be_focused()
    secret = page.get_by_test_id("totp-secret").inner_text().replace(" ", "")
    assert re.fullmatch(r"[A-Z2-7]{32}", secret), secret
    screenshot("totp-enrolment")
    page.get_by_label("Code from the app").fill(
        "000000" if pyotp.TOTP(secret).now() != "000000" else "111111"
    )
    page.get_by_role("button", name="Turn on", exact=True).click()
    expect(page.get_by_role("alert")).to_contain_text("incorrect")
    page.get_by_label("Code from the app").fill(pyotp.TOTP(secret).now())
    page.get_by_role("button", name="Turn on", exact=True).click()

    codes_panel = page.get_by_test_id("recovery-codes")
    codes = codes_panel.locator("li")
    expect(codes).to_have_count(10)
    expect(page.get_by_role("heading", name="Save your recovery codes")).to_be_focused()
    expect(codes_panel.get_by_role("button", name="Download")).to_be_visible()
    screenshot("recovery-codes")
    page.get_by_role("button", name="I’ve saved my codes").click()
    row = page.get_by_test_id("factor-totp")
    expect(row).to_contain_text("Authenticator app")
    expect(row).to_contain_text("Added just now")
    expect(page.get_by_text("Recovery codes:")).to_be_visible()
    screenshot("account-factors")
    emails = outbox_items("email", user.email)
    assert any("A sign-in method was added" in e.subject for e in emails)

    # A phone as well: the MFA step still offers the app first, and a text as an alternative.
    User.objects.filter(pk=user.pk).update(mfa_phone="+15551234567")
    sign_out(page)
    sign_in(page, user.email, PASSWORD, lands_on=None)
    expect(page.get_by_role("heading", name="Enter your authenticator code")).to_be_visible()
    expect(page.get_by_role("button", name="Send a text instead")).to_be_visible()
    expect(page.get_by_role("button", name="Use a recovery code")).to_be_visible()
    assert outbox_items("sms") == []  # no text unless asked for
    screenshot("mfa-step-authenticator")

    # The enrolment used this time step's code: the next step's (one step of drift) is fresh.
    page.get_by_label("Code from your authenticator app").fill(
        pyotp.TOTP(secret).at(time.time() + 30)
    )
    page.get_by_role("button", name="Verify").click()
    expect(page).to_have_url(re.compile(r"/dashboard$"))
    assert MfaFactor.objects.get(user=user).last_used_at is not None

    # 'Send a text instead' texts a code that passes the step just as before.
    sign_out(page)
    sign_in(page, user.email, PASSWORD, lands_on=None)
    page.get_by_role("button", name="Send a text instead").click()
    expect(page.get_by_role("heading", name="Check your phone")).to_be_visible()
    screenshot("mfa-step-text-instead")
    page.get_by_label("Verification code").fill(code_from_sms())
    page.get_by_role("button", name="Verify").click()
    expect(page).to_have_url(re.compile(r"/dashboard$"))


def _virtual_authenticator(page: Page) -> None:
    """Chromium's virtual authenticator (DevTools protocol): a platform passkey that verifies
    the user at once."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    cdp.send(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
                "automaticPresenceSimulation": True,
            }
        },
    )


def test_passkey_register_and_sign_in(page: Page, acme, make_employee, screenshot) -> None:
    """Issue 13 passkeys: register a passkey from the Account page, then sign in with it as the
    second factor, and with it alone ('Continue with a passkey')."""
    _virtual_authenticator(page)
    user = make_employee(company=acme)
    sign_in(page, user.email, PASSWORD)
    open_account(page)

    page.get_by_role("button", name="Add a passkey").click()
    # The ceremony with the virtual authenticator, then the server's check: on a busy machine
    # this takes longer than an ordinary step.
    expect(page.get_by_test_id("recovery-codes").locator("li")).to_have_count(10, timeout=15_000)
    page.get_by_role("button", name="I’ve saved my codes").click()
    expect(page.get_by_test_id("factor-passkey")).to_contain_text("Passkey")
    screenshot("account-factors-passkey")

    sign_out(page)
    sign_in(page, user.email, PASSWORD, lands_on=None)
    expect(page.get_by_role("heading", name="Confirm it’s you")).to_be_visible()
    expect(page.get_by_role("button", name="Use a recovery code")).to_be_visible()
    screenshot("mfa-step-passkey")
    page.get_by_role("button", name="Use passkey").click()
    expect(page).to_have_url(re.compile(r"/dashboard$"))

    sign_out(page)
    page.get_by_role("button", name="Continue with a passkey").click()
    expect(page).to_have_url(re.compile(r"/dashboard$"))
    factor = MfaFactor.objects.get(user=user, kind=MfaFactor.Kind.PASSKEY)
    assert factor.sign_count >= 0 and factor.last_used_at is not None

    # Removing it asks for the password again, and the list is empty afterwards.
    open_account(page)
    page.get_by_role("button", name="Remove Passkey").click()
    page.get_by_label(re.compile("Confirm with your password")).fill(PASSWORD)
    screenshot("remove-factor")
    page.get_by_role("button", name="Remove", exact=True).click()
    expect(page.get_by_text("Add a second step to signing in")).to_be_visible()
    assert not MfaFactor.objects.filter(user=user).exists()


def test_company_requiring_mfa_accepts_an_authenticator_app(
    page: Page, globex, make_employee, screenshot
) -> None:
    """Issue 13: a company that requires MFA accepts any factor: a Globex employee without a
    phone enrols an authenticator app at the enrolment step, saves the recovery codes and
    reaches the Dashboard; removing that last factor is refused."""
    user = make_employee("gina@example.com", company=globex, first_name="Gina")
    sign_in(page, user.email, PASSWORD, lands_on="/mfa-enrollment")
    page.get_by_role("button", name="Use an authenticator app instead").click()
    secret = page.get_by_test_id("totp-secret").inner_text().replace(" ", "")
    screenshot("mfa-enrollment-authenticator")
    page.get_by_label("Code from the app").fill(pyotp.TOTP(secret).now())
    page.get_by_role("button", name="Turn on", exact=True).click()
    expect(page.get_by_test_id("recovery-codes").locator("li")).to_have_count(10)
    page.get_by_role("button", name="Continue").click()
    expect(page).to_have_url(re.compile(r"/dashboard$"))

    open_account(page)
    expect(page.get_by_text("Your employer requires two-step verification")).to_be_visible()
    page.get_by_role("button", name="Remove Authenticator app").click()
    page.get_by_label(re.compile("Confirm with your password")).fill(PASSWORD)
    page.get_by_role("button", name="Remove", exact=True).click()
    expect(page.get_by_role("alert")).to_contain_text("Your employer requires two-step")
    assert MfaFactor.objects.filter(user=user).exists()
