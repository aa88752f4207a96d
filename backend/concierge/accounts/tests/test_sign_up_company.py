"""Sign-up under a company (spec §2 SignUp, §4 Authentication, §7 Account): the company its link
names, answered on load with only what a stranger may see, and an email that already has an
account answered exactly like a new account that confirms its address first."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.hashers import make_password
from django.core.files.base import ContentFile

from concierge.accounts.hashers import Argon2PasswordHasher
from concierge.accounts.models import Company, User
from concierge.accounts.services import identity
from conftest import ApiClient

pytestmark = pytest.mark.django_db

UNKNOWN_COMPANY = "We couldn't find that company. Please check the sign-up link from your employer."
OTHER_PASSWORD = "someone-elses-pass-31"


def _company(api: ApiClient, slug: str):
    return api.get(f"users/sign_up/companies/{slug}")


@pytest.fixture
def initech(company_factory) -> Company:
    return company_factory(
        slug="initech",
        name="Initech",
        join_policy=Company.JoinPolicy.EMAIL_DOMAIN,
        allowed_email_domains="initech.example",
        requires_mfa=True,
    )


def test_sign_up_page_names_the_company_with_only_its_name_and_logo(api, company, user):
    """§2 sign-up: the company of the link is answered with its name and logo only (no
    members, join policy, domains or second-factor rule), to anyone, signed in or not"""
    company.logo.save("acme.png", ContentFile(b"\x89PNG fake"), save=True)

    response = _company(api, "acme")

    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"name", "logo_url"}
    assert body["name"] == "Acme Corp"
    assert body["logo_url"].startswith("http") and "acme" in body["logo_url"]


def test_sign_up_page_of_a_company_without_logo_has_no_logo_url(api, initech):
    """§2 sign-up: a company without a logo is named, with a null logo; a work-email company
    with MFA tells nothing of either rule"""
    response = _company(api, "initech")

    assert response.status_code == 200
    assert response.json() == {"name": "Initech", "logo_url": None}


def test_sign_up_company_slug_in_any_letter_case(api, company):
    """§1 sign-up: the slug of a link is read in any letter case, as sign-up reads it"""
    assert _company(api, "ACME").json()["name"] == "Acme Corp"


@pytest.mark.parametrize(
    "slug", ["no-such-company", "acme%00", "%20", "a" * 51, "acme.co", "%C3%A9cole"]
)
def test_sign_up_an_unknown_company_slug_is_answered_on_load(api, company, slug):
    """§5 sign-up: an unknown company slug is answered on load with a 404 and sign-up's own
    message for it; a slug no company can have is the same 404, never a server error"""
    response = _company(api, slug)

    assert response.status_code == 404
    assert response.json() == {"success": False, "error": UNKNOWN_COMPANY}


def test_sign_up_a_slug_with_a_slash_is_not_found(api, company):
    """§5 sign-up: a slug with an encoded slash names no company either (404)"""
    assert _company(api, "acme%2Fx").status_code == 404


def test_sign_up_unknown_slug_on_load_and_on_submit_say_the_same(api, company):
    """§8 sign-up: the page's answer for an unknown company reveals nothing the form's own
    answer does not (same message)"""
    on_load = _company(api, "no-such-company").json()["error"]
    on_submit = api.sign_up(company_slug="no-such-company").json()["error"]
    assert on_load == on_submit == UNKNOWN_COMPANY


def test_sign_up_company_is_rate_limited_like_sign_up(api, company, settings):
    """§7 sign-up: the company look-up is rate limited per client, as the public account calls
    are (its own count, so opening the page spends none of the sign-up attempts)"""
    settings.RATE_LIMITS = {"sign_up": (3, 60)}
    for _ in range(3):
        assert _company(api, "acme").status_code == 200
    limited = _company(api, "no-such-company")
    assert limited.status_code == 429
    assert limited.json()["success"] is False
    assert api.sign_up().status_code == 200


def test_sign_up_at_an_open_company_needs_no_email_confirmation(api, company):
    """§4 sign-up: at an open company the answer lets the automatic sign-in follow"""
    response = api.sign_up(email="new@example.com")

    assert response.status_code == 200
    assert api.sign_in("new@example.com").status_code == 200


def test_sign_up_new_work_email_account_is_sent_the_confirmation_link(api, initech, outbox):
    """§4 sign-up: a new account at a work-email company gets sign-up's usual answer (the
    automatic sign-in follows) and is sent the confirmation link"""
    response = api.sign_up(email="ann@initech.example", company_slug="initech")

    assert response.status_code == 200
    assert response.json() == {
        "success": True,
        "data": json.dumps({"email": "ann@initech.example"}),
    }
    assert "/verify-email/" in outbox.emails(to="ann@initech.example")[0].body


def test_sign_up_existing_email_answer_is_identical_to_a_new_accounts(
    api, initech, user_factory, outbox
):
    """§4 sign-up: an email that already has an account gets the very answer (status, shape,
    values) of a new account; the owner is emailed and nothing is created (the page shows
    'Check your email' once the automatic sign-in is refused)"""
    owner = user_factory(email="bob@initech.example", companies=[initech])
    fresh = api.sign_up(email="ann@initech.example", company_slug="initech")
    taken = ApiClient().sign_up(
        email="BOB@initech.example", company_slug="initech", password=OTHER_PASSWORD
    )

    assert taken.status_code == fresh.status_code == 200
    assert taken.headers.get("Content-Type") == fresh.headers.get("Content-Type")
    fresh_body, taken_body = fresh.json(), taken.json()
    assert taken_body.keys() == fresh_body.keys()
    assert taken_body == {**fresh_body, "data": json.dumps({"email": owner.email})}
    assert User.objects.filter(email__iexact=owner.email).count() == 1
    assert "sign up" in outbox.emails(to=owner.email)[0].subject.lower()


def test_sign_up_existing_email_answer_is_identical_at_an_open_company(api, user, outbox):
    """§4 sign-up: at an open company too an existing email's answer is a new account's"""
    fresh = api.sign_up(email="someone.new@example.com")
    taken = ApiClient().sign_up(email=user.email, password=OTHER_PASSWORD)
    assert taken.json() == {**fresh.json(), "data": json.dumps({"email": user.email})}


def test_sign_up_existing_email_takes_as_long_as_a_new_account(
    api, initech, user_factory, settings, monkeypatch
):
    """§4 sign-up: an existing email is answered in about the time of a new account, so timing
    does not tell them apart: each computes one password hash with the production hasher
    (argon2id, tens of milliseconds), beside which the new account's few statements are small.
    Counted rather than timed: the tests' own hasher is MD5, and wall time on a busy machine
    measures the machine."""
    settings.PASSWORD_HASHERS = ["concierge.accounts.hashers.Argon2PasswordHasher"]
    monkeypatch.setattr(identity, "_DUMMY_PASSWORD_HASH", make_password("not-a-real-password"))
    user_factory(email="bob@initech.example", companies=[initech])
    hashed: list[str] = []

    def counted(name: str):
        original = getattr(Argon2PasswordHasher, name)

        def call(self, *args, **kwargs):
            hashed.append(name)
            return original(self, *args, **kwargs)

        return call

    for name in ("encode", "verify"):
        monkeypatch.setattr(Argon2PasswordHasher, name, counted(name))
    for email in ("new@initech.example", "bob@initech.example"):
        hashed.clear()
        assert ApiClient().sign_up(email=email, company_slug="initech").status_code == 200
        assert len(hashed) == 1, (email, hashed)
