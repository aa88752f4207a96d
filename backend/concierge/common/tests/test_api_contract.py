"""Hardening 14: under /api/v1 errors are the API's JSON body, and the OpenAPI document is
true: schemathesis sends generated requests to every operation and checks each answer (no
server error; status code, content type and body as documented). Bounded to a few examples
per operation so it stays within the test run's budget."""

from __future__ import annotations

import pytest
import schemathesis
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import Client
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)

from concierge.accounts.services.identity import user_sign_in
from concierge.servicerequests import services as request_services
from config.api import api
from conftest import CompanyFactory, UserFactory

schema = schemathesis.openapi.from_dict(api.get_openapi_schema())
schema.app = WSGIHandler()
# Signing out would end the session the other operations use.
schema = schema.exclude(path="/api/v1/users/sign_out")
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    negative_data_rejection,
]


@pytest.fixture
def _keep_test_connection():
    """Like Django's test client: requests must not close the test's database connection."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def auth_headers(db, _keep_test_connection) -> dict[str, str]:
    """A concierge who is also an employee with a request, signed in."""
    company = CompanyFactory(slug="acme")
    person = UserFactory(email="casey@example.com", companies=[company], groups=["Concierges"])
    request_services.request_create(user=person, name="Find a dog walker")
    result = user_sign_in(email=person.email, password="correct-horse-battery-42")
    # The WSGI transport hands a body over as sent, so it asks for it plain (gzip is
    # test_compression's).
    return {"Authorization": f"Bearer {result.token}", "Accept-Encoding": "identity"}


@schema.parametrize()
@settings(
    max_examples=8,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
@pytest.mark.django_db
def test_hardening_14_every_operation_answers_as_documented(case, auth_headers):
    """Hardening 14: generated requests to every operation get documented answers"""
    case.call_and_validate(headers=auth_headers, checks=CHECKS)


@pytest.mark.django_db
def test_hardening_14_unknown_api_path_is_a_json_404():
    """Hardening 14: a path under /api/v1 that no operation owns is a JSON 404, not HTML"""
    response = Client().get("/api/v1/no-such-thing")

    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"success": False, "error": "Not found"}


@pytest.mark.django_db
def test_hardening_14_bad_request_under_the_api_is_json(settings):
    """Hardening 14: a 400 under /api/v1 (here an unknown Host) is the JSON error body"""
    response = Client(HTTP_HOST="evil.example").get("/api/v1/health")

    assert response.status_code == 400
    assert response.json()["success"] is False


@pytest.mark.django_db
def test_hardening_14_errors_outside_the_api_stay_pages():
    """Hardening 14: the admin's 404 is still Django's page"""
    response = Client().get("/admin/no-such-page/")
    assert response["Content-Type"].startswith("text/html")
