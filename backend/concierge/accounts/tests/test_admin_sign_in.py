"""Hardening 2: the Django admin's sign-in goes through the API's lockout, rate limit and
second factor, and admin pages carry the Content-Security-Policy."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from freezegun import freeze_time

from concierge.accounts.models import User
from concierge.accounts.services.identity import INVALID_CREDENTIALS
from concierge.accounts.services.lockout import ACCOUNT_LOCKED
from concierge.accounts.services.mfa.sms import WRONG_OTP

pytestmark = pytest.mark.django_db
PASSWORD = "admin-pass-123"
LOGIN = "/admin/login/?next=/admin/"


@pytest.fixture
def staff() -> User:
    return User.objects.create_superuser(
        email="root@example.com", password=PASSWORD, first_name="Root"
    )


def _log_in(client: Client, password: str, email: str = "root@example.com"):
    return client.post(LOGIN, {"username": email, "password": password, "next": "/admin/"})


def _signed_in(client: Client) -> bool:
    return client.get("/admin/").status_code == 200


def _page_text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode()).replace("&#x27;", "'")


def test_hardening_2_admin_sign_in_locks_after_ten_wrong_passwords(staff, outbox):
    """Hardening 2: 10 wrong admin passwords lock the account (unlock email sent); the right
    password is then refused with the locked message and nobody is signed in"""
    client = Client()
    for _ in range(10):
        response = _log_in(client, "wrong-password-1")
        assert response.status_code == 200
        assert INVALID_CREDENTIALS in _page_text(response)

    staff.refresh_from_db()
    assert staff.locked_at is not None
    assert outbox.link_token("unlock", to=staff.email)
    right = _log_in(client, PASSWORD)
    assert ACCOUNT_LOCKED in _page_text(right)
    assert not _signed_in(client)


def test_hardening_2_admin_sign_in_is_rate_limited(settings, staff):
    """Hardening 2: admin sign-in shares the API's sign-in rate limit per client"""
    settings.RATE_LIMITS = {"sign_in": (3, 60)}
    client = Client()
    with freeze_time("2026-03-02 10:00:20"):
        for _ in range(3):
            _log_in(client, "wrong-password-1")
        refused = _log_in(client, PASSWORD)

    assert "Too many attempts" in _page_text(refused)
    assert not _signed_in(client)


def test_hardening_2_admin_with_a_phone_needs_the_sms_code(staff, outbox):
    """Hardening 2: an admin with an enrolled phone signs in with password and SMS code; a
    wrong code is refused"""
    staff.mfa_phone = "+15551234567"
    staff.save(update_fields=["mfa_phone"])
    client = Client()

    step = _log_in(client, PASSWORD)
    assert step.status_code == 200
    assert 'name="otp"' in step.content.decode()
    assert not _signed_in(client)
    code = outbox.latest_code(to="+15551234567")
    wrong = client.post(LOGIN, {"otp": f"{(int(code) + 1) % 1_000_000:06d}"})
    assert WRONG_OTP in _page_text(wrong)
    assert not _signed_in(client)

    done = client.post(LOGIN, {"otp": code})
    assert done.status_code == 302
    assert done["Location"] == "/admin/"
    assert _signed_in(client)


def test_hardening_2_admin_pages_carry_the_content_security_policy(staff):
    """Hardening 2: the admin's pages (sign-in included) get the app's CSP"""
    client = Client()
    login_page = client.get(LOGIN)
    assert "script-src 'self'" in login_page["Content-Security-Policy"]
    client.force_login(staff)
    assert "frame-ancestors 'none'" in client.get("/admin/")["Content-Security-Policy"]
