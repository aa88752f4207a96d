"""Issue 29 'The account': the employee keeps their account up to date from the Account page:
name, email (confirmed by a link to the new address, the old one told), phone and address (the
onboarding answers, spec §5's rules), password (other sessions signed out) and passkey names;
the desk's Employee panel shows the current values."""

from __future__ import annotations

import re

import pyotp
import pytest

from concierge.accounts.models import MfaFactor, User
from concierge.accounts.onboarding import Answer
from concierge.accounts.password_validation import PASSWORD_IN_USE
from concierge.accounts.services.mfa.fresh_check import FRESH_CHECK_FAILED
from concierge.accounts.services.profile import (
    EMAIL_TAKEN,
    EMAIL_UNCHANGED,
    INVALID_EMAIL_CHANGE,
)
from conftest import DEFAULT_PASSWORD, ApiClient

pytestmark = pytest.mark.django_db

CHANGE_LINK = re.compile(r"/change-email/(\S+)")
NEW_PASSWORD = "a-brand-new-secret"


def _change_token(outbox, to: str) -> str:
    for email in outbox.emails(to=to):
        if match := CHANGE_LINK.search(email.body):
            return match.group(1)
    raise AssertionError(f"no /change-email/ link sent to {to}")


def _reset(token: str):
    return ApiClient().put(
        "users/password",
        {
            "reset_password_token": token,
            "password": "reset-by-someone-else-9",
            "password_confirmation": "reset-by-someone-else-9",
        },
    )


def _errors(response) -> dict[str, list[str]]:
    return response.json().get("errors") or {}


# ----------------------------------------------------------------------------- name


def test_name_change_shows_everywhere_the_user_is_read(signed_in_api, user):
    """Issue 29 account: the name is changed, trimmed, and read back by /users/current"""
    response = signed_in_api.put("users/profile", {"first_name": " Ada ", "last_name": "King"})

    assert response.status_code == 200, response.content
    assert response.json()["full_name"] == "Ada King"
    assert signed_in_api.get("users/current").json()["initials"] == "AK"
    user.refresh_from_db()
    assert (user.first_name, user.last_name) == ("Ada", "King")


@pytest.mark.parametrize(
    ("payload", "field", "message"),
    [
        ({"first_name": "  ", "last_name": "King"}, "first_name", "Please enter your first name"),
        ({"first_name": "Ada"}, "last_name", "Please enter your last name"),
        ({"first_name": "A" * 151, "last_name": "K"}, "first_name", "Please use at most 150"),
        ({"first_name": 7, "last_name": "K"}, None, None),
    ],
)
def test_name_change_refuses_what_sign_up_refuses(signed_in_api, user, payload, field, message):
    """Issue 29 account / §5 sign-up: first and last name required, at most 150 characters; a
    wrong type is a 422, never a 500"""
    response = signed_in_api.put("users/profile", payload)

    assert response.status_code == 422, response.content
    if field:
        assert _errors(response)[field][0].startswith(message)
    user.refresh_from_db()
    assert user.full_name == "Ada Lovelace"


def test_profile_changes_need_a_session():
    """Issue 29 account: every profile endpoint answers 401 to a visitor"""
    visitor = ApiClient()
    assert visitor.put("users/profile", {"first_name": "X", "last_name": "Y"}).status_code == 401
    assert visitor.post("users/email_change", {"email": "x@example.com"}).status_code == 401
    assert visitor.post("users/password/change", {}).status_code == 401
    assert visitor.patch("mfa/factors/1", {"name": "Mine"}).status_code == 401


# ----------------------------------------------------------------------------- email


def test_email_changes_only_once_the_link_to_the_new_address_is_opened(signed_in_api, user, outbox):
    """Issue 29 account: a fresh check, a link to the new address, no change until it is
    opened; then the new address signs in (verified), and the old one is told"""
    asked = signed_in_api.post(
        "users/email_change", {"email": " Ada@New.Example ", "password": DEFAULT_PASSWORD}
    )

    assert asked.status_code == 200, asked.content
    assert asked.json() == {"pending_email": "ada@new.example"}
    user.refresh_from_db()
    assert (user.email, user.pending_email) == ("ada@example.com", "ada@new.example")
    assert signed_in_api.get("users/current").json()["pending_email"] == "ada@new.example"
    token = _change_token(outbox, "ada@new.example")
    assert not outbox.emails(to="ada@example.com")

    confirmed = ApiClient().post("users/email_change/confirm", {"token": token})

    assert confirmed.status_code == 200, confirmed.content
    user.refresh_from_db()
    assert (user.email, user.pending_email) == ("ada@new.example", "")
    assert user.email_verified_at is not None
    [notice] = outbox.emails(to="ada@example.com")
    assert notice.subject.endswith("Your email address was changed")
    assert "ada@new.example" in notice.body
    assert ApiClient().sign_in("ada@new.example").status_code == 200
    assert ApiClient().sign_in("ada@example.com").status_code == 401
    again = ApiClient().post("users/email_change/confirm", {"token": token})
    assert again.status_code == 422
    assert _errors(again)["token"] == [INVALID_EMAIL_CHANGE]


def test_email_change_needs_the_password_and_counts_a_wrong_one(signed_in_api, user, outbox):
    """Issue 29 account: without a fresh proof nothing is sent; a wrong password is a 403 (the
    session stays) and counts towards the lockout"""
    missing = signed_in_api.post("users/email_change", {"email": "ada@new.example"})
    wrong = signed_in_api.post(
        "users/email_change", {"email": "ada@new.example", "password": "not-it"}
    )

    assert missing.status_code == 422
    assert (wrong.status_code, wrong.json()["error"]) == (403, FRESH_CHECK_FAILED)
    user.refresh_from_db()
    assert user.pending_email == "" and user.failed_sign_in_count == 1
    assert not outbox.emails(to="ada@new.example")
    assert signed_in_api.get("users/current").status_code == 200


@pytest.mark.parametrize(
    ("email", "message"),
    [
        ("", "Please enter your email address"),
        ("not-an-email", "Please enter a valid email address"),
        ("ADA@example.com", EMAIL_UNCHANGED),
        (["a@b.c"], None),
    ],
)
def test_email_change_validates_the_new_address(signed_in_api, email, message):
    """Issue 29 account / §5: the new address is required and valid, and not the current one"""
    response = signed_in_api.post(
        "users/email_change", {"email": email, "password": DEFAULT_PASSWORD}
    )
    assert response.status_code == 422, response.content
    if message:
        assert _errors(response)["email"] == [message]


def test_a_work_email_company_keeps_its_domain_rule(api, company_factory, user_factory):
    """Issue 29 account: a member of a work-email company can move only to another work
    address"""
    initech = company_factory(
        slug="initech", join_policy="email_domain", allowed_email_domains="initech.example"
    )
    member = user_factory(email="ann@initech.example", companies=[initech])
    api.sign_in(member.email)

    private = api.post(
        "users/email_change", {"email": "ann@gmail.example", "password": DEFAULT_PASSWORD}
    )
    work = api.post(
        "users/email_change", {"email": "ann.b@initech.example", "password": DEFAULT_PASSWORD}
    )

    assert private.status_code == 422
    assert "work email" in _errors(private)["email"][0]
    assert work.status_code == 200, work.content


def test_only_the_latest_address_asked_for_can_be_confirmed(signed_in_api, user, outbox):
    """Issue 29 account: asking again (or cancelling) makes the earlier link stale"""
    signed_in_api.post(
        "users/email_change", {"email": "one@new.example", "password": DEFAULT_PASSWORD}
    )
    first = _change_token(outbox, "one@new.example")
    signed_in_api.post(
        "users/email_change", {"email": "two@new.example", "password": DEFAULT_PASSWORD}
    )
    second = _change_token(outbox, "two@new.example")

    assert ApiClient().post("users/email_change/confirm", {"token": first}).status_code == 422
    assert signed_in_api.delete("users/email_change").status_code == 200
    assert signed_in_api.get("users/current").json()["pending_email"] is None
    assert ApiClient().post("users/email_change/confirm", {"token": second}).status_code == 422
    user.refresh_from_db()
    assert user.email == "ada@example.com"


def test_a_taken_address_gets_the_same_answer_and_its_owner_is_told(
    signed_in_api, user, user_factory, outbox
):
    """Issue 29 account: the answer does not tell that another account has the address; its
    owner gets a notice, no link, and a link forged earlier cannot take it over"""
    user_factory(email="grace@example.com")
    response = signed_in_api.post(
        "users/email_change", {"email": "grace@example.com", "password": DEFAULT_PASSWORD}
    )

    assert response.status_code == 200
    [notice] = outbox.emails(to="grace@example.com")
    assert "/change-email/" not in notice.body
    assert notice.subject.endswith("Someone asked to use your email address")
    user.refresh_from_db()
    assert user.email == "ada@example.com"


def test_an_address_taken_after_the_link_was_sent_is_refused(
    signed_in_api, user, user_factory, outbox
):
    """Issue 29 account: two accounts never share an address"""
    signed_in_api.post(
        "users/email_change", {"email": "late@example.com", "password": DEFAULT_PASSWORD}
    )
    token = _change_token(outbox, "late@example.com")
    user_factory(email="Late@example.com")

    response = ApiClient().post("users/email_change/confirm", {"token": token})

    assert response.status_code == 422
    assert _errors(response)["token"] == [EMAIL_TAKEN]
    user.refresh_from_db()
    assert user.email == "ada@example.com"


@pytest.mark.parametrize("token", ["", "garbage", "a" * 999, "x:y:z"])
def test_a_bad_email_change_link_is_refused(api, token):
    """Issue 29 account: a bad link is a 422 with the page's message, never a 500"""
    response = api.post("users/email_change/confirm", {"token": token})
    assert response.status_code == 422
    assert _errors(response)["token"] == [INVALID_EMAIL_CHANGE]


# ----------------------------------------------------------------------------- password


def test_password_change_signs_out_every_other_session_and_keeps_this_one(
    signed_in_api, user, outbox
):
    """Issue 29 account: the current password proves it; other devices are signed out at
    their next request, this one stays; the account's address is told"""
    phone = ApiClient()
    phone.sign_in(user.email)
    assert phone.get("users/current").status_code == 200

    response = signed_in_api.post(
        "users/password/change",
        {
            "password": DEFAULT_PASSWORD,
            "new_password": NEW_PASSWORD,
            "new_password_confirmation": NEW_PASSWORD,
        },
    )

    assert response.status_code == 200, response.content
    assert signed_in_api.get("users/current").status_code == 200
    assert phone.get("users/current").status_code == 401
    assert ApiClient().sign_in(user.email, NEW_PASSWORD).status_code == 200
    assert ApiClient().sign_in(user.email, DEFAULT_PASSWORD).status_code == 401
    [notice] = outbox.emails(to=user.email)
    assert notice.subject.endswith("Your password was changed")


def test_password_change_voids_the_reset_links_sent_before(signed_in_api, user, outbox):
    """Issue 29 account: a reset link asked for before the password was changed (by the
    person, or by someone who read their mail) no longer sets a password"""
    assert ApiClient().post("users/password", {"user": {"email": user.email}}).status_code == 200
    token = outbox.link_token("reset-password", to=user.email)

    changed = signed_in_api.post(
        "users/password/change",
        {
            "password": DEFAULT_PASSWORD,
            "new_password": NEW_PASSWORD,
            "new_password_confirmation": NEW_PASSWORD,
        },
    )

    assert changed.status_code == 200, changed.content
    assert _reset(token).status_code == 422
    assert ApiClient().sign_in(user.email, NEW_PASSWORD).status_code == 200


def test_a_new_email_address_voids_the_reset_links_sent_to_the_old_one(signed_in_api, user, outbox):
    """Issue 29 account: once the address is changed, whoever reads the old mailbox (a former
    employer's) cannot set the password with a reset link sent there before"""
    assert ApiClient().post("users/password", {"user": {"email": user.email}}).status_code == 200
    token = outbox.link_token("reset-password", to=user.email)
    asked = signed_in_api.post(
        "users/email_change", {"email": "ada@new.example", "password": DEFAULT_PASSWORD}
    )
    assert asked.status_code == 200, asked.content
    confirmed = ApiClient().post(
        "users/email_change/confirm", {"token": _change_token(outbox, "ada@new.example")}
    )
    assert confirmed.status_code == 200, confirmed.content

    assert _reset(token).status_code == 422
    assert ApiClient().sign_in("ada@new.example", DEFAULT_PASSWORD).status_code == 200


def test_password_change_with_a_wrong_current_password_changes_nothing(signed_in_api, user):
    """Issue 29 account: a wrong current password is a 403 (this session stays), counted, and
    no other session is signed out"""
    phone = ApiClient()
    phone.sign_in(user.email)

    response = signed_in_api.post(
        "users/password/change",
        {
            "password": "wrong",
            "new_password": NEW_PASSWORD,
            "new_password_confirmation": NEW_PASSWORD,
        },
    )

    assert (response.status_code, response.json()["error"]) == (403, FRESH_CHECK_FAILED)
    assert phone.get("users/current").status_code == 200
    assert signed_in_api.get("users/current").status_code == 200
    user.refresh_from_db()
    assert user.check_password(DEFAULT_PASSWORD) and user.failed_sign_in_count == 1


@pytest.mark.parametrize(
    ("new", "confirmation", "field", "message"),
    [
        ("", "", "new_password", "Please enter a new password"),
        ("abc", "abc", "new_password", "Please enter a valid password"),
        ("x" * 129, "x" * 129, "new_password", "Please enter a valid password"),
        (NEW_PASSWORD, "", "new_password_confirmation", "Please confirm your new password"),
        (NEW_PASSWORD, "other-secret", "new_password_confirmation", "Passwords do not match"),
        ("password", "password", "new_password", "This password is too common."),
        (DEFAULT_PASSWORD, DEFAULT_PASSWORD, "new_password", PASSWORD_IN_USE),
    ],
)
def test_password_change_uses_the_reset_rules(
    signed_in_api, user, new, confirmation, field, message
):
    """Issue 29 account / §5 reset password: required, 6 to 128 characters, confirmation
    required and matching; checked before the current password is"""
    response = signed_in_api.post(
        "users/password/change",
        {
            "password": DEFAULT_PASSWORD,
            "new_password": new,
            "new_password_confirmation": confirmation,
        },
    )
    assert response.status_code == 422, response.content
    assert _errors(response)[field][0] == message
    user.refresh_from_db()
    assert user.check_password(DEFAULT_PASSWORD) and user.failed_sign_in_count == 0


# ----------------------------------------------------------------------------- passkey names


def test_a_factor_is_renamed_by_its_owner_only(signed_in_api, user, user_factory):
    """Issue 29 account: passkeys (and apps) can be named; another user's factor, an unknown
    id or an absurd one is a 404, an empty name a 422"""
    start = signed_in_api.post("mfa/totp").json()
    confirm = signed_in_api.post(
        f"mfa/totp/{start['factor_id']}/confirm", {"code": pyotp.TOTP(start["secret"]).now()}
    )
    signed_in_api.mfa_token = confirm["mfa-token"]
    mine = MfaFactor.objects.get(pk=start["factor_id"], user=user)
    other = user_factory(email="eve@example.com")
    theirs = MfaFactor.objects.create(
        user=other, kind="passkey", name="Passkey", confirmed_at=other.date_joined
    )

    renamed = signed_in_api.patch(f"mfa/factors/{mine.pk}", {"name": "  Work laptop "})

    assert renamed.status_code == 200, renamed.content
    assert renamed.json()["name"] == "Work laptop"
    assert signed_in_api.get("mfa/factors").json()["factors"][0]["name"] == "Work laptop"
    assert signed_in_api.patch(f"mfa/factors/{theirs.pk}", {"name": "Mine"}).status_code == 404
    assert signed_in_api.patch("mfa/factors/99999999999999999999", {"name": "X"}).status_code == 404
    assert signed_in_api.patch("mfa/factors/sms", {"name": "X"}).status_code == 404
    empty = signed_in_api.patch(f"mfa/factors/{mine.pk}", {"name": " "})
    assert (empty.status_code, _errors(empty)["name"]) == (422, ["Please enter a name"])
    theirs.refresh_from_db()
    assert theirs.name == "Passkey"


# ----------------------------------------------------------------------------- desk


def test_the_desk_employee_panel_shows_the_current_details(
    signed_in_api, user, make_request, concierge_api, outbox
):
    """Issue 29 account: after the employee changes name, email, phone and address, the desk's
    Employee panel of an earlier request shows the new values"""
    service_request = make_request(user)
    signed_in_api.put("users/profile", {"first_name": "Ada", "last_name": "King"})
    signed_in_api.post(
        "users/email_change", {"email": "ada@new.example", "password": DEFAULT_PASSWORD}
    )
    ApiClient().post(
        "users/email_change/confirm", {"token": _change_token(outbox, "ada@new.example")}
    )
    saved = signed_in_api.post(
        "users/onboarding",
        {
            "answers": [
                {"answer_id": Answer.PHONE, "value": "5550102030"},
                {"answer_id": Answer.ADDRESS_LINE_1, "value": "2 New St"},
                {"answer_id": Answer.CITY, "value": "Austin"},
                {"answer_id": Answer.STATE, "value": "TX"},
                {"answer_id": Answer.POSTAL_CODE, "value": "73301"},
                {"answer_id": Answer.COUNTRY, "value": "USA"},
            ]
        },
    )
    assert saved.status_code == 200, saved.content

    detail = concierge_api.get(f"concierge/requests/{service_request.pk}").json()
    employee = detail["request"]["employee"]

    assert employee["full_name"] == "Ada King"
    assert employee["email"] == "ada@new.example"
    assert employee["phone"] == "(555) 010-2030"
    assert employee["address"] == "2 New St, Austin, TX, 73301, USA"
    assert User.objects.get(pk=user.pk).email == "ada@new.example"
