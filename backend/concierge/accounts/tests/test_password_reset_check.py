"""Password reset link checked as its page opens (spec §2 ResetPassword, §7 users/password,
§8 reset submit failure; ARCHITECTURE.md §5: links valid 6 hours, single use)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from freezegun import freeze_time

from concierge.accounts.models import PasswordResetToken
from conftest import DEFAULT_PASSWORD

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "brand-new-secret-77"
INVALID_RESET_TOKEN = (
    "This password reset link is invalid or has expired. Please request a new one."
)


def _check(api, token: str):
    return api.post("users/password/check", {"reset_password_token": token})


def _reset(api, token: str):
    return api.put(
        "users/password",
        {
            "reset_password_token": token,
            "password": NEW_PASSWORD,
            "password_confirmation": NEW_PASSWORD,
        },
    )


@pytest.fixture
def reset_token(api, user, outbox) -> str:
    api.post("users/password", {"user": {"email": user.email}})
    return outbox.link_token("reset-password", to=user.email)


def test_reset_link_checked_on_load_does_not_use_it(api, user, reset_token):
    """§2 reset password: a good link is answered on load, as often as asked, and still sets
    the new password afterwards"""
    for _ in range(3):
        response = _check(api, reset_token)
        assert response.status_code == 200
        assert response.json() == {"success": True}
    assert PasswordResetToken.objects.get(user=user).used_at is None
    assert api.sign_in(user.email, DEFAULT_PASSWORD).status_code == 200

    assert _reset(api, reset_token).status_code == 200
    assert api.sign_in(user.email, NEW_PASSWORD).status_code == 200


def test_reset_link_used_is_rejected_on_load(api, user, reset_token):
    """§8 reset: a used link is refused on load with the reset's invalid-link message"""
    assert _reset(api, reset_token).status_code == 200

    response = _check(api, reset_token)

    assert response.status_code == 422
    assert response.json() == {
        "success": False,
        "error": INVALID_RESET_TOKEN,
        "errors": {"reset_password_token": [INVALID_RESET_TOKEN]},
    }


def test_reset_link_expired_is_rejected_on_load(api, user, outbox):
    """ARCHITECTURE §5: a link past its 6 hours is refused on load; within them it is good"""
    start = timezone.now()
    with freeze_time(start):  # the email's task makes the link: at `start` too
        api.post("users/password", {"user": {"email": user.email}})
        token = outbox.link_token("reset-password", to=user.email)
    with freeze_time(start + timedelta(hours=5, minutes=59)):
        assert _check(api, token).status_code == 200
    with freeze_time(start + timedelta(hours=6, seconds=1)):
        assert _check(api, token).json()["error"] == INVALID_RESET_TOKEN


def test_reset_link_replaced_by_a_newer_one_is_rejected_on_load(api, user, reset_token, outbox):
    """ARCHITECTURE §5: once a newer link set the password, an older one is refused on load"""
    api.post("users/password", {"user": {"email": user.email}})
    newer = outbox.link_token("reset-password", to=user.email)
    assert newer != reset_token
    assert _reset(api, newer).status_code == 200
    assert _check(api, reset_token).status_code == 422


@pytest.mark.parametrize("token", ["", "not-a-real-token", "é" * 200])
def test_reset_link_bad_token_is_rejected_on_load_without_naming_an_account(api, user, token):
    """§8 reset: a bad token is a 422 with the same message whatever it is, naming no account"""
    response = _check(api, token)
    assert response.status_code == 422
    assert response.json()["error"] == INVALID_RESET_TOKEN
    assert user.email not in response.content.decode()


def test_reset_link_with_a_nul_character_is_refused_not_an_error(api):
    """§8 reset: a token with a NUL character is refused as a bad request, never a 500"""
    response = _check(api, "tok\x00en")
    assert response.status_code == 400
    assert response.json()["success"] is False


def test_reset_link_too_long_is_a_422(api):
    """§8 reset: a token past 200 characters is refused by validation, not a server error"""
    response = _check(api, "x" * 201)
    assert response.status_code == 422
    assert response.json()["success"] is False


def test_reset_link_check_without_body_is_a_422(api):
    """§8 reset: a check without a token is the invalid-link answer"""
    response = api.post("users/password/check", {})
    assert response.status_code == 422
    assert response.json()["error"] == INVALID_RESET_TOKEN


def test_reset_link_check_is_rate_limited(api, settings):
    """§7: the check is rate limited per client like the other reset calls (its own count,
    so opening the page spends none of the reset attempts)"""
    settings.RATE_LIMITS = {"password": (3, 60)}
    for _ in range(3):
        assert _check(api, "not-a-real-token").status_code == 422
    assert _check(api, "not-a-real-token").status_code == 429
    assert api.post("users/password", {"user": {"email": "a@example.com"}}).status_code == 200


@pytest.mark.parametrize("call", [_check, _reset], ids=["check-on-load", "reset-submit"])
def test_reset_link_too_long_gets_the_invalid_link_message(api, call):
    """§8 reset submit failure: a link run on past any real token gets the invalid-link message
    the reset page shows, not 'Please use at most 200 characters.' (no field to shorten)"""
    response = call(api, "x" * 201)

    assert response.status_code == 422
    assert response.json()["error"] == INVALID_RESET_TOKEN
    assert response.json()["errors"] == {"reset_password_token": [INVALID_RESET_TOKEN]}
