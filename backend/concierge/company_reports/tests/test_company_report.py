"""Issue 'The employer's report': a company admin (set per company membership) sees their
company's figures by month, aggregates only, with small-number suppression ('< 5'), and can
export them as CSV. No endpoint shows a request's content to a company admin."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime, timedelta

import pytest
from django.core.exceptions import ValidationError
from freezegun import freeze_time

import config.urls  # noqa: F401  (the API's schemas are built before any clock is frozen)
from concierge.company_reports.models import CompanyAdmin
from concierge.satisfaction.services import rating_create
from concierge.servicerequests import services
from concierge.surveys.models import SurveyCategory

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 11, 20, 15, 0, tzinfo=UTC)
SECRET = "Divorce lawyer for Ada"  # a request name no company admin may ever see


@pytest.fixture
def hr(user_factory, company):
    admin = user_factory(email="hr@example.com", first_name="Harper", companies=[company])
    CompanyAdmin.objects.create(user=admin, company=company)
    return admin


@pytest.fixture
def hr_api(make_api, hr):
    api = make_api()
    api.sign_in(hr.email)
    return api


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


def test_report_month_figures(hr_api, month_of_requests):
    """By month: created, completed, medians, CSAT, usage share and top categories."""
    body = report(hr_api, months=3)
    assert body["company"]["name"] == "Acme Corp"
    assert [m["month"] for m in body["months"]] == ["2026-09", "2026-10", "2026-11"]
    november = body["months"][-1]
    assert november["requests_created"] == 8
    assert november["requests_completed"] == 8
    assert november["median_first_response_hours"] == 2.0
    assert november["median_completion_hours"] == 10.0
    assert (november["csat_average"], november["csat_count"]) == (4.0, 2)
    assert (november["employees"], november["employees_using"]) == (3, 2)
    assert november["usage_share"] == pytest.approx(0.6667)
    assert body["months"][0]["requests_created"] == 0


def test_report_small_numbers_suppressed(hr_api, month_of_requests):
    """A category with fewer than 5 requests in a month is '< 5', never its count."""
    categories = report(hr_api)["months"][-1]["top_categories"]
    assert categories == [
        {"name": "Pet", "count": 6, "display": "6"},
        {"name": "Home", "count": None, "display": "< 5"},
    ]


def test_report_csv_export(hr_api, month_of_requests):
    """The CSV has a row per month with the same figures and the suppressed categories."""
    with freeze_time(NOW):
        response = hr_api.get("company/report.csv", query={"months": 2})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert 'filename="acme-corp-report.csv"' in response["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert [r["month"] for r in rows] == ["2026-10", "2026-11"]
    assert rows[1]["requests_created"] == "8"
    assert rows[1]["csat_average"] == "4.0"
    assert rows[1]["top_categories"] == "Pet: 6; Home: < 5"


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
