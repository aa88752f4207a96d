"""Browser tests for the API on another origin (spec §5 VITE_API_BASE_URL, §4 sign-in and MFA,
§7 headers): the web app is served from one port and built to call the API on another; the
API allows the web app's origin (CORS_ALLOWED_ORIGINS) and exposes the Authorization and
mfa-token headers, and the web app's Content-Security-Policy lets it connect there."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect

from e2e.conftest import PASSWORD, code_from_sms
from e2e.journeys import sign_in_form_submit

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.phone_screenshots]


@pytest.fixture(scope="session")
def cross_origin_app(custom_app):
    return custom_app(
        vite={"VITE_API_BASE_URL": "{api}"},
        env={"CORS_ALLOWED_ORIGINS": "{web}", "API_ORIGINS": "{api}"},
        cross_origin=True,
    )


@pytest.fixture(scope="session")
def base_url(cross_origin_app) -> str:  # the web app's origin
    return cross_origin_app.web_url


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def test_sign_in_with_mfa_across_origins(
    page: Page, cross_origin_app, acme, make_employee, viewport_name, screenshot
) -> None:
    """§4/§7 across origins: sign-in reads the Authorization header and MFA verification the
    mfa-token header from the API's origin; the signed-in Dashboard loads from there too"""
    web, api = cross_origin_app.web_url, cross_origin_app.api_url
    assert _origin(web) != _origin(api)
    make_employee(f"dana-{viewport_name}@example.com", company=acme, mfa_phone="+15557654321")
    api_calls: list[str] = []
    page.on("request", lambda r: api_calls.append(r.url) if "/api/v1/" in r.url else None)
    problems: list[str] = []
    page.on(
        "console",
        lambda m: (
            problems.append(m.text)
            if re.search("Content Security Policy|CORS|Access-Control", m.text)
            else None
        ),
    )

    response = page.goto("/sign-in")
    assert response is not None
    policy = response.headers["content-security-policy"]
    connect = next(d for d in policy.split("; ") if d.startswith("connect-src"))
    assert api in connect.split()

    sign_in_form_submit(page, f"dana-{viewport_name}@example.com", PASSWORD)
    code = page.get_by_label("Verification code")
    expect(code).to_be_visible()
    code.fill(code_from_sms())
    page.get_by_role("button", name="Verify").click()

    expect(page).to_have_url(re.compile(r"/dashboard$"))
    expect(page.get_by_text(re.compile("Welcome.*Dana"))).to_be_visible()
    assert _origin(page.url) == _origin(web)
    assert any(url.startswith(f"{api}/api/v1/users/sign_in") for url in api_calls)
    assert any(url.startswith(f"{api}/api/v1/mfa/verify") for url in api_calls)
    assert any(url.startswith(f"{api}/api/v1/users/current") for url in api_calls)
    assert not [url for url in api_calls if url.startswith(web)], "the API was called same-origin"
    assert problems == []
    screenshot("cross-origin-dashboard")

    page.reload()
    expect(page.get_by_text(re.compile("Welcome.*Dana"))).to_be_visible()
