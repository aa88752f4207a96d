"""Hardening 7: a Redis outage degrades the app instead of failing requests. The test runs its
own redis-server, then stops it in the middle."""

from __future__ import annotations

import shutil

import pytest
from django.test import Client

from concierge.servicerequests import services
from conftest import ApiClient

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(not shutil.which("redis-server"), reason="needs redis-server"),
]


def test_hardening_7_redis_outage_degrades_sign_in_desk_writes_and_presence(
    settings, redis_server, user, concierge, caplog
):
    """Hardening 7: with Redis gone, sign-in (rate limits) and the desk (presence, replies,
    notes) keep answering; rate limits allow with a logged warning; readiness says degraded
    while /health stays 200"""
    settings.RATE_LIMITS = {"sign_in": (50, 60)}
    service_request = services.request_create(user=user, name="Find a dog walker")
    desk = ApiClient()
    assert desk.sign_in(concierge.email).status_code == 200
    path = f"concierge/requests/{service_request.pk}"
    assert desk.post(f"{path}/presence").status_code == 200
    assert Client().get("/api/v1/health/ready").json() == {
        "status": "ok",
        "checks": {"database": "ok", "cache": "ok", "mail": "not configured", "storage": "ok"},
    }

    redis_server.stop()

    assert ApiClient().sign_in(user.email).status_code == 200
    assert "Cache unavailable, rate limit skipped" in caplog.text
    assert desk.post(f"{path}/presence").json()["viewers"] == []
    reply = desk.post(f"{path}/messages", {"message": {"body": "On it!"}})
    assert reply.status_code == 201, reply.content
    assert desk.post(f"{path}/notes", {"body": "Called the walker"}).status_code == 201
    assert desk.get(path).status_code == 200
    assert desk.delete(f"{path}/presence").status_code == 200
    assert Client().get("/api/v1/health").status_code == 200
    ready = Client().get("/api/v1/health/ready")
    assert ready.status_code == 200
    assert ready.json() == {
        "status": "degraded",
        "checks": {
            "database": "ok",
            "cache": "unavailable",
            "mail": "not configured",
            "storage": "ok",
        },
    }


def test_hardening_7_readiness_is_503_without_the_database(settings):
    """Hardening 7: readiness reports each dependency; no database means 503 unavailable"""
    settings.REDIS_URL = ""  # the embedded default: no cache server to report on
    from unittest import mock

    from django.db import OperationalError

    with mock.patch("concierge.common.api.connection.cursor", side_effect=OperationalError("down")):
        response = Client().get("/api/v1/health/ready")

    assert response.status_code == 503
    assert response.json() == {
        "status": "unavailable",
        "checks": {
            "database": "unavailable",
            "cache": "not configured",
            "mail": "not configured",
            "storage": "ok",
        },
    }
