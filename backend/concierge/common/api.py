"""GET /health: a load balancer's readiness check, and the floor of `make bench`."""

from __future__ import annotations

from django.db import connection
from django.http import HttpRequest
from ninja import Router, Schema

from concierge.common.errors import ApiError
from concierge.common.schemas import ErrorOut

router = Router(tags=["health"])
DATABASE_UNAVAILABLE = "The database is unavailable."


class HealthOut(Schema):
    status: str


class ServiceUnavailable(ApiError):
    status_code = 503


@router.get("/health", auth=None, response={200: HealthOut, 503: ErrorOut})
def health(request: HttpRequest):
    """`{"status": "ok"}` when the app is up and its database answers `SELECT 1`, else 503."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any database error means "not ready"
        raise ServiceUnavailable(DATABASE_UNAVAILABLE) from exc
    return {"status": "ok"}
