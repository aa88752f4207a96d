"""Server-provided settings the web app shows (TERMS_URL, PRIVACY_URL), the API on another origin
(CORS_ALLOWED_ORIGINS, spec §5 VITE_API_BASE_URL, §7 headers) and the Content-Security-Policy
sources added only when configured (API_ORIGINS, ANALYTICS_ORIGINS)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from django.conf import settings
from django.test import Client

from conftest import DEFAULT_PASSWORD

pytestmark = pytest.mark.django_db

WEB = "https://app.example.org"


def _settings_in_a_new_process(**env: str) -> subprocess.CompletedProcess[str]:
    code = (
        "import django; django.setup(); from django.conf import settings; "
        "print(settings.TERMS_URL); print(settings.PRIVACY_URL); "
        "print(settings.CORS_ALLOWED_ORIGINS); print(settings.CONTENT_SECURITY_POLICY)"
    )
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=settings.BACKEND_DIR,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "DEBUG": "true", **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_site_answers_the_configured_legal_links(settings):
    """§2 SignUp: links to terms of use and privacy policy come from TERMS_URL and PRIVACY_URL"""
    settings.TERMS_URL = "https://legal.example.org/terms"
    settings.PRIVACY_URL = "https://legal.example.org/privacy"

    response = Client().get("/api/v1/site")

    assert response.status_code == 200
    assert response.json() == {
        "terms_url": "https://legal.example.org/terms",
        "privacy_url": "https://legal.example.org/privacy",
    }
    assert "max-age" in response["Cache-Control"]


@pytest.mark.parametrize("name", ["TERMS_URL", "PRIVACY_URL"])
def test_a_bad_legal_url_stops_the_process_naming_it(name):
    """§2 SignUp legal links: validated at start like the other URL settings"""
    result = _settings_in_a_new_process(**{name: "javascript:alert(1)"})
    assert result.returncode != 0
    assert f"{name} must be a URL" in result.stderr


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("CORS_ALLOWED_ORIGINS", "https://app.example.org/path"),
        ("CORS_ALLOWED_ORIGINS", "app.example.org"),
        ("API_ORIGINS", "ftp://api.example.org"),
        ("ANALYTICS_ORIGINS", "https://*"),
    ],
)
def test_a_bad_origin_stops_the_process_naming_it(name, value):
    """§5 configuration is validated at start: an origin list names the bad variable"""
    result = _settings_in_a_new_process(**{name: value})
    assert result.returncode != 0
    assert f"{name} must list origins" in result.stderr


def test_csp_adds_api_and_analytics_origins_only_when_configured():
    """§8 analytics under the CSP: the tag's origins and an API origin join the policy only
    when configured"""
    plain = _settings_in_a_new_process()
    assert plain.returncode == 0, plain.stderr
    assert "script-src 'self';" in plain.stdout
    assert "google" not in plain.stdout

    configured = _settings_in_a_new_process(
        API_ORIGINS="http://127.0.0.1:9001",
        ANALYTICS_ORIGINS="https://www.googletagmanager.com,https://*.google-analytics.com",
        CORS_ALLOWED_ORIGINS="http://127.0.0.1:9000,https://app.example.org",
    )
    assert configured.returncode == 0, configured.stderr
    policy = configured.stdout.splitlines()[-1]
    directives = {d.split()[0]: d.split()[1:] for d in policy.split("; ")}
    assert directives["script-src"] == [
        "'self'",
        "https://www.googletagmanager.com",
        "https://*.google-analytics.com",
    ]
    assert "http://127.0.0.1:9001" in directives["connect-src"]
    assert "https://*.google-analytics.com" in directives["connect-src"]
    assert "http://127.0.0.1:9001" not in directives["script-src"]
    assert "['http://127.0.0.1:9000', 'https://app.example.org']" in configured.stdout


def test_cors_preflight_allows_the_auth_headers(settings):
    """§7: a web app on a configured origin may send Authorization and mfa-token"""
    settings.CORS_ALLOWED_ORIGINS = [WEB]

    response = Client().options(
        "/api/v1/users/current",
        HTTP_ORIGIN=WEB,
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="GET",
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS="authorization,mfa-token,content-type",
    )

    assert response.status_code == 200
    assert response["Access-Control-Allow-Origin"] == WEB
    allowed = {h.strip() for h in response["Access-Control-Allow-Headers"].split(",")}
    assert {"authorization", "mfa-token", "content-type"} <= allowed


def test_cors_exposes_the_sign_in_token_header(settings, user):
    """§4 sign-in stores the token from the authorization response header: a web app on a
    configured origin can read it (and the mfa-token header of §7 MFA verify)"""
    settings.CORS_ALLOWED_ORIGINS = [WEB]

    response = Client().post(
        "/api/v1/users/sign_in",
        {"user": {"email": user.email, "password": DEFAULT_PASSWORD}},
        content_type="application/json",
        HTTP_ORIGIN=WEB,
    )

    assert response.status_code == 200, response.content
    assert response["Authorization"].startswith("Bearer ")
    assert response["Access-Control-Allow-Origin"] == WEB
    exposed = {h.strip().lower() for h in response["Access-Control-Expose-Headers"].split(",")}
    assert exposed == {"authorization", "mfa-token"}


def test_cors_refuses_other_origins(settings):
    """§5: only the configured web origins may read the API's answers"""
    settings.CORS_ALLOWED_ORIGINS = [WEB]

    response = Client().get("/api/v1/health", HTTP_ORIGIN="https://evil.example.net")

    assert "Access-Control-Allow-Origin" not in response


def test_cors_is_for_the_api_only(settings):
    """§5: the cross-origin grant covers /api/ only, never the web app's pages or admin"""
    settings.CORS_ALLOWED_ORIGINS = [WEB]

    response = Client().get("/admin/login/", HTTP_ORIGIN=WEB)

    assert "Access-Control-Allow-Origin" not in response
