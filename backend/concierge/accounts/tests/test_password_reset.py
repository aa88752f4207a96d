"""Password reset: spec §2 ForgotPassword/ResetPassword, §5 'Forgot password'/'Reset password',
§7 POST/PUT users/password, §8, ARCHITECTURE.md §5 (reset links valid 6 hours, single use)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from freezegun import freeze_time

from concierge.accounts.models import PasswordResetToken
from concierge.accounts.password_validation import PASSWORD_IN_USE
from conftest import DEFAULT_PASSWORD, ApiClient

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "brand-new-secret-77"


def _request_reset(api, email: str):
    return api.post("users/password", {"user": {"email": email}})


def _reset(api, token: str, password: str = NEW_PASSWORD, confirmation: str | None = None):
    return api.put(
        "users/password",
        {
            "reset_password_token": token,
            "password": password,
            "password_confirmation": password if confirmation is None else confirmation,
        },
    )


def test_reset_request_emails_a_reset_link(api, user, outbox):
    """§7 POST users/password / ARCHITECTURE §5: the email carries /reset-password/{token}"""
    response = _request_reset(api, user.email)

    assert response.status_code == 200
    assert response.json()["success"] is True
    emails = outbox.emails(to=user.email)
    assert len(emails) == 1
    assert "/reset-password/" in emails[0].body
    token = outbox.link_token("reset-password", to=user.email)
    assert len(token) >= 22


def test_reset_request_for_unknown_email_is_200_and_sends_nothing(api, user, outbox):
    """§2 ForgotPassword: same answer whether or not the email exists; nothing is sent"""
    known = _request_reset(api, user.email)
    outbox_before = len(outbox.all())

    unknown = _request_reset(api, "nobody@example.com")

    assert unknown.status_code == 200
    assert unknown.json() == known.json()
    assert len(outbox.all()) == outbox_before
    assert outbox.emails(to="nobody@example.com") == []


def test_reset_request_email_is_case_insensitive(api, user, outbox):
    """§5 forgot password: the email as typed may differ in case"""
    _request_reset(api, "ADA@EXAMPLE.COM")
    assert len(outbox.emails(to=user.email)) == 1


@pytest.mark.parametrize(
    ("email", "message"),
    [("", "Please enter your email address"), ("bad", "Please enter a valid email address")],
)
def test_reset_request_email_validation(api, email, message, outbox):
    """§5 forgot password: same email rules as sign-in"""
    response = _request_reset(api, email)
    assert response.status_code == 422
    assert response.json()["errors"]["email"] == [message]
    assert outbox.all() == []


def test_reset_token_stored_hashed(api, user, outbox):
    """ARCHITECTURE §5 tokens stored hashed: the emailed token is not in the database"""
    _request_reset(api, user.email)
    token = outbox.link_token("reset-password", to=user.email)
    stored = PasswordResetToken.objects.get(user=user)
    assert stored.token_hash != token
    assert token not in stored.token_hash


def test_reset_mismatched_confirmation(api, user, outbox):
    """§5 reset password: both must match ('Passwords do not match', on the confirmation)"""
    _request_reset(api, user.email)
    token = outbox.link_token("reset-password", to=user.email)

    response = _reset(api, token, NEW_PASSWORD, "something-else-88")

    assert response.status_code == 422
    assert response.json()["errors"]["password_confirmation"] == ["Passwords do not match"]
    # The link is not used up by a failed attempt.
    assert _reset(api, token).status_code == 200


@pytest.mark.parametrize(
    ("password", "confirmation", "field", "message"),
    [
        ("", "", "password", "Please enter a new password"),
        (NEW_PASSWORD, "", "password_confirmation", "Please confirm your new password"),
        ("abc", "abc", "password", "Please enter a valid password"),
        ("a" * 129, "a" * 129, "password_confirmation", "Please enter a valid password"),
    ],
    ids=["password-required", "confirmation-required", "too-short", "too-long"],
)
def test_reset_password_validation(api, user, outbox, password, confirmation, field, message):
    """§5 reset password: required, 6 to 128 characters, confirmation required"""
    _request_reset(api, user.email)
    token = outbox.link_token("reset-password", to=user.email)

    response = _reset(api, token, password, confirmation)

    assert response.status_code == 422
    assert message in response.json()["errors"][field]


def test_reset_changes_the_password(api, user, outbox):
    """§2 ResetPassword success: the new password signs in, the old one no longer does"""
    _request_reset(api, user.email)
    token = outbox.link_token("reset-password", to=user.email)

    response = _reset(api, token)

    assert response.status_code == 200, response.content
    assert response.json()["success"] is True
    assert api.sign_in(user.email, DEFAULT_PASSWORD).status_code == 401
    assert api.sign_in(user.email, NEW_PASSWORD).status_code == 200
    # The address is told, as after a change in the app: how a taken-over account is noticed.
    [notice] = [e for e in outbox.emails(user.email) if e.subject.endswith("password was changed")]
    assert "was changed (reset with a link sent to this address)" in notice.body


def test_reset_refuses_the_password_the_account_has(api, user, outbox):
    """Reset password: 'Pick something you haven't used here before' — the current password
    is refused (and the link still works for a new one)"""
    _request_reset(api, user.email)
    token = outbox.link_token("reset-password", to=user.email)
    same = _reset(api, token, DEFAULT_PASSWORD)
    assert same.status_code == 422, same.content
    assert same.json()["errors"]["password"] == [PASSWORD_IN_USE]
    assert _reset(api, token).status_code == 200


def test_reset_token_is_single_use(api, user, outbox):
    """ARCHITECTURE §5 reset links are single use: a second use is a 422"""
    _request_reset(api, user.email)
    token = outbox.link_token("reset-password", to=user.email)
    assert _reset(api, token).status_code == 200

    again = _reset(api, token, "yet-another-pass-99")

    assert again.status_code == 422
    assert again.json()["success"] is False
    assert "reset_password_token" in again.json()["errors"]
    assert api.sign_in(user.email, NEW_PASSWORD).status_code == 200


def test_reset_token_expires_after_six_hours(api, user, outbox):
    """ARCHITECTURE §5 reset links are valid 6 hours"""
    start = timezone.now()
    with freeze_time(start):  # the email's task makes the link: at `start` too
        _request_reset(api, user.email)
        token = outbox.link_token("reset-password", to=user.email)

    with freeze_time(start + timedelta(hours=6, seconds=1)):
        response = _reset(api, token)

    assert response.status_code == 422
    assert "reset_password_token" in response.json()["errors"]
    assert api.sign_in(user.email, DEFAULT_PASSWORD).status_code == 200


def test_reset_token_still_valid_just_under_six_hours(api, user, outbox):
    """ARCHITECTURE §5 reset links are valid for the whole 6 hours"""
    start = timezone.now()
    with freeze_time(start):
        _request_reset(api, user.email)
        token = outbox.link_token("reset-password", to=user.email)
    with freeze_time(start + timedelta(hours=5, minutes=59)):
        assert _reset(api, token).status_code == 200


@pytest.mark.parametrize("token", ["", "not-a-real-token"])
def test_reset_with_bad_token_is_422(api, user, token):
    """§8 reset submit failure: an unknown token is a 422 with a message"""
    response = _reset(api, token)
    assert response.status_code == 422
    assert response.json()["error"]
    assert api.sign_in(user.email, DEFAULT_PASSWORD).status_code == 200


def test_reset_revokes_existing_sessions(api, user, outbox):
    """ARCHITECTURE §5: a password reset signs out every existing session"""
    session = ApiClient()
    session.sign_in(user.email)
    assert session.get("users/current").status_code == 200

    _request_reset(api, user.email)
    _reset(api, outbox.link_token("reset-password", to=user.email))

    assert session.get("users/current").status_code == 401


def test_reset_also_unlocks_a_locked_account(api, user, outbox):
    """ARCHITECTURE §5 lockout: resetting the password is another way back in"""
    for _ in range(10):
        api.sign_in(user.email, "wrong-password-1")
    _request_reset(api, user.email)
    assert _reset(api, outbox.link_token("reset-password", to=user.email)).status_code == 200
    assert api.sign_in(user.email, NEW_PASSWORD).status_code == 200


def test_reset_token_only_resets_its_own_user(api, user, user_factory, outbox):
    """ARCHITECTURE §4 ownership: a reset link changes only the account it was sent to"""
    other = user_factory(email="other@example.com")
    _request_reset(api, user.email)
    _reset(api, outbox.link_token("reset-password", to=user.email))
    assert api.sign_in(other.email, DEFAULT_PASSWORD).status_code == 200
    assert api.sign_in(other.email, NEW_PASSWORD).status_code == 401
