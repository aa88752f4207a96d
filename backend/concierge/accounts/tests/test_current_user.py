"""GET users/current: spec §3 'User', §6 internal flag, §7 Account, ARCHITECTURE.md §6 roles."""

from __future__ import annotations

import pytest
from django.core.files.base import ContentFile

from conftest import ApiClient, CompanyFactory, UserFactory

pytestmark = pytest.mark.django_db


def _current(user) -> dict:
    api = ApiClient()
    assert api.sign_in(user.email).status_code == 200
    response = api.get("users/current")
    assert response.status_code == 200, response.content
    return response.json()


def test_current_user_fields(signed_in_api, user, company):
    """§3 User: external_id, initials, full_name, first_name, email, request_count,
    companies (id, name, image_url)"""
    user.request_count = 3
    user.save()

    body = signed_in_api.get("users/current").json()

    assert body["external_id"] == str(user.external_id)
    assert body["initials"] == "AL"
    assert body["full_name"] == "Ada Lovelace"
    assert body["first_name"] == "Ada"
    assert body["email"] == "ada@example.com"
    assert body["request_count"] == 3
    assert body["companies"] == [{"id": company.id, "name": "Acme Corp", "image_url": None}]
    assert body["is_internal"] is False
    assert body["is_concierge"] is False
    assert body["onboarding_required"] is True
    assert "password" not in body


def test_current_user_does_not_expose_the_database_id(signed_in_api, user):
    """§3 User is identified by external_id: the numeric primary key is not part of the user"""
    body = signed_in_api.get("users/current").json()
    assert "id" not in body
    assert "pk" not in body


@pytest.mark.parametrize(
    ("first", "last", "initials", "full_name"),
    [
        ("Ada", "Lovelace", "AL", "Ada Lovelace"),
        ("Cher", "", "C", "Cher"),
        ("mary ann", "van der berg", "MB", "mary ann van der berg"),
        ("Jean-Luc", "Picard", "JP", "Jean-Luc Picard"),
    ],
    ids=["two-words", "single-word", "many-words", "hyphenated"],
)
def test_initials_rule(first, last, initials, full_name):
    """§3 initials: first letter of the first word plus first letter of the last word; one
    letter for a single word"""
    user = UserFactory(first_name=first, last_name=last)
    body = _current(user)
    assert body["initials"] == initials
    assert body["full_name"] == full_name
    assert body["first_name"] == first


def test_companies_listed_with_logo_url(user, company):
    """§1/§3 'Brought to you by': each sponsoring company with id, name and image_url"""
    other = CompanyFactory(name="Beta Inc", slug="beta")
    other.logo.save("beta.png", ContentFile(b"\x89PNG fake"), save=True)
    user.companies.add(other)

    companies = _current(user)["companies"]

    by_name = {c["name"]: c for c in companies}
    assert set(by_name) == {"Acme Corp", "Beta Inc"}
    assert by_name["Acme Corp"]["image_url"] is None
    assert by_name["Beta Inc"]["image_url"].startswith("http")
    assert "beta" in by_name["Beta Inc"]["image_url"]
    assert by_name["Beta Inc"]["id"] == other.id


def test_is_internal_only_for_internal_company_names(settings, user):
    """§1/§6 internal user flag: true when any company bears an internal company name"""
    settings.INTERNAL_COMPANY_NAMES = ["Concierge HQ", "Concierge Labs"]
    assert _current(user)["is_internal"] is False

    user.companies.add(CompanyFactory(name="Concierge Labs", slug="labs"))
    assert _current(user)["is_internal"] is True


def test_company_name_merely_similar_is_not_internal(settings):
    """§6 internal flag is by exact company name, not a partial match"""
    settings.INTERNAL_COMPANY_NAMES = ["Concierge HQ", "Concierge Labs"]
    user = UserFactory(companies=[CompanyFactory(name="Concierge HQ West", slug="hq-west")])
    assert _current(user)["is_internal"] is False


def test_is_concierge_for_concierges_group():
    """ARCHITECTURE §6 roles: a concierge is a member of the staff group 'Concierges'"""
    employee = UserFactory()
    concierge = UserFactory(groups=["Concierges"])
    other_group = UserFactory(groups=["Editors"])

    assert _current(employee)["is_concierge"] is False
    assert _current(concierge)["is_concierge"] is True
    assert _current(other_group)["is_concierge"] is False


def test_onboarding_required_until_answers_saved(signed_in_api):
    """§2 onboarding steps after sign-up: required until the user has saved onboarding answers"""
    assert signed_in_api.get("users/current").json()["onboarding_required"] is True

    answers = [{"answer_id": 132, "value": True}]
    response = signed_in_api.post("users/onboarding", {"answers": answers})
    assert response.status_code == 200

    assert signed_in_api.get("users/current").json()["onboarding_required"] is False


def test_current_user_query_count_is_fixed(signed_in_api, user, django_assert_max_num_queries):
    """ARCHITECTURE §4: a fixed number of SQL queries whatever the number of companies"""
    for i in range(5):
        user.companies.add(CompanyFactory(name=f"Extra {i}", slug=f"extra-{i}"))
    with django_assert_max_num_queries(6):
        response = signed_in_api.get("users/current")
    assert len(response.json()["companies"]) == 6
