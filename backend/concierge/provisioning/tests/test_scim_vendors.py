"""Issue 26 SCIM: recorded Okta and Microsoft Entra requests (fixtures/, written from their
published docs) replayed against /scim/v2: create, filter by userName (and Entra's
externalId), profile updates, and PATCH active:false in each vendor's own shape, which ends
the person's membership and session."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from concierge.accounts.models import EmployeeRecord

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).parent / "fixtures"
ENTERPRISE = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"


def fixture(name: str, **replace: str):
    text = (FIXTURES / name).read_text()
    for key, value in replace.items():
        text = text.replace("{" + key + "}", value)
    return json.loads(text)


def test_okta_create_filter_update_and_deactivate(scim, company, user_factory, make_api):
    """Issue 26 SCIM (Okta): the employee has an account; Okta looks them up by userName,
    creates them (linked, a member), updates the profile with PUT, then deactivates them with
    a path-less PATCH {"active": false}: the membership ends and their token gets 401."""
    company.allowed_email_domains = "okta.local"  # the employer's own domain, set by the operator
    company.save()
    person = user_factory(email="test.user@okta.local", companies=[])
    api = make_api()
    query = fixture("okta_filter.json")["query"]
    assert scim.get("Users", query=query).json()["totalResults"] == 0

    created = scim.post("Users", fixture("okta_create.json"))
    assert created.status_code == 201, created.content
    user_id = created.json()["id"]
    assert created["Location"].endswith(f"/scim/v2/Users/{user_id}")
    assert created.json()["externalId"] == "00ujl29u0le5T6Aj10h7"
    assert person.companies.filter(pk=company.pk).exists()
    found = scim.get("Users", query=query).json()
    assert found["totalResults"] == 1 and found["Resources"][0]["id"] == user_id

    updated = scim.put(f"Users/{user_id}", fixture("okta_put_update.json", id=user_id))
    assert updated.status_code == 200 and updated.json()["name"]["givenName"] == "Tess"

    assert api.sign_in(person.email).status_code == 200
    assert api.get("users/current").status_code == 200
    response = scim.patch(f"Users/{user_id}", fixture("okta_patch_deactivate.json"))
    assert response.status_code == 200 and response.json()["active"] is False
    assert not person.companies.filter(pk=company.pk).exists()
    assert api.get("users/current").status_code == 401


def test_entra_create_filter_update_deactivate_and_reactivate(scim, company, api):
    """Issue 26 SCIM (Microsoft Entra): create with the enterprise extension, filter by
    userName and externalId, a PATCH with "Replace", emails[type eq "work"].value,
    name.givenName paths and a path-less Add, then "active": "False" and "True" as strings."""
    query = fixture("entra_filter.json")["query"]
    assert scim.get("Users", query=query).json()["Resources"] == []
    created = scim.post("Users", fixture("entra_create.json"))
    assert created.status_code == 201, created.content
    body = created.json()
    user_id = body["id"]
    assert body["userName"] == "test_user_ab6490ee@contoso.onmicrosoft.com"
    assert body[ENTERPRISE] == {"employeeNumber": "E-1024"}
    for name in ("entra_filter.json", "entra_filter_external_id.json"):
        found = scim.get("Users", query=fixture(name)["query"]).json()
        assert [r["id"] for r in found["Resources"]] == [user_id]

    patched = scim.patch(f"Users/{user_id}", fixture("entra_patch_update.json"))
    assert patched.status_code == 200, patched.content
    assert patched.json()["name"] == {"givenName": "Ryan", "familyName": "Leenay"}
    assert patched.json()[ENTERPRISE] == {"employeeNumber": "E-2048"}

    # The person signs up (roster record waiting), then Entra disables them.
    assert api.sign_up(email=body["userName"]).status_code == 200
    record = EmployeeRecord.objects.get(pk=int(user_id))
    assert record.user is not None
    assert api.sign_in(body["userName"]).status_code == 200
    assert api.get("users/current").status_code == 200

    response = scim.patch(f"Users/{user_id}", fixture("entra_patch_deactivate.json"))
    assert response.status_code == 200 and response.json()["active"] is False
    assert api.get("users/current").status_code == 401
    assert not record.user.companies.filter(pk=company.pk).exists()

    response = scim.patch(f"Users/{user_id}", fixture("entra_patch_reactivate.json"))
    assert response.json()["active"] is True
    assert record.user.companies.filter(pk=company.pk).exists()
    assert api.sign_in(body["userName"]).status_code == 200
