"""Browser tests for hardening 9: joining a work-email company (the demo's Initech).

Sign-up needs an address at the allowed domain; the company's benefits and the sponsoring
block wait until the address is confirmed through the link emailed at sign-up.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from concierge.accounts.models import User
from e2e.conftest import PASSWORD, link_from_outbox, outbox_items

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.phone_screenshots]

WORK_EMAIL = "ann.ex@initech.example"
NOTICE = "Check your inbox to confirm your email address"
INITECH_BENEFIT = (
    "Evergreen Dental, Dental coverage, Two cleanings a year at no cost, View details (benefit)"
)


def _sign_up(page: Page, email: str) -> None:
    page.get_by_label("First name").fill("Ann")
    page.get_by_label("Last name").fill("Ex")
    page.get_by_role("textbox", name="Email").fill(email)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_role("button", name="Create account").click()


def test_hardening_9_work_email_sign_up_then_confirm(page: Page, demo, screenshot) -> None:
    """Hardening 9: another domain is refused; a work email signs up, sees the notice and no
    company benefits; the emailed link confirms it and the benefits appear."""
    page.goto("/sign-up/initech")
    _sign_up(page, "ann@gmail.com")
    refusal = "Initech accounts need a work email address (@initech.example)."
    expect(page.get_by_text(re.compile(re.escape(refusal)))).to_be_visible()
    assert not User.objects.filter(email="ann@gmail.com").exists()
    screenshot("join-domain-refused")

    page.get_by_role("textbox", name="Email").fill(WORK_EMAIL)
    page.get_by_role("button", name="Create account").click()
    expect(page).to_have_url(re.compile(r"/welcome/about-us$"))
    page.get_by_role("link", name="Continue").click()
    page.get_by_role("button", name="Continue").click()
    page.get_by_role("button", name="Finish").click()

    expect(page).to_have_url(re.compile(r"/dashboard$"))
    notice = page.get_by_role("region", name=NOTICE)
    expect(notice).to_be_visible()
    expect(page.get_by_role("region", name="Brought to you by")).to_have_count(0)
    screenshot("join-dashboard-unverified")

    notice.get_by_role("button", name="Resend").click()
    expect(page.get_by_text(f"We’ve sent a new confirmation link to {WORK_EMAIL}.")).to_be_visible()
    links = [i for i in outbox_items("email", WORK_EMAIL) if "/verify-email/" in i.body]
    assert len(links) == 2

    page.goto("/benefits-and-offers")
    expect(page.get_by_role("region", name=NOTICE)).to_be_visible()
    expect(page.get_by_role("button", name=INITECH_BENEFIT)).to_have_count(0)
    screenshot("join-benefits-unverified")

    page.goto(link_from_outbox(WORK_EMAIL, r"/verify-email/\S+"))
    expect(page).to_have_title("Concierge | Confirm Email")
    expect(page.get_by_role("heading", name="Your email address is confirmed.")).to_be_visible()
    screenshot("join-email-confirmed")
    page.get_by_role("link", name="See your benefits").click()

    expect(page).to_have_url(re.compile(r"/benefits-and-offers$"))
    expect(page.get_by_role("button", name=INITECH_BENEFIT)).to_be_visible()
    expect(page.get_by_role("region", name=NOTICE)).to_have_count(0)
    screenshot("join-benefits-verified")
    assert User.objects.get(email=WORK_EMAIL).email_verified_at is not None

    # The link works once.
    page.goto(link_from_outbox(WORK_EMAIL, r"/verify-email/\S+"))
    expect(
        page.get_by_role("heading", name="We couldn’t confirm your email address")
    ).to_be_visible()
