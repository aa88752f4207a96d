"""Sign-in, sessions and sign-out: spec §4 Authentication, §5 Sign-in, §7 Account,
ARCHITECTURE.md §5 'Auth'."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import pytest
from django.utils import timezone
from freezegun import freeze_time

from concierge.accounts.models import AuthToken
from conftest import DEFAULT_PASSWORD, ApiClient

pytestmark = pytest.mark.django_db


def test_sign_in_returns_bearer_header_and_future_expiry(api, user):
    """§7 sign-in: header authorization (Bearer, opaque ≥128-bit token); body expires_at in
    the future and both MFA flags false for a user without MFA"""
    credentials = {"email": user.email, "password": DEFAULT_PASSWORD}
    response = api.post("users/sign_in", {"user": credentials})

    assert response.status_code == 200, response.content
    scheme, _, token = response["Authorization"].partition(" ")
    assert scheme == "Bearer"
    # 128 bits in URL-safe base64 is at least 22 characters.
    assert re.fullmatch(r"[A-Za-z0-9_\-]{22,}", token)
    body = response.json()
    assert body["success"] is True
    assert body["mfa_required"] is False
    assert body["mfa_requires_verification"] is False
    expires_at = datetime.fromisoformat(body["expires_at"])
    assert expires_at.tzinfo is not None  # ARCHITECTURE §4: ISO-8601 with offset
    assert expires_at > timezone.now() + timedelta(hours=1)


def test_authorization_header_is_exposed_to_javascript(api, user):
    """ARCHITECTURE §5: the Authorization response header must be readable by the SPA; same
    origin needs nothing, but the header must actually be sent"""
    response = api.sign_in(user.email)
    assert response.has_header("Authorization")


def test_sign_in_email_is_case_insensitive(api, user):
    """§5 sign-in: the email the user typed may differ in case from the one stored"""
    response = api.sign_in("ADA@Example.COM")
    assert response.status_code == 200


def test_each_sign_in_gets_a_distinct_token(api, user):
    """ARCHITECTURE §5 tokens are opaque random: two sign-ins never share a token"""
    first = ApiClient()
    second = ApiClient()
    first.sign_in(user.email)
    second.sign_in(user.email)
    assert first.token != second.token
    assert first.get("users/current").status_code == 200
    assert second.get("users/current").status_code == 200


def test_wrong_password_and_unknown_email_look_identical(api, user):
    """§8 sign-in 401: a wrong password and an unknown email give the same status and body"""
    wrong_password = api.sign_in(user.email, "not-the-password")
    unknown_email = api.sign_in("nobody@example.com", "not-the-password")

    assert wrong_password.status_code == 401
    assert unknown_email.status_code == 401
    assert wrong_password.json() == unknown_email.json()
    assert wrong_password.json()["success"] is False
    assert wrong_password.json()["error"]
    assert not wrong_password.has_header("Authorization")
    assert not AuthToken.objects.exists()


def test_inactive_user_cannot_sign_in(api, user):
    """§4 authentication: a deactivated account is refused like unknown credentials"""
    user.is_active = False
    user.save()
    response = api.sign_in(user.email)
    assert response.status_code == 401
    assert response.json() == api.sign_in("nobody@example.com", "whatever1").json()


@pytest.mark.parametrize(
    ("email", "password", "field", "message"),
    [
        ("", DEFAULT_PASSWORD, "email", "Please enter your email address"),
        ("nope", DEFAULT_PASSWORD, "email", "Please enter a valid email address"),
        ("ada@example.com", "", "password", "Please enter your password"),
        ("ada@example.com", "12345", "password", "Please enter a valid password"),
        ("ada@example.com", "p" * 129, "password", "Please enter a valid password"),
    ],
    ids=["email-required", "email-invalid", "password-required", "password-under-6", "over-128"],
)
def test_sign_in_validation_messages(api, user, email, password, field, message):
    """§5 sign-in validation: email required/valid, password required, 6 to 128 characters"""
    response = api.post("users/sign_in", {"user": {"email": email, "password": password}})

    assert response.status_code == 422
    assert response.json()["errors"][field] == [message]
    assert response.json()["success"] is False


def test_sign_in_malformed_json_is_400(api, user):
    """ARCHITECTURE §4 errors: a body that is not JSON is a 400 in the JSON error shape"""
    response = api.post("users/sign_in", raw='{"user": ')
    assert response.status_code == 400
    assert response.json()["success"] is False


def test_token_is_stored_hashed(api, user):
    """ARCHITECTURE §5 tokens are stored hashed: the raw token appears nowhere in the table"""
    api.sign_in(user.email)

    stored = AuthToken.objects.get(user=user)
    columns = [f.attname for f in AuthToken._meta.concrete_fields]
    values = [str(v) for v in AuthToken.objects.values_list(*columns).get()]
    assert not any(api.token in v for v in values)
    assert stored.key_hash and stored.key_hash != api.token
    assert not AuthToken.objects.filter(key_hash=api.token).exists()


def test_protected_call_without_token_is_401(api, user):
    """§4 any 401 signs the user out: no token means 401 with the JSON error shape"""
    response = api.get("users/current")
    assert response.status_code == 401
    assert response.json()["success"] is False
    assert response.json()["error"]


def test_garbage_token_is_401(api, user):
    """§4 authenticated means a valid token: an invented token is refused"""
    api.token = "x" * 43
    assert api.get("users/current").status_code == 401


def test_sign_out_revokes_the_token(signed_in_api, user):
    """§7 sign-out: the server revokes the session; the same token then gets 401"""
    assert signed_in_api.get("users/current").status_code == 200

    response = signed_in_api.sign_out()

    assert response.status_code == 200
    assert response.json()["success"] is True
    assert AuthToken.objects.get(user=user).revoked_at is not None
    assert signed_in_api.get("users/current").status_code == 401
    assert signed_in_api.sign_out().status_code == 401


def test_sign_out_only_revokes_that_session(signed_in_api, user):
    """ARCHITECTURE §5 revoked on sign-out: other devices stay signed in"""
    other = ApiClient()
    other.sign_in(user.email)

    signed_in_api.sign_out()

    assert other.get("users/current").status_code == 200


def test_sign_out_without_token_is_401(api):
    """§7 sign-out requires a session"""
    assert api.delete("users/sign_out").status_code == 401


def test_expired_token_is_401(signed_in_api, user):
    """§4/ARCHITECTURE §5 tokens expire at expires_at: afterwards protected calls get 401"""
    token = AuthToken.objects.get(user=user)

    with freeze_time(token.expires_at - timedelta(seconds=1)):
        assert signed_in_api.get("users/current").status_code == 200
    with freeze_time(token.expires_at + timedelta(seconds=1)):
        response = signed_in_api.get("users/current")
    assert response.status_code == 401
    assert response.json()["success"] is False


def test_expires_at_in_body_is_the_stored_expiry(api, user):
    """§9 token lifetime comes from the server's expires_at: the body matches the session"""
    response = api.sign_in(user.email)
    token = AuthToken.objects.get(user=user)
    sent = datetime.fromisoformat(response.json()["expires_at"])
    # JSON carries millisecond precision.
    assert abs(sent - token.expires_at) < timedelta(milliseconds=1)


def test_expired_token_in_db_is_401(signed_in_api, user):
    """§4 authenticated means the expiry is in the future (expiry set in the past)"""
    session = AuthToken.objects.get(user=user)
    session.expires_at = timezone.now() - timedelta(minutes=1)
    session.save()
    assert signed_in_api.get("users/current").status_code == 401


def test_successful_sign_in_resets_failed_count(api, user):
    """ARCHITECTURE §5 lockout counts consecutive failures: a success starts the count again"""
    for _ in range(9):
        api.sign_in(user.email, "wrong-password")
    assert api.sign_in(user.email).status_code == 200
    for _ in range(9):
        assert api.sign_in(user.email, "wrong-password").status_code == 401
    assert api.sign_in(user.email).status_code == 200
