"""Issue 26 SCIM 2.0 provisioning (/scim/v2, RFC 7643/7644): one company per bearer token,
Users created, listed, filtered, read, replaced, patched and deleted as the company's
EmployeeRecords; deactivation ends the membership at once; proper SCIM errors."""

from __future__ import annotations

import pytest

from concierge.accounts.models import EmployeeRecord
from concierge.provisioning.models import ScimToken
from concierge.provisioning.services.tokens import scim_token_revoke, scim_token_rotate
from concierge.provisioning.tests.conftest import SCIM_TYPE, ScimClient, new_user

pytestmark = pytest.mark.django_db

CORE = "urn:ietf:params:scim:schemas:core:2.0:User"
ENTERPRISE = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"
ERROR = "urn:ietf:params:scim:api:messages:2.0:Error"


def assert_scim_error(response, status: int, scim_type: str | None = None) -> dict:
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith(SCIM_TYPE)
    body = response.json()
    assert body["schemas"] == [ERROR]
    assert body["status"] == str(status)
    assert body["detail"]
    if scim_type:
        assert body["scimType"] == scim_type
    return body


def test_requests_without_a_valid_token_are_refused(company, scim_token):
    """Issue 26 SCIM: no token, a wrong one, a session token, a revoked one: 401, SCIM body."""
    for token in (None, "nope", "scim_" + "x" * 43):
        response = ScimClient(token).get("Users")
        assert_scim_error(response, 401)
        assert response["WWW-Authenticate"].startswith("Bearer")
    assert ScimClient(scim_token).get("Users").status_code == 200
    scim_token_revoke(company=company)
    assert_scim_error(ScimClient(scim_token).get("Users"), 401)


def test_rotating_the_token_stops_the_old_one_and_only_its_hash_is_stored(company, scim_token):
    """Issue 26 SCIM: the token is stored hashed; rotating replaces it at once."""
    row = ScimToken.objects.get(company=company)
    assert scim_token not in row.token_hash and len(row.token_hash) == 64
    new, _ = scim_token_rotate(company=company, created_by=None)
    assert_scim_error(ScimClient(scim_token).get("Users"), 401)
    assert ScimClient(new).get("Users").status_code == 200


def test_discovery_endpoints_describe_users_only(scim):
    """Issue 26 SCIM: ServiceProviderConfig, ResourceTypes (User only: no Groups), Schemas."""
    spc = scim.get("ServiceProviderConfig")
    assert spc.status_code == 200 and spc["Content-Type"].startswith(SCIM_TYPE)
    assert spc.json()["patch"]["supported"] is True
    assert spc.json()["bulk"]["supported"] is False
    types = scim.get("ResourceTypes").json()
    assert [t["name"] for t in types["Resources"]] == ["User"]
    assert scim.get("ResourceTypes/User").json()["schema"] == CORE
    assert_scim_error(scim.get("ResourceTypes/Group"), 404)
    ids = [s["id"] for s in scim.get("Schemas").json()["Resources"]]
    assert CORE in ids and ENTERPRISE in ids
    assert scim.get(f"Schemas/{CORE}").json()["name"] == "User"
    assert_scim_error(scim.get("Groups"), 404)


def test_create_waits_for_the_person_then_sign_up_links_it(scim, company, api):
    """Issue 26 SCIM: a created user with no account is a record waiting for the person;
    their sign-up links it and makes them a member."""
    created = new_user(
        scim, "Grace@Example.com", name={"givenName": "Grace", "familyName": "Hopper"}
    )
    assert created["userName"] == "grace@example.com"
    assert created["active"] is True
    assert created["emails"] == [{"value": "grace@example.com", "type": "work", "primary": True}]
    record = EmployeeRecord.objects.get(pk=int(created["id"]))
    assert record.company == company and record.user is None
    assert record.source == EmployeeRecord.Source.SCIM
    assert api.sign_up(email="grace@example.com").status_code == 200
    record.refresh_from_db()
    assert record.user is not None and record.user.companies.filter(pk=company.pk).exists()


def test_create_links_an_existing_account_at_the_company_domain(
    scim, company, user_factory, globex
):
    """Issue 26 SCIM: creating a user whose account exists at the company's own domain links
    it and adds the membership; their other company's membership stays."""
    company.allowed_email_domains = "acme.example"
    company.save()
    ana = user_factory(email="ana@acme.example", companies=[globex])
    created = new_user(scim, "ANA@acme.example")
    record = EmployeeRecord.objects.get(pk=int(created["id"]))
    assert record.user == ana
    assert set(ana.companies.values_list("slug", flat=True)) == {"acme", "globex"}


def test_create_never_pulls_in_another_companys_account(scim, company, bob):
    """Issue 26 SCIM (security): Acme's provider naming Bob, of Globex, at an address outside
    Acme's domains records him as not joined yet: his account is neither linked nor made a
    member of Acme, so Acme sees nothing of it."""
    created = new_user(scim, "BOB@globex.example")
    record = EmployeeRecord.objects.get(pk=int(created["id"]))
    assert record.user is None
    assert list(bob.companies.values_list("slug", flat=True)) == ["globex"]


def test_create_inactive_does_not_join(scim, company, bob):
    """Issue 26 SCIM: a user created with active false is recorded but gets no access."""
    created = new_user(scim, "bob@globex.example", active=False)
    assert created["active"] is False
    assert not bob.companies.filter(pk=company.pk).exists()


def test_list_filters_and_pages(scim):
    """Issue 26 SCIM: filter=userName eq (any case) and externalId eq; startIndex/count."""
    for n in range(5):
        new_user(scim, f"p{n}@example.com", externalId=f"ext-{n}")
    page = scim.get("Users", query={"startIndex": "2", "count": "2"}).json()
    assert page["totalResults"] == 5 and page["itemsPerPage"] == 2 and page["startIndex"] == 2
    assert [r["userName"] for r in page["Resources"]] == ["p1@example.com", "p2@example.com"]
    found = scim.get("Users", query={"filter": 'userName eq "P3@EXAMPLE.com"'}).json()
    assert [r["userName"] for r in found["Resources"]] == ["p3@example.com"]
    found = scim.get("Users", query={"filter": 'externalId eq "ext-4"'}).json()
    assert [r["userName"] for r in found["Resources"]] == ["p4@example.com"]
    none = scim.get("Users", query={"filter": 'userName eq "nobody@example.com"'}).json()
    assert none["totalResults"] == 0 and none["Resources"] == []
    counted = scim.get("Users", query={"count": "0"}).json()
    assert counted["totalResults"] == 5 and counted["Resources"] == []
    both = scim.get(
        "Users",
        query={"filter": 'userName sw "p" and (externalId eq "ext-1" or externalId eq "ext-2")'},
    ).json()
    assert both["totalResults"] == 2


def test_attributes_and_excluded_attributes(scim):
    """Issue 26 SCIM: attributes / excludedAttributes (RFC 7644 §3.4.2.5)."""
    created = new_user(scim, "a@example.com", name={"givenName": "A", "familyName": "B"})
    only = scim.get(
        f"Users/{created['id']}", query={"attributes": "userName,name.givenName"}
    ).json()
    assert set(only) == {"schemas", "id", "userName", "name"} and only["name"] == {"givenName": "A"}
    without = scim.get("Users", query={"excludedAttributes": "emails"}).json()["Resources"][0]
    assert "emails" not in without and "userName" in without


def test_one_company_never_sees_or_changes_anothers_people(scim, globex_scim):
    """Issue 26 SCIM: Globex's token gets 404 for Acme's users and never lists them."""
    created = new_user(scim, "only.acme@example.com")
    path = f"Users/{created['id']}"
    assert globex_scim.get("Users").json()["totalResults"] == 0
    assert (
        globex_scim.get("Users", query={"filter": 'userName eq "only.acme@example.com"'}).json()[
            "totalResults"
        ]
        == 0
    )
    assert_scim_error(globex_scim.get(path), 404)
    assert_scim_error(globex_scim.put(path, {"userName": "x@example.com"}), 404)
    patch = {"Operations": [{"op": "replace", "path": "active", "value": False}]}
    assert_scim_error(globex_scim.patch(path, patch), 404)
    assert_scim_error(globex_scim.delete(path), 404)
    assert scim.get(path).json()["active"] is True
    # The same person may be on both companies' lists: two separate records.
    other = new_user(globex_scim, "only.acme@example.com")
    assert other["id"] != created["id"]


def test_put_replaces(scim):
    """Issue 26 SCIM: PUT replaces the resource; what it leaves out is emptied."""
    created = new_user(
        scim,
        "r@example.com",
        externalId="x1",
        name={"givenName": "R", "familyName": "S"},
        **{"schemas": [CORE, ENTERPRISE], ENTERPRISE: {"employeeNumber": "42"}},
    )
    assert created[ENTERPRISE] == {"employeeNumber": "42"}
    replaced = scim.put(
        f"Users/{created['id']}", {"userName": "r2@example.com", "name": {"givenName": "Rae"}}
    )
    assert replaced.status_code == 200, replaced.content
    body = replaced.json()
    assert body["userName"] == "r2@example.com" and body["name"] == {"givenName": "Rae"}
    assert "externalId" not in body and ENTERPRISE not in body


def test_deactivation_ends_the_membership_and_the_session_and_reactivation_restores(
    scim, company, user, signed_in_api
):
    """Issue 26 SCIM: active false → the membership row goes and the user's token gets 401;
    active true → access comes back (they sign in again)."""
    created = new_user(scim, user.email)
    assert signed_in_api.get("users/current").status_code == 200
    patch = {"Operations": [{"op": "replace", "path": "active", "value": False}]}
    response = scim.patch(f"Users/{created['id']}", patch)
    assert response.status_code == 200 and response.json()["active"] is False
    assert not user.companies.filter(pk=company.pk).exists()
    assert signed_in_api.get("users/current").status_code == 401
    patch["Operations"][0]["value"] = True
    assert scim.patch(f"Users/{created['id']}", patch).json()["active"] is True
    assert user.companies.filter(pk=company.pk).exists()
    assert signed_in_api.sign_in(user.email).status_code == 200


def test_deactivating_one_company_keeps_the_other(scim, company, globex, user, signed_in_api):
    """Issue 26 SCIM: a user of two companies loses only the company that deactivated them."""
    user.companies.add(globex)
    created = new_user(scim, user.email)
    scim.patch(
        f"Users/{created['id']}", {"Operations": [{"op": "replace", "value": {"active": False}}]}
    )
    assert list(user.companies.values_list("slug", flat=True)) == ["globex"]
    assert signed_in_api.get("users/current").status_code == 200


def test_delete_ends_the_membership_the_record_and_account_stay(scim, company, user, make_request):
    """Issue 26 SCIM: DELETE → 204; the membership ends, the record stays deactivated (404
    through SCIM), the account and its requests stay; a new create brings the person back."""
    request = make_request(user)
    created = new_user(scim, user.email)
    assert scim.delete(f"Users/{created['id']}").status_code == 204
    record = EmployeeRecord.objects.get(pk=int(created["id"]))
    assert record.active is False and record.deactivated_at is not None
    assert not user.companies.filter(pk=company.pk).exists()
    assert_scim_error(scim.get(f"Users/{created['id']}"), 404)
    assert_scim_error(scim.delete(f"Users/{created['id']}"), 404)
    assert scim.get("Users").json()["totalResults"] == 0
    user.refresh_from_db()
    request.refresh_from_db()
    again = new_user(scim, user.email)
    assert again["id"] == created["id"] and again["active"] is True
    assert user.companies.filter(pk=company.pk).exists()


@pytest.mark.parametrize(
    ("body", "scim_type"),
    [
        ({"name": {"givenName": "No user name"}}, "invalidValue"),
        ({"userName": "not-an-email"}, "invalidValue"),
        ({"userName": "a@example.com", "active": "maybe"}, "invalidValue"),
        ({"userName": "a@example.com", "name": "Ada"}, "invalidValue"),
        ({"userName": "a@example.com", "name": {"givenName": "x" * 151}}, "invalidValue"),
        ({"userName": ["a@example.com"]}, "invalidValue"),
        ([1, 2], "invalidSyntax"),
    ],
)
def test_create_refuses_bad_bodies(scim, body, scim_type):
    """Issue 26 SCIM: invalid input is a 400 with scimType and detail, never a 500."""
    assert_scim_error(scim.post("Users", body), 400, scim_type)


def test_errors_for_syntax_duplicates_filters_paths_and_methods(scim):
    """Issue 26 SCIM: bad JSON, a duplicate userName (409 uniqueness), a bad filter, an
    unknown path, a method an endpoint lacks, an unknown id."""
    assert_scim_error(scim.post("Users", raw="{nope"), 400, "invalidSyntax")
    new_user(scim, "dup@example.com")
    assert_scim_error(scim.post("Users", {"userName": "DUP@example.com"}), 409, "uniqueness")
    for bad in (
        "userName eq",
        'nickName eq "x"',
        'userName xx "a"',
        '(userName eq "a"',
        'userName eq "a" junk',
    ):
        assert_scim_error(scim.get("Users", query={"filter": bad}), 400, "invalidFilter")
    assert_scim_error(scim.get("Users", query={"startIndex": "one"}), 400, "invalidValue")
    far = scim.get("Users", query={"startIndex": str(10**30), "count": str(10**30)}).json()
    assert far["totalResults"] == 1 and far["Resources"] == []
    assert_scim_error(scim.get("Users/²"), 404)
    assert_scim_error(scim.get("Nope"), 404)
    assert_scim_error(scim.delete("ServiceProviderConfig"), 405)
    assert_scim_error(scim.get("Users/999999999"), 404)
    assert_scim_error(scim.get("Users/abc"), 404)


def test_patch_errors(scim):
    """Issue 26 SCIM: a PATCH with no operations, an unknown op, removing userName: 400s,
    and nothing of a failing PATCH is applied."""
    created = new_user(scim, "p@example.com", name={"givenName": "P"})
    path = f"Users/{created['id']}"
    assert_scim_error(scim.patch(path, {"Operations": []}), 400, "invalidSyntax")
    assert_scim_error(scim.patch(path, {"Operations": [{"op": "move", "path": "active"}]}), 400)
    assert_scim_error(
        scim.patch(path, {"Operations": [{"op": "remove", "path": "userName"}]}), 400, "mutability"
    )
    mixed = {
        "Operations": [
            {"op": "replace", "path": "name.givenName", "value": "Changed"},
            {"op": "replace", "path": "userName", "value": "not an email"},
        ]
    }
    assert_scim_error(scim.patch(path, mixed), 400, "invalidValue")
    assert scim.get(path).json()["name"] == {"givenName": "P"}


LONE_SURROGATE = "\ud800"  # valid in JSON ("\\ud800"), but no UTF-8 text can hold it


def test_text_no_database_can_store_is_a_400_not_a_500(scim):
    """SCIM: a lone UTF-16 surrogate, which JSON allows and PostgreSQL's UTF-8 cannot store,
    in a created, replaced or patched attribute or in a filter is a SCIM 400."""
    bad_name = {"userName": "s@example.com", "name": {"givenName": f"A{LONE_SURROGATE}"}}
    assert_scim_error(scim.post("Users", bad_name), 400, "invalidValue")
    assert_scim_error(scim.post("Users", {"userName": f"s@ex{LONE_SURROGATE}.com"}), 400)
    created = new_user(scim, "s@example.com")
    path = f"Users/{created['id']}"
    assert_scim_error(scim.put(path, {**bad_name, "externalId": LONE_SURROGATE}), 400)
    patch = {"Operations": [{"op": "replace", "path": "name.familyName", "value": LONE_SURROGATE}]}
    assert_scim_error(scim.patch(path, patch), 400, "invalidValue")
    for filter_text in ('userName eq "\\ud800"', 'externalId eq "x\\udfff"'):  # JSON escapes
        assert_scim_error(scim.get("Users", query={"filter": filter_text}), 400, "invalidFilter")
    assert scim.get(path).json()["userName"] == "s@example.com"


def test_a_waiting_record_deactivates_and_the_person_cannot_join(scim, company, api):
    """Issue 26 SCIM: a user with no account yet can be deactivated (and deleted); their
    later sign-up gets no access to the company."""
    created = new_user(scim, "waiting@example.com")
    patch = {"Operations": [{"op": "replace", "path": "active", "value": False}]}
    response = scim.patch(f"Users/{created['id']}", patch)
    assert response.status_code == 200, response.content
    assert response.json()["active"] is False
    assert api.sign_up(email="waiting@example.com").status_code == 403
    other = new_user(scim, "waiting2@example.com")
    assert scim.delete(f"Users/{other['id']}").status_code == 204


def test_a_body_over_the_upload_limit_is_a_scim_413(scim, settings):
    """Issue 26 SCIM: a body larger than the server takes is refused with a SCIM 413."""
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10_000
    response = scim.post("Users", {"userName": "big@example.com", "x": "y" * 20_000})
    assert_scim_error(response, 413)
