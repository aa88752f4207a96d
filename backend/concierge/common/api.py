"""GET /health: a load balancer's check, and the floor of `make bench`; GET /health/ready:
what each dependency says (`concierge.common.readiness`), for operators and deploy checks."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, HttpResponse
from ninja import Router, Schema, Status

from concierge.common import readiness as readiness_checks
from concierge.common.errors import ApiError
from concierge.common.readiness import CheckStatus, ReadinessStatus
from concierge.common.schemas import ErrorOut

router = Router(tags=["health"])
DATABASE_UNAVAILABLE = "The database is unavailable."


class HealthOut(Schema):
    status: str


class ReadinessOut(Schema):
    status: ReadinessStatus
    checks: dict[str, CheckStatus]


class ServiceUnavailable(ApiError):
    status_code = 503


def _database_ok() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception:  # any database error means "not ready"
        return False
    return True


def database_status() -> CheckStatus:
    return "ok" if _database_ok() else "unavailable"


def cache_status() -> CheckStatus:
    if not settings.REDIS_URL:
        return "not configured"
    key, value = f"ready:{secrets.token_hex(4)}", secrets.token_hex(4)
    try:
        cache.set(key, value, timeout=5)
        ok = cache.get(key) == value
        cache.delete(key)
    except Exception:  # any cache error means "unavailable"
        return "unavailable"
    return "ok" if ok else "unavailable"


@router.get("/health", auth=None, response={200: HealthOut, 503: ErrorOut})
def health(request: HttpRequest):
    """`{"status": "ok"}` when the app is up and its database answers `SELECT 1`, else 503."""
    if not _database_ok():
        raise ServiceUnavailable(DATABASE_UNAVAILABLE)
    return {"status": "ok"}


@router.get("/health/ready", auth=None, response={200: ReadinessOut, 503: ReadinessOut})
def readiness(request: HttpRequest):
    """Each dependency's state: `database` and `storage` (the uploads' disk or bucket, written
    to and deleted) are required, so without either the answer is 503 `unavailable`. Without
    Redis (`cache`) or the mail server (`mail`) the app still serves (rate limits allow,
    presence is empty, emails wait in their tasks): 200 `degraded`. `not configured`: an
    optional dependency that is not set up (no REDIS_URL; no EMAIL_URL, mail to the outbox).
    The storage's and mail server's answers are kept for READINESS_CACHE_SECONDS."""
    status, checks = readiness_checks.readiness()
    return Status(503 if status == "unavailable" else 200, {"status": status, "checks": checks})


class SiteOut(Schema):
    """What the web app shows from the server's configuration."""

    terms_url: str
    privacy_url: str


@router.get("/site", auth=None, response=SiteOut)
def site(request: HttpRequest, response: HttpResponse):
    """The terms of use and privacy policy addresses (TERMS_URL, PRIVACY_URL) that sign-up and
    the footer link to (spec §2 SignUp)."""
    response["Cache-Control"] = "public, max-age=300"
    return {"terms_url": settings.TERMS_URL, "privacy_url": settings.PRIVACY_URL}
