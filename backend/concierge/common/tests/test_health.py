"""GET /health: the load balancer's readiness check (no sign-in, checks the database)."""

from __future__ import annotations

from unittest import mock

import pytest
from django.db import OperationalError
from django.test import Client

pytestmark = pytest.mark.django_db


def test_health_is_ok_without_sign_in(django_assert_num_queries):
    """/health answers 200 {"status": "ok"} to anyone, after one `SELECT 1`"""
    with django_assert_num_queries(1):
        response = Client().get("/api/v1/health")

    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_health_is_503_when_the_database_is_down():
    """/health answers 503 with the error body when the database does not answer"""
    with mock.patch("concierge.common.api.connection.cursor", side_effect=OperationalError("down")):
        response = Client().get("/api/v1/health")

    assert response.status_code == 503
    assert response.json() == {"success": False, "error": "The database is unavailable."}
