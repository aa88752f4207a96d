"""EMAIL_URL (issue 11 'Smaller'): parsed by dj-email-url, which knows smtp, submission and
smtps (`smtps://` used to stop the process with a database-URL error)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from config.env import parse_email_url

SMTP = "django.core.mail.backends.smtp.EmailBackend"


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("smtp://mail.example.com", {"EMAIL_PORT": 25, "EMAIL_USE_TLS": False}),
        (
            "submission://me%40example.com:p%40ss@mail.example.com",
            {
                "EMAIL_PORT": 587,
                "EMAIL_USE_TLS": True,
                "EMAIL_HOST_USER": "me@example.com",
                "EMAIL_HOST_PASSWORD": "p@ss",
            },
        ),
        ("smtps://me:secret@mail.example.com:587", {"EMAIL_PORT": 587, "EMAIL_USE_TLS": True}),
        (
            "smtps://mail.example.com?ssl=true",
            {"EMAIL_PORT": 465, "EMAIL_USE_SSL": True, "EMAIL_USE_TLS": False},
        ),
        ("smtp://mail.example.com:2525?timeout=5", {"EMAIL_PORT": 2525, "EMAIL_TIMEOUT": 5}),
    ],
)
def test_email_url_schemes(url, expected):
    parsed = parse_email_url(url)
    assert parsed["EMAIL_BACKEND"] == SMTP
    assert parsed["EMAIL_HOST"] == "mail.example.com"
    assert parsed["EMAIL_TIMEOUT"] == expected.get("EMAIL_TIMEOUT", 30)
    for name, value in expected.items():
        assert parsed[name] == value, name


def test_email_use_tls_overrides_the_url():
    assert parse_email_url("smtp://mail.example.com:587", use_tls=True)["EMAIL_USE_TLS"] is True
    assert parse_email_url("submission://mail.example.com", use_tls=False)["EMAIL_USE_TLS"] is False


@pytest.mark.parametrize(
    "url", ["postgres://me:topsecret@db.example.com/x", "submission://", "mail.example.com"]
)
def test_a_bad_email_url_names_the_variable_without_the_password(url):
    with pytest.raises(ImproperlyConfigured, match="EMAIL_URL") as error:
        parse_email_url(url)
    assert "topsecret" not in str(error.value)


def test_the_app_starts_with_an_smtps_url():
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "true",
        "EMAIL_URL": "smtps://me:secret@mail.example.com:465?ssl=true",
    }
    code = "from django.conf import settings; print(settings.EMAIL_HOST, settings.EMAIL_USE_SSL)"
    result = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        cwd=settings.BACKEND_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "mail.example.com True"
