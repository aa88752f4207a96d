"""Issue 26 roster import: the company admin uploads the staff list as CSV (email, employee
id, first and last name, status), sees a preview (creates, updates, deactivations,
reactivations, errors per row with the row number and reason), then applies it through the
same record services as SCIM; applying again changes nothing. And the 'roster only' join
policy: sign-up admits only people the roster lists as active."""

from __future__ import annotations

import threading
import time

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection, connections
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from concierge.accounts.models import Company, EmployeeRecord
from concierge.provisioning.services import roster

pytestmark = pytest.mark.django_db

CSV = (
    "Email,Employee ID,First name,Last name,Status\n"
    "ada@example.com,E1,Ada,Lovelace,active\n"
    "new.hire@example.com,E2,New,Hire,active\n"
    "leaver@example.com,E3,Lee,Ver,inactive\n"
    "not-an-email,E4,Bad,Email,active\n"
    "NEW.HIRE@example.com,E5,Dup,Row,active\n"
    "odd@example.com,E6,Odd,Status,on holiday\n"
    f"long@example.com,E7,{'x' * 151},Long,active\n"
)


def upload(api, company, action: str, content: str | bytes, name: str = "roster.csv"):
    data = content.encode() if isinstance(content, str) else content
    file = SimpleUploadedFile(name, data, content_type="text/csv")
    headers = {"Authorization": f"Bearer {api.token}"}
    return api.client.post(
        f"/api/v1/company/{company.pk}/roster/{action}", {"file": file}, headers=headers
    )


def rows_by_number(body) -> dict[int, dict]:
    return {row["row"]: row for row in body["rows"]}


def test_preview_lists_changes_and_errors_per_row_and_changes_nothing(hr_api, company, user):
    """Issue 26 roster: the preview gives each row's action, or its error with the row
    number and reason (bad email, duplicate row, unknown status, too long)."""
    EmployeeRecord.objects.create(company=company, email="leaver@example.com", source="roster")
    records_before = list(EmployeeRecord.objects.filter(company=company).values())
    response = upload(hr_api, company, "preview", CSV)
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["applied"] is False
    assert body["counts"] == {
        "create": 2,
        "update": 0,
        "deactivate": 1,
        "reactivate": 0,
        "unchanged": 0,
        "error": 4,
    }
    rows = rows_by_number(body)
    assert rows[4]["action"] == "deactivate"
    assert rows[5]["action"] == "error" and "not an email address" in rows[5]["reason"]
    assert (
        rows[6]["action"] == "error"
        and "Duplicate row" in rows[6]["reason"]
        and "row 3" in rows[6]["reason"]
    )
    assert rows[7]["action"] == "error" and "Unknown status" in rows[7]["reason"]
    assert rows[8]["action"] == "error" and "longer than 150" in rows[8]["reason"]
    assert list(EmployeeRecord.objects.filter(company=company).values()) == records_before


def test_apply_creates_links_deactivates_and_is_idempotent(hr_api, company, user, make_api):
    """Issue 26 roster: applying creates records (Ada, who has an account, is linked), the
    inactive row deactivates, errors are skipped; the same file again changes nothing."""
    leaver = EmployeeRecord.objects.create(
        company=company, email="leaver@example.com", source="roster"
    )
    response = upload(hr_api, company, "apply", CSV)
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["applied"] is True
    assert body["counts"]["create"] == 2 and body["counts"]["update"] == 0
    assert body["counts"]["deactivate"] == 1 and body["counts"]["error"] == 4
    ada_record = EmployeeRecord.objects.get(company=company, email=user.email)
    assert ada_record.employee_id == "E1" and ada_record.user == user and ada_record.active
    leaver.refresh_from_db()
    assert leaver.active is False
    new_hire = EmployeeRecord.objects.get(company=company, email="new.hire@example.com")
    assert new_hire.source == EmployeeRecord.Source.ROSTER and new_hire.first_name == "New"
    assert not EmployeeRecord.objects.filter(
        email__in=["odd@example.com", "long@example.com"]
    ).exists()

    again = upload(hr_api, company, "apply", CSV).json()
    assert again["counts"]["create"] == 0 and again["counts"]["update"] == 0
    assert again["counts"]["deactivate"] == 0 and again["counts"]["unchanged"] == 3


def test_roster_deactivation_and_reactivation_go_through_the_memberships(
    hr_api, company, user, make_api
):
    """Issue 26 roster: status inactive ends an employee's membership and session; active
    again brings the membership back."""
    employee = make_api()
    assert employee.sign_in(user.email).status_code == 200
    upload(hr_api, company, "apply", "email,status\nada@example.com,inactive\n")
    assert not user.companies.filter(pk=company.pk).exists()
    assert employee.get("users/current").status_code == 401
    body = upload(hr_api, company, "apply", "email,status\nada@example.com,active\n").json()
    assert body["counts"]["reactivate"] == 1
    assert user.companies.filter(pk=company.pk).exists()


def test_the_admin_importing_the_file_cannot_deactivate_themselves(hr_api, hr, company):
    """Roster: as on the members page, the company admin's own row cannot end their access
    (they would be signed out mid-import, with no one left to undo it): that row is an error,
    the other rows apply."""
    EmployeeRecord.objects.create(company=company, email="leaver@example.com", source="roster")
    content = f"email,status\n{hr.email},inactive\nleaver@example.com,inactive\n"
    preview = rows_by_number(upload(hr_api, company, "preview", content).json())
    assert preview[2]["action"] == "error" and "yourself" in preview[2]["reason"]
    assert preview[3]["action"] == "deactivate"
    body = upload(hr_api, company, "apply", content).json()
    assert body["counts"]["error"] == 1 and body["counts"]["deactivate"] == 1
    assert hr.companies.filter(pk=company.pk).exists()
    assert hr_api.get("users/current").status_code == 200


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks are PostgreSQL's")
def test_two_imports_of_the_same_file_at_once_both_succeed(company, monkeypatch):
    """Roster: a second import (another admin, another tab) that starts while the first is
    writing waits for it, then finds nothing left to do, instead of failing on the records
    the first one made."""
    first_wrote = threading.Event()
    records_create = roster._records_create

    def slow_records_create(*args, **kwargs):
        records_create(*args, **kwargs)
        first_wrote.set()
        time.sleep(0.5)

    monkeypatch.setattr(roster, "_records_create", slow_records_create)
    content = b"email\nnew.one@example.com\nnew.two@example.com\n"
    results: list[object] = []

    def run(wait: bool) -> None:
        try:
            if wait:
                first_wrote.wait(5)
            results.append(roster.roster_apply(company=company, content=content).counts)
        except Exception as exc:  # noqa: BLE001 (the failure is what this test looks for)
            results.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(wait,)) for wait in (False, True)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert [r["create"] if isinstance(r, dict) else r for r in results] == [2, 0]
    assert EmployeeRecord.objects.filter(company=company).count() == 2


def test_a_file_without_statuses_never_brings_back_a_deactivated_person(hr_api, company):
    """Issue 26 roster: no status column (or an empty cell): new people are added as active,
    known ones keep their status (a deactivated person stays deactivated)."""
    EmployeeRecord.objects.create(
        company=company, email="gone@example.com", source="roster", active=False
    )
    body = upload(
        hr_api, company, "apply", "email,first name\ngone@example.com,Gone\nnew@example.com,New\n"
    ).json()
    assert body["counts"]["reactivate"] == 0 and body["counts"]["create"] == 1
    assert EmployeeRecord.objects.get(email="gone@example.com").active is False
    assert EmployeeRecord.objects.get(email="new@example.com").active is True
    body = upload(hr_api, company, "preview", "email,status\ngone@example.com,\n").json()
    assert body["counts"]["unchanged"] == 1


@pytest.mark.parametrize(
    "content",
    [
        "\ufeffE-mail;Employee number;Given name;Surname;State\nx@example.com;1;X;Y;active\n",
        "email address,staff_id,first_name,last_name,active\nx@example.com,1,X,Y,yes\n",
        "EMAIL\tEMPLOYEE_ID\tFIRST NAME\tLAST NAME\tSTATUS\nx@example.com\t1\tX\tY\tActive\n",
    ],
)
def test_bom_separators_and_header_variants(hr_api, company, content):
    """Issue 26 roster: a BOM, ';' ',' or tab separators and header name variants."""
    body = upload(hr_api, company, "preview", content.encode("utf-8")).json()
    assert body["counts"]["create"] == 1, body
    assert body["rows"][0]["email"] == "x@example.com"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "empty"),
        (b"name,status\nAda,active\n", "'email' column"),
        ("email\nad\u00e9@example.com\n".encode("latin-1"), "UTF-8"),
        (b"\x00\x01\x02", "not a CSV"),
    ],
)
def test_unreadable_files_are_refused(hr_api, company, content, message):
    """Issue 26 roster: a file that is not a CSV with an email column: 422 with the reason."""
    response = upload(hr_api, company, "preview", content)
    assert response.status_code == 422
    assert message in response.json()["error"]


def test_size_limit_and_admin_only(hr_api, signed_in_api, company, globex, settings):
    """Issue 26 roster: a file over the size limit is refused; only that company's admin."""
    big = b"email\n" + b"a@example.com\n" * (5 * 1024 * 1024 // 14 + 10)
    response = upload(hr_api, company, "preview", big)
    assert response.status_code == 422 and "larger than 5 MB" in response.json()["error"]
    assert upload(signed_in_api, company, "preview", CSV).status_code == 403
    assert upload(hr_api, globex, "apply", CSV).status_code == 404
    assert not EmployeeRecord.objects.filter(company=globex).exists()


def test_ten_thousand_rows_preview_and_apply(hr_api, company):
    """Issue 26 roster: a 10,000-row roster previews and imports (time printed, not asserted);
    re-importing it changes nothing."""
    lines = ["email,employee id,first name,last name,status"]
    lines += [f"person{n}@bigcorp.example,B{n},First{n},Last{n},active" for n in range(10_000)]
    content = "\n".join(lines) + "\n"
    started = time.perf_counter()
    preview = upload(hr_api, company, "preview", content).json()
    previewed = time.perf_counter()
    applied = upload(hr_api, company, "apply", content).json()
    finished = time.perf_counter()
    again = upload(hr_api, company, "apply", content).json()
    print(
        f"\n10,000-row roster: preview {previewed - started:.2f} s, "
        f"apply {finished - previewed:.2f} s, re-apply {time.perf_counter() - finished:.2f} s"
    )
    assert preview["counts"]["create"] == 10_000 and preview["listed_all"] is False
    assert applied["counts"]["create"] == 10_000
    assert EmployeeRecord.objects.filter(company=company, source="roster").count() == 10_000
    assert again["counts"]["unchanged"] == 10_000

    # The next month's file: everyone renamed, every other person gone.
    lines = ["email,employee id,first name,last name,status"]
    lines += [
        f"person{n}@bigcorp.example,B{n},Renamed{n},Last{n},{'inactive' if n % 2 else 'active'}"
        for n in range(10_000)
    ]
    started = time.perf_counter()
    changed = upload(hr_api, company, "apply", "\n".join(lines) + "\n").json()
    print(
        f"10,000-row roster changes (5,000 renamed, 5,000 deactivated): {time.perf_counter() - started:.2f} s"
    )
    assert changed["counts"]["update"] == 5_000 and changed["counts"]["deactivate"] == 5_000
    records = EmployeeRecord.objects.filter(company=company, source="roster")
    assert records.filter(active=False, deactivated_at__isnull=False).count() == 5_000
    assert records.get(email="person7@bigcorp.example").first_name == "Renamed7"
    assert records.get(email="person8@bigcorp.example").first_name == "Renamed8"


def test_roster_only_sign_up_admits_only_people_on_the_roster(api, company):
    """Issue 26 'roster only' policy: sign-up is refused, with a clear message, for an email
    the roster does not list as active; a listed person signs up and joins."""
    Company.objects.filter(pk=company.pk).update(join_policy=Company.JoinPolicy.ROSTER)
    EmployeeRecord.objects.create(company=company, email="listed@example.com", source="roster")
    EmployeeRecord.objects.create(
        company=company, email="gone@example.com", source="roster", active=False
    )
    for email in ("stranger@example.com", "gone@example.com"):
        response = api.sign_up(email=email)
        assert response.status_code == 422
        assert response.json()["error"].startswith(
            "Acme Corp accounts are for people on its staff list."
        )
        assert response.json()["errors"]["email"]
    response = api.sign_up(email="Listed@Example.com")
    assert response.status_code == 200, response.content
    record = EmployeeRecord.objects.get(company=company, email="listed@example.com")
    assert record.user is not None and record.user.companies.filter(pk=company.pk).exists()


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    content=st.binary(max_size=300)
    | st.text(alphabet=st.sampled_from('email,;\t"\n\r\ufeffa@b.c xé\x00status'), max_size=200).map(
        str.encode
    )
)
def test_any_file_is_previewed_or_refused_never_a_500(hr_api, company, content):
    """Issue 26 roster: arbitrary bytes and CSV-like text: a preview or a 422, never a 500."""
    response = upload(hr_api, company, "preview", content)
    assert response.status_code in (200, 422), response.content
