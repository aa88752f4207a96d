"""Browser tests: the sign-up page names the company of its link and answers an unknown one on
load, an email that already has an account ends in 'Check your email', and a password-reset
link is checked as its page opens (spec §2 SignUp/ResetPassword, §4 Authentication, §8)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core.files.base import ContentFile
from django.utils import timezone
from playwright.sync_api import Page, expect

from concierge.accounts.models import Company, PasswordResetToken, User
from concierge.common.tokens import token_new
from concierge.demo.files import logo_svg
from e2e.a11y import expect_axe_clean
from e2e.conftest import PASSWORD

pytestmark = pytest.mark.django_db(transaction=True)

INVALID_RESET_LINK = "This password reset link is invalid or has expired. Please request a new one."
UNKNOWN_COMPANY = "We couldn't find that company. Please check the sign-up link from your employer."


def _reset_link(user: User, **fields) -> str:
    """A reset link's path for `user` (unused and valid for 6 hours unless `fields` say)."""
    raw, hashed = token_new()
    PasswordResetToken.objects.create(
        user=user,
        token_hash=hashed,
        expires_at=fields.pop("expires_at", timezone.now() + timedelta(hours=6)),
        **fields,
    )
    return f"/reset-password/{raw}"


@pytest.mark.phone_screenshots
def test_sign_up_names_the_company_with_its_logo(page: Page, acme: Company, screenshot) -> None:
    """§2 sign-up: the page under a company's link says 'Join {company}' with its logo."""
    acme.logo.save("acme.svg", ContentFile(logo_svg("Acme Corp", "#4f46e5")), save=True)
    page.goto("/sign-up/acme")
    expect(page.get_by_role("heading", level=1, name="Join Acme Corp")).to_be_visible()
    logo = page.locator("main img")
    expect(logo).to_be_visible()
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=logo.element_handle())
    expect(page.get_by_role("button", name="Create account")).to_be_visible()
    page.wait_for_load_state("networkidle")
    expect_axe_clean(page, "sign-up naming the company")
    screenshot("sign-up-join-company")


@pytest.mark.phone_screenshots
def test_sign_up_unknown_company_slug_is_answered_on_load(page: Page, acme, screenshot) -> None:
    """§5 sign-up: a link naming no company says so as the page opens, with no form to fill."""
    page.goto("/sign-up/no-such-company")
    expect(
        page.get_by_role("heading", level=1, name="This sign-up link doesn’t work")
    ).to_be_visible()
    expect(page.get_by_text(UNKNOWN_COMPANY)).to_be_visible()
    expect(page.get_by_role("textbox")).to_have_count(0)
    expect(page.get_by_role("link", name="Contact support")).to_be_visible()
    page.wait_for_load_state("networkidle")
    expect_axe_clean(page, "sign-up with an unknown company")
    screenshot("sign-up-unknown-company")
    page.get_by_role("link", name="Sign in to an existing account").click()
    expect(page).to_have_url(re.compile(r"/sign-in$"))


def test_sign_up_with_an_existing_email_says_check_your_email(
    page: Page, acme, make_employee
) -> None:
    """§4 sign-up: an email that already has an account ends in 'Check your email' (its owner is
    emailed), as a sign-up that confirms first does, not in a sign-in error."""
    make_employee("dana@example.com", company=acme)
    page.goto("/sign-up/acme")
    page.get_by_label("First name").fill("Dana")
    page.get_by_label("Last name").fill("Reyes")
    page.get_by_role("textbox", name="Email").fill("dana@example.com")
    page.get_by_label("Password", exact=True).fill("A-different-Passw0rd!")
    page.get_by_role("button", name="Create account").click()
    expect(page.get_by_role("heading", name="Check your email")).to_be_visible()
    expect(page.get_by_text("We’ve sent an email to dana@example.com.")).to_be_visible()
    expect(page.get_by_text("Invalid email or password.")).to_have_count(0)
    expect(page).to_have_url(re.compile(r"/sign-up/acme$"))
    assert User.objects.filter(email="dana@example.com").count() == 1


@pytest.mark.phone_screenshots
def test_reset_link_used_is_reported_on_load(page: Page, make_employee, screenshot) -> None:
    """§8 reset: a used link says so as the page opens, before any password is typed."""
    dana = make_employee()
    page.goto(_reset_link(dana, used_at=timezone.now()))
    expect(
        page.get_by_role("heading", level=1, name="This reset link can’t be used")
    ).to_be_visible()
    expect(page.get_by_text(INVALID_RESET_LINK)).to_be_visible()
    expect(page.get_by_label("New password", exact=True)).to_have_count(0)
    page.wait_for_load_state("networkidle")
    expect_axe_clean(page, "reset password with a used link")
    screenshot("reset-link-invalid")
    page.get_by_role("link", name="Request a new link").click()
    expect(page).to_have_url(re.compile(r"/forgot-password$"))


def test_reset_link_expired_or_unknown_is_reported_on_load(page: Page, make_employee) -> None:
    """ARCHITECTURE §5: an expired link, and one that never existed, are refused on load."""
    dana = make_employee()
    for path in (
        _reset_link(dana, expires_at=timezone.now() - timedelta(minutes=1)),
        "/reset-password/no-such-token",
    ):
        page.goto(path)
        expect(page.get_by_role("heading", name="This reset link can’t be used")).to_be_visible()
        expect(page.get_by_label("New password", exact=True)).to_have_count(0)


def test_reset_link_good_is_not_used_up_by_the_check(page: Page, make_employee) -> None:
    """§2 reset password: a good link shows the form; checking it on load (twice, on a reload)
    does not use it up, and the new password is set with it."""
    dana = make_employee()
    link = _reset_link(dana)
    page.goto(link)
    expect(page.get_by_label("New password", exact=True)).to_be_visible()
    page.reload()
    page.get_by_label("New password", exact=True).fill("Brand-New-Passw0rd!")
    page.get_by_label("Confirm new password").fill("Brand-New-Passw0rd!")
    page.get_by_role("button", name="Update password").click()
    expect(page).to_have_url(re.compile(r"/sign-in$"))
    dana.refresh_from_db()
    assert dana.check_password("Brand-New-Passw0rd!")
    assert not dana.check_password(PASSWORD)
