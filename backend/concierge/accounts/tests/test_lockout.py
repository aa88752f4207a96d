"""Lockout and unlock: ARCHITECTURE.md §5 'Lockout', spec §2 /unlock/{unlockToken}, §7
GET users/unlock, §8 'Unlock failure'."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from freezegun import freeze_time

from concierge.accounts.services import ACCOUNT_LOCKED, INVALID_CREDENTIALS
from conftest import DEFAULT_PASSWORD

pytestmark = pytest.mark.django_db


def _fail(api, user, times: int) -> list:
    return [api.sign_in(user.email, "wrong-password-1") for _ in range(times)]


def test_ten_wrong_passwords_lock_the_account(api, user, outbox):
    """ARCHITECTURE §5 lockout: after 10 failed sign-ins the account locks; the right
    password is then refused with the locked message"""
    responses = _fail(api, user, 9)
    assert all(r.status_code == 401 for r in responses)
    assert all(r.json()["error"] == INVALID_CREDENTIALS for r in responses)
    assert outbox.emails() == []

    tenth = api.sign_in(user.email, "wrong-password-1")
    assert tenth.status_code == 401
    # Hardening 6: a wrong password never reveals that the account exists and is locked.
    assert tenth.json()["error"] == INVALID_CREDENTIALS

    user.refresh_from_db()
    assert user.locked_at is not None

    right = api.sign_in(user.email, DEFAULT_PASSWORD)
    assert right.status_code == 401
    assert right.json() == {"success": False, "error": ACCOUNT_LOCKED}
    assert not right.has_header("Authorization")


def test_nine_wrong_passwords_do_not_lock(api, user):
    """ARCHITECTURE §5 lockout happens after 10 failures, not before"""
    _fail(api, user, 9)
    assert api.sign_in(user.email).status_code == 200


def test_lock_sends_one_unlock_email(api, user, outbox):
    """ARCHITECTURE §5 lockout: an email to the user carries /unlock/{token}"""
    _fail(api, user, 12)

    emails = outbox.emails(to=user.email)
    assert len(emails) == 1
    assert "/unlock/" in emails[0].body
    assert outbox.link_token("unlock", to=user.email)
    assert "unlock" in emails[0].subject.lower()


def test_unlock_link_unlocks_and_sign_in_works(api, user, outbox):
    """§2 UnlockUser / §7 GET users/unlock?unlock_token=: the emailed token unlocks the
    account and sign-in with the right password works again"""
    _fail(api, user, 10)
    token = outbox.link_token("unlock", to=user.email)

    response = api.get("users/unlock", query={"unlock_token": token})

    assert response.status_code == 200, response.content
    assert response.json()["success"] is True
    user.refresh_from_db()
    assert user.locked_at is None
    assert api.sign_in(user.email).status_code == 200


def test_unlock_token_is_single_use(api, user, outbox):
    """ARCHITECTURE §5: the unlock link stops working once used"""
    _fail(api, user, 10)
    token = outbox.link_token("unlock", to=user.email)
    assert api.get("users/unlock", query={"unlock_token": token}).status_code == 200

    again = api.get("users/unlock", query={"unlock_token": token})
    assert again.status_code == 422
    assert again.json()["error"] == "Invalid unlock token."


def test_unlock_token_not_stored_in_clear(api, user, outbox):
    """ARCHITECTURE §5 tokens stored hashed: the unlock token is not kept as given"""
    _fail(api, user, 10)
    token = outbox.link_token("unlock", to=user.email)
    user.refresh_from_db()
    assert user.unlock_token_hash
    assert token not in user.unlock_token_hash


@pytest.mark.parametrize("token", ["bogus-token", "", "x" * 500])
def test_bad_unlock_token_is_422(api, user, outbox, token):
    """§8 unlock failure: a bad token answers 422 with 'Invalid unlock token.'"""
    _fail(api, user, 10)

    response = api.get("users/unlock", query={"unlock_token": token})

    assert response.status_code == 422
    assert response.json()["success"] is False
    assert response.json()["error"] == "Invalid unlock token."
    user.refresh_from_db()
    assert user.locked_at is not None


def test_unlock_without_query_parameter_is_422(api):
    """§8 unlock failure: no token at all is the same clear error"""
    response = api.get("users/unlock")
    assert response.status_code == 422
    assert response.json()["error"] == "Invalid unlock token."


def test_lock_lifts_by_itself_after_one_hour(api, user):
    """ARCHITECTURE §5 lockout: the account unlocks itself after 1 hour"""
    start = timezone.now()
    with freeze_time(start):
        _fail(api, user, 10)
    with freeze_time(start + timedelta(minutes=59)):
        assert api.sign_in(user.email).json()["error"] == ACCOUNT_LOCKED
    with freeze_time(start + timedelta(hours=1, seconds=1)):
        response = api.sign_in(user.email)
    assert response.status_code == 200, response.content
    user.refresh_from_db()
    assert user.locked_at is None
    assert user.failed_sign_in_count == 0


def test_after_auto_unlock_the_old_unlock_link_is_dead(api, user, outbox):
    """ARCHITECTURE §5: once the lock lifted itself, its emailed link no longer applies"""
    start = timezone.now()
    with freeze_time(start):
        _fail(api, user, 10)
    token = outbox.link_token("unlock", to=user.email)
    with freeze_time(start + timedelta(hours=2)):
        assert api.sign_in(user.email).status_code == 200
        assert api.get("users/unlock", query={"unlock_token": token}).status_code == 422


def test_lockout_of_one_user_does_not_affect_another(api, user, user_factory):
    """ARCHITECTURE §5 lockout is per account"""
    other = user_factory(email="other@example.com")
    _fail(api, user, 10)
    assert api.sign_in(other.email).status_code == 200


def test_existing_session_survives_lockout(signed_in_api, user, make_api):
    """ARCHITECTURE §5 lockout guards sign-in; it does not revoke a session already open"""
    attacker = make_api()
    _fail(attacker, user, 10)
    assert signed_in_api.get("users/current").status_code == 200
