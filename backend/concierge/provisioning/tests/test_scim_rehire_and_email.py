"""Issue 26 SCIM 'Provisioning and offboarding': what an identity provider does after a
leaver and when a person's address changes.

- DELETE, then the provider creates the same person again (same userName, or same
  externalId under a new userName): the deleted id stays 404 (RFC 7644 §3.6) until the new
  create, which answers 201 and gives access back (sign-in, starting a request).
- A userName change (PUT or PATCH) moves the account to the new address when the account is
  this company's alone and the address is free; otherwise it is refused with a SCIM error
  that says why, and nothing changes for the account or any other company."""

from __future__ import annotations

import pytest

from concierge.accounts.models import EmployeeRecord, User
from concierge.provisioning.tests.conftest import ScimClient, new_user
from concierge.provisioning.tests.test_scim import assert_scim_error
from concierge.surveys.models import Question, RequestSurvey, SurveyCategory

pytestmark = pytest.mark.django_db

ACTIVE_FALSE = {"Operations": [{"op": "replace", "path": "active", "value": False}]}
ACTIVE_TRUE = {"Operations": [{"op": "replace", "path": "active", "value": True}]}


@pytest.fixture
def survey() -> RequestSurvey:
    """A request an employee can start."""
    category = SurveyCategory.objects.create(name="Pet", icon="pet")
    survey = RequestSurvey.objects.create(
        name="Find a dog walker", slug="walker", category=category
    )
    Question.objects.create(
        survey=survey, position=1, label="When?", input_type=Question.InputType.TEXT
    )
    return survey


def starts_a_request(api, survey: RequestSurvey) -> int:
    return api.post(
        f"request_surveys/{survey.pk}/user_request_surveys", {"for_alpha": True}
    ).status_code


def rename(scim: ScimClient, scim_id: str, email: str):
    return scim.patch(
        f"Users/{scim_id}",
        {"Operations": [{"op": "Replace", "path": "userName", "value": email}]},
    )


# ----------------------------------------------------------------------- delete, create again


def test_a_deleted_person_created_again_gets_access_back(scim, company, user, make_api, survey):
    """Issue 26 SCIM: after DELETE the id answers 404 to every method and the person can
    neither sign in nor start requests; the provider's lookup finds nobody and its create with
    the same userName and externalId answers 201: the person signs in and starts a request."""
    body = {"userName": user.email, "externalId": "00u-ada", "name": {"givenName": "Ada"}}
    scim_id = new_user(scim, user.email, externalId="00u-ada", name={"givenName": "Ada"})["id"]
    api = make_api()
    assert api.sign_in(user.email).status_code == 200
    assert starts_a_request(api, survey) == 200

    assert scim.delete(f"Users/{scim_id}").status_code == 204
    path = f"Users/{scim_id}"
    assert_scim_error(scim.get(path), 404)
    assert_scim_error(scim.put(path, body), 404)
    assert_scim_error(scim.patch(path, ACTIVE_TRUE), 404)
    assert_scim_error(scim.delete(path), 404)
    for lookup in (f'userName eq "{user.email}"', 'externalId eq "00u-ada"'):
        assert scim.get("Users", query={"filter": lookup}).json()["totalResults"] == 0
    assert starts_a_request(api, survey) == 401
    assert make_api().sign_in(user.email).status_code == 403

    again = scim.post("Users", body)
    assert again.status_code == 201, again.content
    assert again.json()["active"] is True and again.json()["externalId"] == "00u-ada"
    assert scim.get(f"Users/{again.json()['id']}").status_code == 200
    assert user.companies.filter(pk=company.pk).exists()
    back = make_api()
    assert back.sign_in(user.email).status_code == 200
    assert starts_a_request(back, survey) == 200


def test_a_deleted_person_created_again_under_a_new_address_is_the_same_person(
    scim, company, user, make_api, survey
):
    """Issue 26 SCIM: the provider creates again the person it deleted, with the same
    externalId and a new userName: the same record comes back, the account follows the new
    address, and the person signs in with it and starts a request."""
    scim_id = new_user(scim, user.email, externalId="00u-ada")["id"]
    assert scim.delete(f"Users/{scim_id}").status_code == 204

    again = scim.post("Users", {"userName": "ada.king@example.com", "externalId": "00u-ada"})
    assert again.status_code == 201, again.content
    assert again.json()["id"] == scim_id and again.json()["userName"] == "ada.king@example.com"
    user.refresh_from_db()
    assert user.email == "ada.king@example.com"
    assert user.companies.filter(pk=company.pk).exists()
    api = make_api()
    assert api.sign_in("ada.king@example.com").status_code == 200
    assert starts_a_request(api, survey) == 200


def test_reactivation_after_deactivation_lets_the_person_start_requests(
    scim, company, user, make_api, survey
):
    """Issue 26 SCIM: PATCH active false then true: access is back (sign-in and a request)."""
    scim_id = new_user(scim, user.email)["id"]
    assert scim.patch(f"Users/{scim_id}", ACTIVE_FALSE).json()["active"] is False
    assert make_api().sign_in(user.email).status_code == 403
    assert scim.patch(f"Users/{scim_id}", ACTIVE_TRUE).json()["active"] is True
    api = make_api()
    assert api.sign_in(user.email).status_code == 200
    assert starts_a_request(api, survey) == 200


# ----------------------------------------------------------------------------- address change


@pytest.fixture
def acme_domains(company):
    company.allowed_email_domains = "example.com"
    company.save()
    return company


@pytest.mark.parametrize("method", ["PUT", "PATCH"])
def test_a_new_user_name_moves_the_account_when_it_is_this_companys_alone(
    scim, acme_domains, user, make_api, outbox, method
):
    """Issue 26 SCIM: the provider renames the person (Okta's PUT, Entra's PATCH): the record
    and the account take the new address, the old address is told, the person signs in with
    the new one and the provider finds them by it."""
    scim_id = new_user(scim, user.email, name={"givenName": "Ada", "familyName": "Lovelace"})["id"]
    if method == "PUT":
        body = {
            "userName": "Ada.King@example.com",
            "name": {"givenName": "Ada", "familyName": "King"},
        }
        response = scim.put(f"Users/{scim_id}", body)
    else:
        response = rename(scim, scim_id, "Ada.King@example.com")
    assert response.status_code == 200, response.content
    assert response.json()["userName"] == "ada.king@example.com"
    user.refresh_from_db()
    assert user.email == "ada.king@example.com" and user.pending_email == ""
    assert EmployeeRecord.objects.get(pk=int(scim_id)).email == "ada.king@example.com"
    [notice] = outbox.emails(to="ada@example.com")
    assert notice.subject.endswith("Your email address was changed")
    assert "by Acme Corp's staff directory from ada@example.com to ada.king@" in notice.body
    assert make_api().sign_in("ada.king@example.com").status_code == 200
    assert make_api().sign_in("ada@example.com").status_code == 401
    found = scim.get("Users", query={"filter": 'userName eq "ada.king@example.com"'}).json()
    assert [r["id"] for r in found["Resources"]] == [scim_id]


def test_a_new_user_name_is_refused_for_a_person_of_another_company_too(
    scim, globex_scim, acme_domains, globex, user
):
    """Issue 26 SCIM: the account also belongs to Globex: Acme's rename is a 400 that says
    why; the account, Acme's record and Globex's record keep the address."""
    user.companies.add(globex)
    acme_id = new_user(scim, user.email)["id"]
    globex_id = new_user(globex_scim, user.email)["id"]
    for response in (
        rename(scim, acme_id, "ada.king@example.com"),
        scim.put(f"Users/{acme_id}", {"userName": "ada.king@example.com"}),
    ):
        body = assert_scim_error(response, 400, "mutability")
        assert "another company" in body["detail"]
    user.refresh_from_db()
    assert user.email == "ada@example.com"
    assert scim.get(f"Users/{acme_id}").json()["userName"] == "ada@example.com"
    assert globex_scim.get(f"Users/{globex_id}").json()["userName"] == "ada@example.com"
    assert set(user.companies.values_list("slug", flat=True)) == {"acme", "globex"}


def test_a_new_user_name_is_refused_once_another_company_has_had_the_person(
    scim, acme_domains, globex, user
):
    """Issue 26 SCIM: Globex ended the person's membership but keeps its record of them (its
    report): Acme's rename is still refused."""
    from concierge.accounts.services.memberships import member_deactivate, membership_join

    member_deactivate(record=membership_join(user=user, company=globex, source="scim"))
    acme_id = new_user(scim, user.email)["id"]
    assert_scim_error(rename(scim, acme_id, "ada.king@example.com"), 400, "mutability")
    user.refresh_from_db()
    assert user.email == "ada@example.com"


def test_a_new_user_name_that_another_account_has_is_a_409(scim, acme_domains, user, user_factory):
    """Issue 26 SCIM: the new address is another account's: 409 uniqueness saying so, and
    neither account nor the record changes."""
    other = user_factory(email="grace@example.com", companies=[])
    acme_id = new_user(scim, user.email)["id"]
    body = assert_scim_error(rename(scim, acme_id, "GRACE@example.com"), 409, "uniqueness")
    assert "another account" in body["detail"]
    user.refresh_from_db()
    other.refresh_from_db()
    assert (user.email, other.email) == ("ada@example.com", "grace@example.com")
    assert scim.get(f"Users/{acme_id}").json()["userName"] == "ada@example.com"


def test_a_new_user_name_outside_the_company_domains_is_refused(scim, acme_domains, user):
    """Issue 26 SCIM: the account is not moved to an address outside the company's own
    domains (400 naming them)."""
    acme_id = new_user(scim, user.email)["id"]
    body = assert_scim_error(rename(scim, acme_id, "ada@gmail.test"), 400, "invalidValue")
    assert "@example.com" in body["detail"]
    user.refresh_from_db()
    assert user.email == "ada@example.com"


def test_a_new_user_name_of_someone_without_an_account_changes_the_record_only(scim):
    """Issue 26 SCIM: a person who has not joined yet: only the record's address changes."""
    scim_id = new_user(scim, "waiting@example.com")["id"]
    response = rename(scim, scim_id, "waiting.too@example.com")
    assert response.status_code == 200 and response.json()["userName"] == "waiting.too@example.com"
    assert not User.objects.filter(email__startswith="waiting").exists()


def test_a_new_user_name_of_a_staff_account_is_refused(scim, company, user_factory):
    """Issue 26 SCIM: a concierge who is also on the employer's list keeps their address."""
    desk = user_factory(email="casey@example.com", groups=["Concierges"], companies=[company])
    scim_id = new_user(scim, desk.email)["id"]
    assert_scim_error(rename(scim, scim_id, "casey.j@example.com"), 400, "mutability")
    desk.refresh_from_db()
    assert desk.email == "casey@example.com"
