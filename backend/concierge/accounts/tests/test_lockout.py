"""Lockout and unlock: ARCHITECTURE.md §5 'Lockout', spec §2 /unlock/{unlockToken}, §7
GET users/unlock, §8 'Unlock failure'."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from freezegun import freeze_time

from concierge.accounts.services.identity import INVALID_CREDENTIALS
from concierge.accounts.services.lockout import ACCOUNT_LOCKED
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
    # The attempt that locks is answered for what it was: a wrong password.
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


# --------------------------------------------------------------------------- issue 24

# Headers that may differ between any two requests, whatever they carry.
PER_REQUEST_HEADERS = {"date", "x-request-id"}


def _answer(response) -> tuple[int, bytes, dict[str, str]]:
    headers = {k.lower(): v for k, v in response.headers.items()}
    return (
        response.status_code,
        response.content,
        {k: v for k, v in headers.items() if k not in PER_REQUEST_HEADERS},
    )


def _client_at(make_api, address: str):
    return make_api(Client(REMOTE_ADDR=address))


def test_issue_24_locked_account_answers_right_and_wrong_passwords_byte_identically(api, user):
    """Issue 24 lockout: while locked, the right and a wrong password get byte-identical
    answers (status, body, headers), so the lock is no password oracle"""
    _fail(api, user, 10)

    right = api.sign_in(user.email, DEFAULT_PASSWORD)
    wrong = api.sign_in(user.email, "wrong-password-2")

    assert _answer(right) == _answer(wrong)
    assert right.status_code == 401
    assert right.json() == {"success": False, "error": ACCOUNT_LOCKED}
    assert "authorization" not in _answer(right)[2]


def test_issue_24_guesses_during_the_lock_are_counted(api, user):
    """Issue 24 lockout: attempts on a locked account keep counting, right or wrong password"""
    _fail(api, user, 10)
    _fail(api, user, 4)
    api.sign_in(user.email, DEFAULT_PASSWORD)

    user.refresh_from_db()
    assert user.locked_at is not None
    assert user.failed_sign_in_count == 15


def test_issue_24_unlock_email_is_sent_once_per_lock_whatever_the_client(
    settings, make_api, user, outbox
):
    """Issue 24 lockout: 15 more attempts from 15 client addresses during the lock (rate
    limits on) send no further unlock email"""
    settings.RATE_LIMITS = {"sign_in": (20, 60)}
    _fail(_client_at(make_api, "198.51.100.1"), user, 10)

    answers = []
    for n in range(15):
        client = _client_at(make_api, f"203.0.113.{n + 1}")
        answers.append(client.sign_in(user.email, DEFAULT_PASSWORD if n % 2 else "wrong-pw-3"))

    assert all(_answer(a) == _answer(answers[0]) for a in answers)
    assert answers[0].json()["error"] == ACCOUNT_LOCKED
    assert len(outbox.emails(to=user.email)) == 1


def _admin_error(response) -> str:
    match = re.search(r'<p class="errornote">\s*(.*?)\s*</p>', response.content.decode(), re.S)
    assert match, response.content.decode()
    return match.group(1)


def test_issue_24_admin_sign_in_of_a_locked_account_does_not_tell_the_password(api, user_factory):
    """Issue 24 lockout: Django admin's sign-in, the same service, answers a locked staff
    account the same for the right and a wrong password"""
    staff = user_factory(email="root@example.com", is_staff=True, is_superuser=True)
    _fail(api, staff, 10)

    def log_in(password: str):
        return Client().post(
            "/admin/login/?next=/admin/",
            {"username": staff.email, "password": password, "next": "/admin/"},
        )

    right, wrong = log_in(DEFAULT_PASSWORD), log_in("wrong-password-2")

    assert right.status_code == wrong.status_code == 200
    assert _admin_error(right) == _admin_error(wrong)
    assert "account is locked" in _admin_error(right)
