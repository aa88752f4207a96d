"""Issue 26 'The company admin's members page': a company admin lists their company's people
(status, join date, last sign-in; never request content), searches and pages, deactivates and
reactivates them, and makes, lists and revokes invite links. Every endpoint checks the role
for the company named in the path: another company's id answers 404."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from concierge.accounts.models import Company, CompanyInvite, EmployeeRecord
from concierge.accounts.services.memberships import membership_join
from concierge.common.tokens import token_hash
from concierge.company_reports.services import ACCOUNT_CLOSED, NOT_YOURSELF
from conftest import ApiClient

pytestmark = pytest.mark.django_db

SECRET = "Divorce lawyer for Ada"
QUERIES = 5


@pytest.fixture
def ada_record(user, company) -> EmployeeRecord:
    return membership_join(
        user=user, company=company, source=EmployeeRecord.Source.SIGN_UP, employee_id="E-0042"
    )


@pytest.fixture
def globex(company_factory, user_factory):
    globex = company_factory(slug="globex", name="Globex")
    grace = user_factory(email="grace@globex.example", first_name="Grace")
    membership_join(user=grace, company=globex, source=EmployeeRecord.Source.SIGN_UP)
    return globex


def members_url(company: Company, rest: str = "") -> str:
    return f"company/{company.pk}/members{rest}"


def test_admin_lists_members_with_status_join_date_and_last_sign_in_but_no_request_content(
    hr_api, hr, user, company, ada_record, make_request
):
    """Issue 26 members page: status, join date and last sign-in; no request content"""
    make_request(user, name=SECRET)
    EmployeeRecord.objects.create(
        company=company, email="new@acme.example", first_name="Nia", last_name="Adams",
        source=EmployeeRecord.Source.ROSTER,
    )  # fmt: skip
    response = hr_api.get(members_url(company))
    assert response.status_code == 200, response.content
    body = response.json()
    assert SECRET not in response.content.decode()
    assert body["company"] == {"id": company.pk, "name": "Acme Corp"}
    assert body["total"] == 3 and body["page"] == 1 and body["page_size"] == 25
    by_email = {m["email"]: m for m in body["members"]}
    assert [m["email"] for m in body["members"]] == [
        "new@acme.example", "ada@example.com", "hr@example.com",
    ]  # by last name: Adams, Lovelace, Reed  # fmt: skip
    assert by_email["new@acme.example"]["status"] == "not_joined"
    assert by_email["new@acme.example"]["last_sign_in_at"] is None
    ada = by_email["ada@example.com"]
    assert ada["status"] == "active" and ada["employee_id"] == "E-0042"
    assert ada["joined_at"] is not None and ada["is_me"] is False
    assert by_email["hr@example.com"]["is_me"] is True
    assert by_email["hr@example.com"]["last_sign_in_at"] is not None
    assert set(ada) == {
        "id", "email", "first_name", "last_name", "employee_id", "status", "source",
        "joined_at", "deactivated_at", "last_sign_in_at", "is_me",
    }  # fmt: skip


def test_members_without_a_record_are_listed_too(hr_api, company, user_factory):
    """Issue 26: someone given access by hand in the Django admin (no record yet) is listed"""
    user_factory(email="manual@example.com", first_name="Manu", companies=[company])
    emails = [m["email"] for m in hr_api.get(members_url(company)).json()["members"]]
    assert "manual@example.com" in emails


def test_an_erased_person_shows_as_closed_and_cannot_be_changed(hr_api, company, user, ada_record):
    """Issue 27 erasure, seen from the members page: the person's account is closed; they are
    neither active nor deactivated, and neither button changes anything."""
    from concierge.privacy.services.erasure import person_erase

    person_erase(user=user)
    [row] = [m for m in hr_api.get(members_url(company)).json()["members"] if not m["is_me"]]
    assert row["status"] == "closed"
    for status, expected in (("closed", [row["id"]]), ("active", []), ("deactivated", [])):
        listed = hr_api.get(members_url(company), query={"status": status}).json()["members"]
        assert [m["id"] for m in listed if not m["is_me"]] == expected, status
    for action in ("deactivate", "reactivate"):
        refused = hr_api.post(members_url(company, f"/{row['id']}/{action}"))
        assert refused.status_code == 422, refused.content
        assert refused.json()["error"] == ACCOUNT_CLOSED


@pytest.mark.parametrize(
    ("search", "expected"),
    [
        ("lovelace", ["ada@example.com"]),
        ("ADA love", ["ada@example.com"]),
        ("E-0042", ["ada@example.com"]),
        ("0042", ["ada@example.com"]),
        ("hr@example", ["hr@example.com"]),
        ("nobody", []),
        ("'; DROP TABLE x; --", []),
        ("%", ["ada@example.com", "hr@example.com"]),  # no word: everyone
    ],
)
def test_search_by_name_email_or_employee_id(hr_api, company, ada_record, search, expected):
    """Issue 26 members page: search by name, email or employee id"""
    response = hr_api.get(members_url(company), query={"search": search})
    assert response.status_code == 200, response.content
    assert [m["email"] for m in response.json()["members"]] == expected


def test_status_filter(hr_api, company, ada_record):
    """Issue 26 members page: the deactivated people alone"""
    assert hr_api.post(members_url(company, f"/{ada_record.pk}/deactivate")).status_code == 200
    body = hr_api.get(members_url(company), query={"status": "deactivated"}).json()
    assert [m["email"] for m in body["members"]] == ["ada@example.com"]
    body = hr_api.get(members_url(company), query={"status": "active"}).json()
    assert [m["email"] for m in body["members"]] == ["hr@example.com"]


def _records(company: Company, count: int) -> None:
    now = timezone.now()
    EmployeeRecord.objects.bulk_create(
        EmployeeRecord(
            company=company,
            email=f"person{n:03d}@acme.example",
            first_name="Person",
            last_name=f"{n:03d}",
            source=EmployeeRecord.Source.ROSTER,
            joined_at=now,
        )
        for n in range(count)
    )


def test_paging_runs_a_fixed_number_of_queries(
    hr_api, company, user_factory, django_assert_num_queries
):
    """Issue 26 members page: paging with a fixed number of SQL queries, whatever the
    company's size and whoever is on the page"""
    _records(company, 3)
    # The session, the admin role, members without a record, the count, the page.
    with django_assert_num_queries(QUERIES):
        assert hr_api.get(members_url(company)).status_code == 200
    for n in range(57):
        member = user_factory(email=f"joined{n:03d}@acme.example", first_name="Joined")
        membership_join(user=member, company=company, source=EmployeeRecord.Source.SIGN_UP)
        ApiClient().sign_in(member.email)
    with django_assert_num_queries(QUERIES):
        first = hr_api.get(members_url(company)).json()
    with django_assert_num_queries(QUERIES):
        third = hr_api.get(members_url(company), query={"page": 3}).json()
    assert first["total"] == third["total"] == 3 + 57 + 1
    assert len(first["members"]) == 25 and len(third["members"]) == 11
    seen = {m["id"] for m in first["members"]} & {m["id"] for m in third["members"]}
    assert seen == set()


def test_deactivate_signs_the_person_out_and_reactivate_gives_access_back(
    hr_api, signed_in_api, user, company, ada_record
):
    """Issue 26 members page: deactivate (the person's next API call is 401) and reactivate"""
    response = hr_api.post(members_url(company, f"/{ada_record.pk}/deactivate"))
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "deactivated"
    assert response.json()["deactivated_at"] is not None
    assert signed_in_api.get("users/current").status_code == 401
    assert ApiClient().sign_in(user.email).status_code == 403

    response = hr_api.post(members_url(company, f"/{ada_record.pk}/reactivate"))
    assert response.status_code == 200
    assert response.json()["status"] == "active"
    assert ApiClient().sign_in(user.email).status_code == 200


def test_an_admin_cannot_deactivate_themselves(hr_api, hr, company):
    """Issue 26: a company admin cannot deactivate themselves"""
    mine = EmployeeRecord.objects.get(company=company, user=hr)
    response = hr_api.post(members_url(company, f"/{mine.pk}/deactivate"))
    assert response.status_code == 422
    assert response.json()["error"] == NOT_YOURSELF
    assert hr.companies.filter(pk=company.pk).exists()


def test_another_companys_people_and_ids_are_out_of_reach(hr_api, company, globex):
    """Issue 26: the role is checked on every endpoint; another company's id is 404, and so is
    another company's person or invite under my company's id"""
    grace = EmployeeRecord.objects.get(company=globex)
    invite = CompanyInvite.objects.create(
        company=globex, token_hash=token_hash("x"), expires_at=timezone.now() + timedelta(days=1)
    )
    for method, path, *payload in [
        ("get", members_url(globex)),
        ("post", members_url(globex, f"/{grace.pk}/deactivate")),
        ("post", members_url(globex, f"/{grace.pk}/reactivate")),
        ("get", f"company/{globex.pk}/invites"),
        ("post", f"company/{globex.pk}/invites", {"label": "x"}),
        ("post", f"company/{globex.pk}/invites/{invite.pk}/revoke"),
        ("post", members_url(company, f"/{grace.pk}/deactivate")),
        ("post", members_url(company, f"/{grace.pk}/reactivate")),
        ("post", f"company/{company.pk}/invites/{invite.pk}/revoke"),
    ]:
        response = getattr(hr_api, method)(path, *payload)
        assert response.status_code == 404, (path, response.content)
    grace.refresh_from_db()
    invite.refresh_from_db()
    assert grace.active and invite.revoked_at is None


def test_people_who_are_not_company_admins_are_refused(signed_in_api, company, ada_record):
    """Issue 26: an employee gets 403, a visitor 401"""
    assert signed_in_api.get(members_url(company)).status_code == 403
    assert (
        signed_in_api.post(members_url(company, f"/{ada_record.pk}/deactivate")).status_code == 403
    )
    assert ApiClient().get(members_url(company)).status_code == 401


@pytest.mark.parametrize(
    ("path", "params"),
    [
        ("members", {"page": "0"}),
        ("members", {"page": "abc"}),
        ("members", {"page": "99999999999999999999"}),
        ("members", {"status": "everyone"}),
        ("members", {"search": "x" * 101}),
    ],
)
def test_bad_queries_are_422_never_500(hr_api, company, path, params):
    """Issue 26: every input validated; no 500 on bad input"""
    response = hr_api.get(f"company/{company.pk}/{path}", query=params)
    assert response.status_code == 422, response.content


@pytest.mark.parametrize(
    "path",
    [
        "company/99999999999999999999/members",
        "company/0/members",
        "company/{company}/members/99999999999999999999/deactivate",
        "company/{company}/invites/99999999999999999999/revoke",
    ],
)
def test_out_of_range_ids_are_404_never_500(hr_api, company, path):
    """Issue 26: ids out of the database's range are not found, not a server error"""
    url = path.format(company=company.pk)
    method = hr_api.post if url.endswith(("deactivate", "revoke")) else hr_api.get
    assert method(url).status_code == 404


def test_invite_links_are_shown_once_listed_and_revoked(hr_api, company, api):
    """Issue 26 members page: invite links (create with label, max uses and expiry showing the
    link once, list, revoke), usable at sign-up until revoked"""
    company.join_policy = Company.JoinPolicy.INVITE
    company.save()
    created = hr_api.post(
        f"company/{company.pk}/invites", {"label": "Sales team", "max_uses": 5, "valid_days": 7}
    )
    assert created.status_code == 201, created.content
    body = created.json()
    assert body["link"].startswith("http") and "/sign-up/acme?invite=" in body["link"]
    raw = body["link"].rpartition("invite=")[2]
    invite = CompanyInvite.objects.get(pk=body["invite"]["id"])
    assert invite.token_hash == token_hash(raw) and invite.max_uses == 5
    assert timedelta(days=6, hours=23) < invite.expires_at - timezone.now() <= timedelta(days=7)

    listed = hr_api.get(f"company/{company.pk}/invites").json()
    assert listed["join_policy"] == "invite" and listed["invites_needed"] is True
    assert [i["label"] for i in listed["invites"]] == ["Sales team"]
    assert listed["invites"][0]["usable"] is True
    assert raw not in str(listed)

    signed_up = api.sign_up(email="new@example.com", invite=raw)
    assert signed_up.status_code == 200, signed_up.content
    revoked = hr_api.post(f"company/{company.pk}/invites/{invite.pk}/revoke")
    assert revoked.status_code == 200
    assert revoked.json()["usable"] is False and revoked.json()["use_count"] == 1
    refused = api.sign_up(email="late@example.com", invite=raw)
    assert refused.status_code == 422


@pytest.mark.parametrize(
    "payload",
    [
        {"max_uses": 0},
        {"max_uses": 10_001},
        {"valid_days": 0},
        {"valid_days": 91},
        {"label": "x" * 201},
        {"max_uses": "many"},
    ],
)
def test_bad_invites_are_422(hr_api, company, payload):
    """Issue 26: every input validated; no 500 on bad input"""
    response = hr_api.post(f"company/{company.pk}/invites", payload)
    assert response.status_code == 422, response.content
    assert not CompanyInvite.objects.exists()


def test_open_company_says_invites_are_not_needed(hr_api, company):
    """Issue 26: the join policy decides whether invites matter"""
    body = hr_api.get(f"company/{company.pk}/invites").json()
    assert body == {"join_policy": "open", "invites_needed": False, "invites": []}


def test_a_roster_record_without_an_account_can_be_deactivated_and_back(hr_api, company):
    """Issue 26: someone on the roster who has not joined yet can be deactivated (they may
    then not join) and reactivated (on the roster again)"""
    record = EmployeeRecord.objects.create(
        company=company, email="new@acme.example", source=EmployeeRecord.Source.ROSTER
    )
    response = hr_api.post(members_url(company, f"/{record.pk}/deactivate"))
    assert response.status_code == 200 and response.json()["status"] == "deactivated"
    refused = ApiClient().sign_up(email="new@acme.example")
    assert refused.status_code == 403
    response = hr_api.post(members_url(company, f"/{record.pk}/reactivate"))
    assert response.status_code == 200 and response.json()["status"] == "not_joined"
