"""Sign-up: spec §3 'Sign-up payload', §5 'Sign-up', §7 Account, ARCHITECTURE.md §5."""

from __future__ import annotations

import json

import pytest

from concierge.accounts.models import User
from conftest import DEFAULT_PASSWORD, ApiClient

pytestmark = pytest.mark.django_db
OTHER_PASSWORD = "someone-elses-pass-31"


def test_sign_up_creates_user_in_company_and_returns_email_in_data(api, company):
    """§3/§7 sign-up: the user is stored as a member of the company; data is a JSON string
    carrying the email"""
    response = api.sign_up(
        email="Grace.Hopper@Example.com", name="Grace", last_name="Hopper", company_slug="acme"
    )

    assert response.status_code == 200, response.content
    body = response.json()
    assert body["success"] is True
    assert isinstance(body["data"], str)
    assert json.loads(body["data"])["email"] == "grace.hopper@example.com"

    user = User.objects.get(email="grace.hopper@example.com")
    assert user.first_name == "Grace"
    assert user.last_name == "Hopper"
    assert list(user.companies.all()) == [company]
    assert user.check_password(DEFAULT_PASSWORD)
    assert DEFAULT_PASSWORD not in user.password


def test_sign_up_then_sign_in_works(api, company):
    """§4 sign-up is followed by an automatic sign-in, which must succeed"""
    assert api.sign_up(email="new@example.com").status_code == 200

    response = api.sign_in("new@example.com")

    assert response.status_code == 200
    assert response.json()["mfa_required"] is False
    assert response.json()["mfa_requires_verification"] is False
    current = api.get("users/current")
    assert current.status_code == 200
    assert current.json()["email"] == "new@example.com"
    assert current.json()["onboarding_required"] is True


def test_sign_up_company_slug_is_case_insensitive(api, company):
    """§1 visitors sign up under a company identified by its slug (slug from a link may vary
    in case)"""
    response = api.sign_up(company_slug="ACME")
    assert response.status_code == 200
    assert User.objects.get(email="new.person@example.com").companies.get() == company


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("name", "", "Please enter your first name"),
        ("name", "   ", "Please enter your first name"),
        ("last_name", "", "Please enter your last name"),
        ("email", "", "Please enter your email address"),
        ("email", "not-an-email", "Please enter a valid email address"),
        ("email", "someone@", "Please enter a valid email address"),
        ("password", "", "Please enter your password"),
        ("password", "abc12", "Please enter a valid password"),
        ("password", "x" * 129, "Please enter a valid password"),
    ],
    ids=[
        "first-name-required",
        "first-name-blank",
        "last-name-required",
        "email-required",
        "email-invalid",
        "email-incomplete",
        "password-required",
        "password-under-6",
        "password-over-128",
    ],
)
def test_sign_up_validation_messages(api, company, field, value, message):
    """§5 sign-up validation: each rule answers 422 with the spec's message on its field"""
    response = api.sign_up(**{field: value})

    assert response.status_code == 422
    body = response.json()
    assert body["success"] is False
    assert body["error"] == message
    assert body["errors"][field] == [message]
    assert not User.objects.exists()


# A valid address (Django's check allows 320 characters) longer than the 254 the user table holds.
EMAIL_OVER_254 = (
    "a" * 64 + "@" + "b" * 60 + "." + "c" * 60 + "." + "d" * 60 + "." + "e" * 60 + ".com"
)


def test_sign_up_email_too_long_for_an_account_is_a_422_not_a_500(api, company):
    """§5 sign-up: an email longer than an account can hold is 'Please enter a valid email
    address' on its field, never a server error"""
    assert len(EMAIL_OVER_254) > 254

    response = api.sign_up(email=EMAIL_OVER_254)

    assert response.status_code == 422
    assert response.json()["errors"]["email"] == ["Please enter a valid email address"]
    assert not User.objects.exists()


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("users/sign_in", {"user": {"email": EMAIL_OVER_254, "password": DEFAULT_PASSWORD}}),
        ("users/password", {"user": {"email": EMAIL_OVER_254}}),
    ],
    ids=["sign-in", "forgot-password"],
)
def test_sign_in_and_forgot_password_share_the_email_length_rule(api, company, path, body):
    """§5 sign-in and forgot password: the same email rules as sign-up"""
    response = api.post(path, body)

    assert response.status_code == 422
    assert response.json()["errors"]["email"] == ["Please enter a valid email address"]


def test_sign_up_missing_fields_all_reported(api, company):
    """§5 sign-up: every missing field is reported at once, each with its own message"""
    response = api.post("users/sign_up", {"user": {"company_slug": "acme"}})

    assert response.status_code == 422
    errors = response.json()["errors"]
    assert errors["name"] == ["Please enter your first name"]
    assert errors["last_name"] == ["Please enter your last name"]
    assert errors["email"] == ["Please enter your email address"]
    assert errors["password"] == ["Please enter your password"]


def test_sign_up_password_of_128_characters_is_accepted(api, company):
    """§9 password length 6 to 128: the upper bound itself is allowed"""
    response = api.sign_up(password="Zq9!" * 32)
    assert response.status_code == 200, response.content


@pytest.mark.parametrize("terms", [0, 2])
def test_sign_up_terms_of_service_must_be_1(api, company, terms):
    """§3/ARCHITECTURE §5 sign-up: terms_of_service must be 1"""
    response = api.sign_up(terms_of_service=terms)

    assert response.status_code == 422
    assert "terms_of_service" in response.json()["errors"]
    assert not User.objects.exists()


def test_sign_up_terms_of_service_defaults_to_1(api, company):
    """§9 terms_of_service default 1: omitting it still signs up"""
    response = api.post(
        "users/sign_up",
        {
            "user": {
                "email": "x@example.com",
                "password": DEFAULT_PASSWORD,
                "name": "X",
                "last_name": "Y",
                "company_slug": "acme",
            }
        },
    )
    assert response.status_code == 200, response.content


def test_sign_up_unknown_company_slug_is_clear_422(api, company):
    """ARCHITECTURE §5 sign-up: unknown slug is a clear 422, not a server error"""
    response = api.sign_up(company_slug="no-such-company")

    assert response.status_code == 422
    body = response.json()
    assert body["success"] is False
    assert "company" in body["error"].lower()
    assert "company_slug" in body["errors"]
    assert not User.objects.exists()


def test_sign_up_missing_company_slug_is_422(api, company):
    """ARCHITECTURE §5 sign-up happens under a company slug; none given is a 422"""
    response = api.sign_up(company_slug="")
    assert response.status_code == 422
    assert "company_slug" in response.json()["errors"]


def test_hardening_6_sign_up_with_a_taken_email_answers_like_a_success(api, user, outbox):
    """Hardening 6: sign-up with an email that has an account (in any letter case) answers
    exactly like a new account, creates nothing and emails the owner instead"""
    fresh = api.sign_up(email="someone.new@example.com")
    outbox_before = len(outbox.emails())
    taken = api.sign_up(email=user.email.upper(), password=OTHER_PASSWORD)

    assert taken.status_code == fresh.status_code == 200
    assert taken.json().keys() == fresh.json().keys()
    assert json.loads(taken.json()["data"]) == {"email": user.email}
    assert User.objects.filter(email__iexact=user.email).count() == 1
    emails = outbox.emails(to=user.email)
    assert len(outbox.emails()) == outbox_before + 1 and len(emails) == 1
    assert "sign up" in emails[0].subject.lower()
    assert "/forgot-password" in emails[0].body
    assert OTHER_PASSWORD not in emails[0].body
    # The owner's password still works; the one typed at sign-up changed nothing.
    assert ApiClient().sign_in(user.email).status_code == 200
    assert ApiClient().sign_in(user.email, OTHER_PASSWORD).status_code == 401


def test_sign_up_common_password_is_refused(api, company):
    """ARCHITECTURE §2 Django's password validators: a common password is refused with 422"""
    response = api.sign_up(password="password")

    assert response.status_code == 422
    assert "password" in response.json()["errors"]


def test_sign_up_malformed_json_is_400(api, company):
    """ARCHITECTURE §4 errors: a body that is not JSON gets a 400 with the JSON error shape"""
    response = api.post("users/sign_up", raw="{not json")

    assert response.status_code == 400
    body = response.json()
    assert body["success"] is False
    assert body["error"]


def test_sign_up_without_user_object_is_422(api, company):
    """ARCHITECTURE §4 errors: a JSON body without the `user` object is a validation error"""
    response = api.post("users/sign_up", {"email": "x@example.com"})

    assert response.status_code == 422
    assert response.json()["success"] is False
