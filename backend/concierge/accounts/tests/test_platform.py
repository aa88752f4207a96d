"""Cross-cutting protections around the account API: rate limits, security headers, the
development outbox (ARCHITECTURE.md §2, §4, §7) and the OpenAPI document (§2, §5)."""

from __future__ import annotations

import pytest
from django.test import Client
from freezegun import freeze_time

from conftest import ApiClient

pytestmark = pytest.mark.django_db

# Fixed-window limits: pin the clock in the middle of a window so the test cannot straddle two.
MID_WINDOW = "2026-03-02 10:00:20"


def test_fourth_sign_in_in_a_minute_is_429(settings, user):
    """ARCHITECTURE §2 rate limits: past the limit sign-in answers 429 with a clear message and
    Retry-After"""
    settings.RATE_LIMITS = {"sign_in": (3, 60)}
    api = ApiClient()
    with freeze_time(MID_WINDOW):
        statuses = [api.sign_in(user.email, "wrong-password-1").status_code for _ in range(3)]
        response = api.sign_in(user.email)

    assert statuses == [401, 401, 401]
    assert response.status_code == 429
    body = response.json()
    assert body["success"] is False
    assert "too many" in body["error"].lower()
    retry_after = int(response["Retry-After"])
    assert 1 <= retry_after <= 60
    assert not response.has_header("Authorization")


def test_rate_limit_resets_in_the_next_window(settings, user):
    """ARCHITECTURE §2 rate limits: after Retry-After seconds the client may try again"""
    settings.RATE_LIMITS = {"sign_in": (3, 60)}
    api = ApiClient()
    with freeze_time(MID_WINDOW):
        for _ in range(3):
            api.sign_in(user.email, "wrong-password-1")
        assert api.sign_in(user.email).status_code == 429
    with freeze_time("2026-03-02 10:01:01"):
        assert api.sign_in(user.email).status_code == 200


def test_rate_limit_is_per_client_address(settings, user):
    """ARCHITECTURE §2 rate limits: one client's attempts do not block another's"""
    settings.RATE_LIMITS = {"sign_in": (3, 60)}
    first = ApiClient(Client(REMOTE_ADDR="10.0.0.1"))
    second = ApiClient(Client(REMOTE_ADDR="10.0.0.2"))
    with freeze_time(MID_WINDOW):
        for _ in range(4):
            first.sign_in(user.email, "wrong-password-1")
        assert first.sign_in(user.email).status_code == 429
        assert second.sign_in(user.email).status_code == 200


def test_rate_limited_attempts_do_not_count_toward_lockout(settings, user):
    """ARCHITECTURE §5 lockout counts sign-in attempts that were checked; refused-by-limit
    attempts never reach the password check"""
    settings.RATE_LIMITS = {"sign_in": (3, 60)}
    api = ApiClient()
    with freeze_time(MID_WINDOW):
        for _ in range(20):
            api.sign_in(user.email, "wrong-password-1")
    user.refresh_from_db()
    assert user.failed_sign_in_count == 3
    assert user.locked_at is None


def test_password_reset_requests_are_rate_limited(settings, user, outbox):
    """ARCHITECTURE §2 rate limits also protect the reset-email sender"""
    settings.RATE_LIMITS = {"password": (2, 60)}
    api = ApiClient()
    with freeze_time(MID_WINDOW):
        codes = [
            api.post("users/password", {"user": {"email": user.email}}).status_code
            for _ in range(3)
        ]
    assert codes == [200, 200, 429]
    assert len(outbox.emails(to=user.email)) == 2


def test_no_rate_limit_when_switched_off(settings, user):
    """ARCHITECTURE §7 configuration: RATE_LIMITS=off disables limits"""
    settings.RATE_LIMITS = None
    api = ApiClient()
    assert all(api.sign_in(user.email).status_code == 200 for _ in range(5))


def _assert_security_headers(response) -> None:
    csp = response["Content-Security-Policy"]
    assert "default-src 'self'" in csp
    assert "frame-ancestors 'none'" in csp
    assert response["X-Frame-Options"] == "DENY"
    assert response["Referrer-Policy"] == "strict-origin-when-cross-origin"
    assert response["X-Content-Type-Options"] == "nosniff"


def test_security_headers_on_spa_response(client):
    """ARCHITECTURE §2 security: the SPA page carries CSP, X-Frame-Options DENY and
    Referrer-Policy"""
    response = client.get("/sign-in")
    assert response.status_code in (200, 503)  # 503 until the SPA is built
    _assert_security_headers(response)


def test_security_headers_on_api_response(api, user):
    """ARCHITECTURE §2 security: API responses carry the same headers"""
    _assert_security_headers(api.sign_in(user.email))
    _assert_security_headers(ApiClient().get("users/current"))


def test_dev_outbox_lists_messages_when_debug(settings, client, user, outbox):
    """ARCHITECTURE §7: with DEBUG, /dev/outbox lists every email and SMS sent"""
    settings.DEBUG = True
    ApiClient().post("users/password", {"user": {"email": user.email}})
    token = outbox.link_token("reset-password", to=user.email)

    response = client.get("/dev/outbox")

    assert response.status_code == 200
    content = response.content.decode()
    assert user.email in content
    assert "Reset your password" in content
    assert token in content


def test_dev_outbox_is_404_without_debug(settings, client, user):
    """ARCHITECTURE §7: /dev/outbox exists only with DEBUG"""
    settings.DEBUG = False
    ApiClient().post("users/password", {"user": {"email": user.email}})
    response = client.get("/dev/outbox")
    assert response.status_code == 404
    assert user.email not in response.content.decode()


def test_openapi_document_and_docs_are_for_staff(client, user):
    """ARCHITECTURE §2: API docs are for staff; others are sent to the admin sign-in"""
    for path in ("/api/v1/openapi.json", "/api/v1/docs"):
        assert client.get(path).status_code == 302
    client.force_login(user)
    assert client.get("/api/v1/docs").status_code == 302


def test_openapi_document_lists_account_calls(client, django_user_model):
    """ARCHITECTURE §2: the OpenAPI 3.1 document at /api/v1/openapi.json covers §7 Account"""
    staff = django_user_model.objects.create_user(
        email="staff@example.com", password="Staff-Passw0rd!", first_name="Sam", is_staff=True
    )
    client.force_login(staff)
    response = client.get("/api/v1/openapi.json")
    assert response.status_code == 200
    paths = response.json()["paths"]
    for path in [
        "/api/v1/users/sign_in",
        "/api/v1/users/sign_up",
        "/api/v1/users/sign_out",
        "/api/v1/users/password",
        "/api/v1/users/current",
        "/api/v1/users/unlock",
        "/api/v1/mfa/send-otp",
        "/api/v1/mfa/verify",
        "/api/v1/mfa",
        "/api/v1/users/onboarding",
    ]:
        assert path in paths, path
