"""Issue 'The employer's report': a company admin (set per company membership) sees their
company's figures by month, aggregates only, and can export them as CSV. No endpoint shows a
request's content to a company admin, and no figure about fewer than 5 people, requests or
ratings leaves the server, nor one from which such a figure could be worked out."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime, timedelta

import pytest
from django.core.exceptions import ValidationError
from freezegun import freeze_time

import config.urls  # noqa: F401  (the API's schemas are built before any clock is frozen)
from concierge.company_reports import selectors
from concierge.company_reports.models import CompanyAdmin
from concierge.satisfaction.services import rating_create
from concierge.servicerequests import services
from concierge.surveys.models import SurveyCategory

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 11, 20, 15, 0, tzinfo=UTC)
SECRET = "Divorce lawyer for Ada"  # a request name no company admin may ever see


@pytest.fixture
def month_of_requests(user, user_factory, company, concierge, globex_employee):
    """November 2026 at Acme: 6 'Pet' requests (2 employees), 2 'Home', answered after 2 h,
    completed after 10 h, rated 5 and 3; plus Globex's requests that never count for Acme."""
    pet = SurveyCategory.objects.create(name="Pet", icon="pet")
    home = SurveyCategory.objects.create(name="Home", icon="home")
    other = user_factory(email="bo@example.com", companies=[company])
    made = []
    for n in range(8):
        with freeze_time(NOW - timedelta(days=10, hours=n)):
            made.append(
                services.request_create(
                    user=user if n % 2 else other,
                    name=SECRET if n == 0 else f"Request {n}",
                    details="Survey answer: the secret details",
                    survey_category_id=(pet if n < 6 else home).pk,
                )
            )
        with freeze_time(NOW - timedelta(days=10, hours=n) + timedelta(hours=2)):
            services.concierge_reply_create(request=made[-1], author=concierge, body="On it")
        with freeze_time(NOW - timedelta(days=10, hours=n) + timedelta(hours=10)):
            services.request_status_change(request=made[-1], action="complete")
    with freeze_time(NOW - timedelta(days=5)):
        made[0].refresh_from_db()
        rating_create(request=made[0], score=5, comment="secret comment")
        made[1].refresh_from_db()
        rating_create(request=made[1], score=3)
    with freeze_time(NOW - timedelta(days=3)):
        services.request_create(user=globex_employee, name="Globex thing")
    return made


@pytest.fixture
def globex_employee(user_factory, company_factory):
    globex = company_factory(slug="globex", name="Globex")
    return user_factory(email="gina@globex.example", companies=[globex])


def report(api, **query):
    with freeze_time(NOW):
        response = api.get("company/report", query=query)
    assert response.status_code == 200, response.content
    return response.json()


def report_csv(api, **query) -> str:
    with freeze_time(NOW):
        response = api.get("company/report.csv", query=query)
    assert response.status_code == 200, response.content
    return response.content.decode()


def csv_rows(api, **query) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(report_csv(api, **query))))


FIGURES = [
    "requests_created",
    "requests_completed",
    "median_first_response_hours",
    "median_completion_hours",
    "csat_average",
    "csat_count",
    "employees",
    "employees_using",
    "usage_share",
]


def rated_requests(employees, concierge, scores, *, at=NOW - timedelta(days=10)):
    """One 'Pet' request per employee issued at `at`, answered after 1 h, completed after
    5 h and rated with the employee's score (None: not rated)."""
    pet, _ = SurveyCategory.objects.get_or_create(name="Pet", defaults={"icon": "pet"})
    for n, (employee, score) in enumerate(zip(employees, scores, strict=True)):
        issued = at + timedelta(minutes=n)
        with freeze_time(issued):
            made = services.request_create(
                user=employee, name=f"Request {n}", survey_category_id=pet.pk
            )
        with freeze_time(issued + timedelta(hours=1)):
            services.concierge_reply_create(request=made, author=concierge, body="On it")
        with freeze_time(issued + timedelta(hours=5)):
            services.request_status_change(request=made, action="complete")
        if score is not None:
            with freeze_time(issued + timedelta(hours=6)):
                made.refresh_from_db()
                rating_create(request=made, score=score)


@pytest.fixture
def small_team(hr, user_factory, company, concierge):
    """Acme is 4 employees (Harper the admin among them); one of them made one request this
    month and rated it 4."""
    team = [user_factory(email=f"member{n}@example.com", companies=[company]) for n in range(3)]
    rated_requests(team[:1], concierge, [4])
    return team


@pytest.fixture
def team_of_eleven(hr, user_factory, company, concierge):
    """Acme is 11 employees; 5 of them made a request this month and rated it 5, 4, 4, 3, 5
    (average 4.2), the other 6 made none."""
    team = [user_factory(email=f"member{n}@example.com", companies=[company]) for n in range(10)]
    rated_requests(team[:5], concierge, [5, 4, 4, 3, 5])
    return team


def test_report_month_figures(hr_api, month_of_requests):
    """By month: created, completed, medians and top categories; 2 ratings and 2 of 3
    employees are too few to show."""
    body = report(hr_api, months=3)
    assert body["company"]["name"] == "Acme Corp"
    assert [m["month"] for m in body["months"]] == ["2026-09", "2026-10", "2026-11"]
    november = body["months"][-1]
    assert november["requests_created"] == 8
    assert november["requests_completed"] == 8
    assert november["median_first_response_hours"] == 2.0
    assert november["median_completion_hours"] == 10.0
    assert (november["csat_average"], november["csat_count"]) == (None, None)
    assert (november["employees"], november["employees_using"]) == (None, None)
    assert november["usage_share"] is None
    assert body["months"][0]["requests_created"] is None  # none is withheld like a few


def test_report_privacy_a_category_under_5_is_not_listed_so_the_total_cannot_reveal_it(
    hr_api, month_of_requests
):
    """8 requests, 'Pet' 6 and 'Home' 2: listing 'Home: < 5' beside the total would give its
    count away (8 - 6), so 'Home' is not listed at all, in the JSON or the CSV."""
    body = report(hr_api)
    assert body["months"][-1]["top_categories"] == [{"name": "Pet", "count": 6}]
    assert "Home" not in json.dumps(body)
    assert "Home" not in report_csv(hr_api)


def test_report_csv_export(hr_api, month_of_requests):
    """The CSV has a row per month with the same figures; withheld ones are empty cells."""
    with freeze_time(NOW):
        response = hr_api.get("company/report.csv", query={"months": 2})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert 'filename="acme-corp-report.csv"' in response["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert [r["month"] for r in rows] == ["2026-10", "2026-11"]
    assert rows[1]["requests_created"] == "8"
    assert rows[1]["median_completion_hours"] == "10.0"
    assert (rows[1]["csat_average"], rows[1]["csat_count"]) == ("", "")
    assert (rows[1]["employees"], rows[1]["employees_using"], rows[1]["usage_share"]) == (
        "",
        "",
        "",
    )
    assert rows[1]["top_categories"] == "Pet: 6"
    assert set(rows[0].values()) == {"2026-10", ""}  # a month without requests: nothing


def test_report_only_for_company_admins_of_their_company(
    signed_in_api, concierge_api, hr_api, make_api, globex_employee, month_of_requests
):
    """Employees and concierges get 403; an admin can't ask for another company (404)."""
    for api in (signed_in_api, concierge_api):
        assert api.get("company/report").status_code == 403
        assert api.get("company/report.csv").status_code == 403
        assert api.get("company/access").json() == {"companies": []}
    globex_id = globex_employee.companies.get().pk
    assert hr_api.get("company/report", query={"company": globex_id}).status_code == 404
    assert hr_api.get("company/access").json()["companies"][0]["name"] == "Acme Corp"
    assert make_api().get("company/report").status_code == 401


def test_no_endpoint_leaks_content_to_a_company_admin(hr_api, month_of_requests):
    """Privacy: nothing the company admin can reach carries a request's name, answers,
    messages or rating comments; the employee and desk endpoints refuse them."""
    seen = []
    with freeze_time(NOW):
        for path in ("company/access", "company/report", "company/report.csv"):
            response = hr_api.get(path)
            assert response.status_code == 200
            seen.append(response.content.decode())
        request_id = month_of_requests[0].pk
        for path in (
            f"requests/{request_id}",
            f"requests/{request_id}/messages",
            f"requests/{request_id}/rating",
            "concierge/requests",
            f"concierge/requests/{request_id}",
            "concierge/search?q=divorce",
            "concierge/ratings",
        ):
            response = hr_api.get(path)
            assert response.status_code in (403, 404), path
            seen.append(response.content.decode())
        for path in ("requests/open", "requests/completed"):
            assert hr_api.get(path).json() == {"requests": []}
    blob = json.dumps(seen)
    for secret in ("Divorce", "secret details", "secret comment", "On it", "Request 3"):
        assert secret not in blob


def test_company_admin_must_be_a_member(user_factory, company, company_factory):
    """The role is set per company membership (Django admin validates it)."""
    outsider = user_factory(email="out@example.com")
    role = CompanyAdmin(user=outsider, company=company)
    with pytest.raises(ValidationError):
        role.full_clean()


def test_report_privacy_a_single_ratings_average_is_never_sent(hr_api, small_team):
    """4 employees, 1 request rated 4: the JSON carries no figure for the month at all, so
    neither the average nor the count, nor anything to work them out from (requests,
    completions, medians, usage, headcount, categories)."""
    body = report(hr_api, months=1)
    (november,) = body["months"]
    assert november == {"month": "2026-11", "top_categories": [], **dict.fromkeys(FIGURES)}
    blob = json.dumps(body["months"])
    assert "4.0" not in blob
    assert ": 1" not in blob


def test_report_privacy_a_single_ratings_average_is_never_in_the_csv(hr_api, small_team):
    """The same small team's CSV: the month's row has the month and empty cells only."""
    text = report_csv(hr_api, months=1)
    (row,) = list(csv.DictReader(io.StringIO(text)))
    assert row == {"month": "2026-11", "top_categories": "", **dict.fromkeys(FIGURES, "")}
    assert "4" not in text.replace("2026-11", "")


def test_report_privacy_5_ratings_from_5_of_11_employees_are_shown(hr_api, team_of_eleven):
    """At the threshold every figure appears, in the JSON and in the CSV."""
    (november,) = report(hr_api, months=1)["months"]
    assert november == {
        "month": "2026-11",
        "requests_created": 5,
        "requests_completed": 5,
        "median_first_response_hours": 1.0,
        "median_completion_hours": 5.0,
        "csat_average": 4.2,
        "csat_count": 5,
        "employees": 11,
        "employees_using": 5,
        "usage_share": pytest.approx(0.4545),
        "top_categories": [{"name": "Pet", "count": 5}],
    }
    (row,) = csv_rows(hr_api, months=1)
    assert (row["csat_average"], row["csat_count"]) == ("4.2", "5")
    assert (row["employees"], row["employees_using"], row["usage_share"]) == ("11", "5", "0.4545")
    assert (row["requests_created"], row["median_first_response_hours"]) == ("5", "1.0")
    assert row["top_categories"] == "Pet: 5"


def test_report_privacy_months_with_fewer_than_5_ratings_are_withheld_points(
    hr_api, team_of_eleven, concierge
):
    """Trends: October's 5 ratings are a point of the satisfaction line, November's 5 plus
    September's 2 are not: each month's point follows the threshold on its own."""
    rated_requests(team_of_eleven[5:10], concierge, [3, 3, 3, 3, 3], at=NOW - timedelta(days=40))
    rated_requests(team_of_eleven[:2], concierge, [1, 2], at=NOW - timedelta(days=70))
    months = {m["month"]: m for m in report(hr_api, months=3)["months"]}
    assert (months["2026-10"]["csat_average"], months["2026-10"]["csat_count"]) == (3.0, 5)
    assert (months["2026-09"]["csat_average"], months["2026-09"]["csat_count"]) == (None, None)
    assert months["2026-09"]["requests_created"] is None
    assert months["2026-09"]["median_completion_hours"] is None
    rows = {r["month"]: r for r in csv_rows(hr_api, months=3)}
    assert (rows["2026-09"]["csat_average"], rows["2026-09"]["csat_count"]) == ("", "")
    assert rows["2026-10"]["csat_average"] == "3.0"


def test_report_privacy_usage_is_withheld_when_fewer_than_5_did_not_use_it(
    hr_api, user_factory, company, concierge, hr
):
    """7 employees, 5 of whom used the service: '5 of 7' would tell that only 2 did not,
    so usage is withheld while the 5 requests and ratings are shown."""
    team = [user_factory(email=f"member{n}@example.com", companies=[company]) for n in range(6)]
    rated_requests(team[:5], concierge, [5, 5, 5, 5, 5])
    (november,) = report(hr_api, months=1)["months"]
    assert (november["employees"], november["requests_created"], november["csat_count"]) == (
        7,
        5,
        5,
    )
    assert (november["employees_using"], november["usage_share"]) == (None, None)
    (row,) = csv_rows(hr_api, months=1)
    assert (row["employees"], row["employees_using"], row["usage_share"]) == ("7", "", "")


def test_report_privacy_the_threshold_is_one_constant(hr_api, small_team, monkeypatch):
    """Every rule reads SMALL_NUMBER: at 1, the small team's single rating and everything
    else appear; at 5 (the product's value) none does."""
    assert selectors.SMALL_NUMBER == 5
    monkeypatch.setattr(selectors, "SMALL_NUMBER", 1)
    (november,) = report(hr_api, months=1)["months"]
    assert november == {
        "month": "2026-11",
        "requests_created": 1,
        "requests_completed": 1,
        "median_first_response_hours": 1.0,
        "median_completion_hours": 5.0,
        "csat_average": 4.0,
        "csat_count": 1,
        "employees": 4,
        "employees_using": 1,
        "usage_share": 0.25,
        "top_categories": [{"name": "Pet", "count": 1}],
    }
    monkeypatch.setattr(selectors, "SMALL_NUMBER", 5)
    (november,) = report(hr_api, months=1)["months"]
    assert all(november[figure] is None for figure in FIGURES)
