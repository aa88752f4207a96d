"""Steps many browser tests take on the way to what they prove: signing in (§5)."""

from __future__ import annotations

import re

import pyotp
from playwright.sync_api import Page, expect


def sign_in_form_submit(page: Page, email: str, password: str) -> None:
    """Fills in the sign-in screen already on display and presses Sign in."""
    page.get_by_role("textbox", name="Email").fill(email)
    page.get_by_label("Password", exact=True).fill(password)
    page.get_by_role("button", name="Sign in", exact=True).click()


def sign_in(page: Page, email: str, password: str, lands_on: str | None = "/dashboard") -> None:
    """Opens the sign-in screen, signs in and waits for the screen it leads to (`lands_on`;
    None leaves what the sign-in led to for the caller to check)."""
    page.goto("/sign-in")
    sign_in_form_submit(page, email, password)
    if lands_on is not None:
        expect(page).to_have_url(re.compile(re.escape(lands_on) + "$"))


def sign_in_to(page: Page, path: str, email: str, password: str) -> None:
    """Opens `path` signed out, which leads to the sign-in screen, signs in and comes back to
    `path`."""
    page.goto(path)
    expect(page).to_have_url(re.compile(r"/sign-in$"))
    sign_in_form_submit(page, email, password)
    expect(page).to_have_url(re.compile(re.escape(path) + "$"))


def admin_sign_in(page: Page, email: str, password: str) -> None:
    """Django admin's sign-in: the password, then (a first time) an authenticator app."""
    page.goto("/admin/")
    page.locator("#id_username").fill(email)
    page.locator("#id_password").fill(password)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_text(re.compile("asks for a second sign-in step"))).to_be_visible()
    secret = page.locator("code").first.inner_text()
    page.get_by_label("Code from the app").fill(pyotp.TOTP(secret).now())
    page.get_by_role("button", name="Add the app and sign in").click()
    page.get_by_role("link", name="Continue to the admin").click()
    expect(page.get_by_role("heading", name="Site administration")).to_be_visible()
