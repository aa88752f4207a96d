"""Issue 25 observability: every request has a request id, in its answer's X-Request-ID and in
every log line written while it is answered, with the signed-in user's id; no line ever
carries a password, a token, an Authorization header or a stream ticket."""

from __future__ import annotations

import contextvars
import io
import json
import logging
import re
from collections.abc import Iterator
from unittest import mock

import pytest
from django.test import Client

from concierge.common.logs import JsonFormatter, RequestContextFilter, TextFormatter, safe_path
from conftest import DEFAULT_PASSWORD, ApiClient

pytestmark = pytest.mark.django_db

HEX_ID = re.compile(r"[0-9a-f]{32}")


class Captured:
    """What the app's log handler (the production format and filter) wrote."""

    def __init__(self, stream: io.StringIO) -> None:
        self.stream = stream

    @property
    def text(self) -> str:
        return self.stream.getvalue()

    def lines(self) -> list[dict]:
        return [json.loads(line) for line in self.text.splitlines() if line.strip()]

    def for_request(self, request_id: str) -> list[dict]:
        return [line for line in self.lines() if line.get("request_id") == request_id]

    def access_line(self, request_id: str) -> dict:
        [line] = [
            line for line in self.for_request(request_id) if line["logger"] == "concierge.request"
        ]
        return line


def _capture(formatter: logging.Formatter) -> Iterator[Captured]:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(formatter)
    handler.addFilter(RequestContextFilter())
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    try:
        yield Captured(stream)
    finally:
        root.removeHandler(handler)
        root.setLevel(level)


@pytest.fixture
def logs() -> Iterator[Captured]:
    yield from _capture(JsonFormatter())


def test_issue_25_observability_a_given_request_id_is_answered_and_on_the_log_line(logs, user):
    """Issue 25 observability: a sane X-Request-ID from the load balancer comes back on the
    answer and is the request id of its log line, with method, route, status and duration."""
    response = Client().post(
        "/api/v1/users/sign_in",
        {"user": {"email": user.email, "password": DEFAULT_PASSWORD}},
        content_type="application/json",
        headers={"X-Request-ID": "edge-7f3a9c2e"},
    )
    assert response.status_code == 200
    assert response["X-Request-ID"] == "edge-7f3a9c2e"
    line = logs.access_line("edge-7f3a9c2e")
    assert line["level"] == "INFO"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00", line["timestamp"])
    assert line["method"] == "POST"
    assert line["route"] == "api/v1/users/sign_in"
    assert line["path"] == "/api/v1/users/sign_in"
    assert line["status"] == 200
    assert line["duration_ms"] >= 0
    assert line["message"].startswith("POST /api/v1/users/sign_in 200 ")


@pytest.mark.parametrize(
    "incoming",
    [None, "", "x" * 129, "has space", "new\nline", "<script>", "-starts-with-dash"],
    ids=["none", "empty", "too-long", "space", "newline", "markup", "dash"],
)
def test_issue_25_observability_a_request_without_a_sane_id_gets_a_new_one(logs, db, incoming):
    """Issue 25 observability: without an X-Request-ID, or with one that is too long or has
    unsafe characters, the app makes one (32 hex digits, like nginx's $request_id); the bad one
    appears nowhere."""
    headers = {} if incoming is None else {"X-Request-ID": incoming}
    response = Client().get("/api/v1/requests/open", headers=headers)
    assert response.status_code == 401
    request_id = response["X-Request-ID"]
    assert HEX_ID.fullmatch(request_id)
    line = logs.access_line(request_id)
    assert (line["route"], line["status"]) == ("api/v1/requests/open", 401)
    if incoming:
        assert incoming not in logs.text


def test_issue_25_observability_every_answer_has_a_request_id_even_a_404_and_a_static_file(logs):
    """Issue 25 observability: answers that never reach a view (an unknown API path, the web
    app's page) carry a request id too, each a different one."""
    ids = set()
    for path in ("/api/v1/no-such-thing", "/dashboard", "/admin/login/"):
        response = Client().get(path)
        ids.add(response["X-Request-ID"])
        assert logs.access_line(response["X-Request-ID"])["path"] == path
    assert len(ids) == 3
    assert logs.access_line(Client().get("/api/v1/no-such-thing")["X-Request-ID"])["route"] == (
        "<unmatched>"
    )


def test_issue_25_observability_a_signed_in_request_logs_its_user_id(logs, signed_in_api, user):
    """Issue 25 observability: the line of a request made with a bearer token names the user
    (by id, never by email)."""
    response = signed_in_api.get("requests/open", headers={"X-Request-ID": "list-open-1"})
    assert response.status_code == 200
    line = logs.access_line("list-open-1")
    assert line["user_id"] == user.pk
    assert line["route"] == "api/v1/requests/open"
    assert user.email not in logs.text


def test_issue_25_observability_lines_written_inside_a_request_carry_its_ids(
    logs, settings, signed_in_api, user
):
    """Issue 25 observability: a warning logged deep inside a view (the rate limit finding the
    cache down) carries the request id and user id of the request that wrote it."""
    settings.RATE_LIMITS = {"message": (30, 60)}
    settings.CACHES = {
        "default": {
            "BACKEND": "concierge.common.cache.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens there
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        }
    }
    from django.core.cache import caches

    try:
        from concierge.servicerequests import services

        service_request = services.request_create(user=user, name="Book a plumber")
        response = signed_in_api.post(
            f"requests/{service_request.pk}/messages",
            {"message": {"body": "Tomorrow works"}},
            headers={"X-Request-ID": "reply-42"},
        )
    finally:
        caches["default"].close()
        settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    assert response.status_code == 201, response.content
    [warning] = [
        line
        for line in logs.for_request("reply-42")
        if line["message"].startswith("Cache unavailable, rate limit skipped")
    ]
    assert warning["level"] == "WARNING"
    assert warning["logger"] == "concierge.cache"
    assert warning["user_id"] == user.pk
    assert logs.access_line("reply-42")["status"] == 201


@pytest.mark.parametrize("formatter", [JsonFormatter, TextFormatter], ids=["json", "text"])
def test_issue_25_observability_no_line_carries_a_password_token_or_ticket(
    formatter, user, settings, tmp_path
):
    """Issue 25 observability: sign-in bodies, bearer and MFA tokens, Authorization headers,
    stream tickets in query strings, upload and reset tokens in paths, and the traceback of a
    500 on such a path never reach the log, in either format."""
    (tmp_path / "index.html").write_text("<!doctype html><title>Concierge</title>")
    settings.SPA_DIST_DIR = tmp_path  # the web app's page, built or not
    secret_password = "S3cret-Passw0rd-xyz"
    user.set_password(secret_password)
    user.save()
    for captured in _capture(formatter()):
        api = ApiClient()
        assert api.sign_in(user.email, secret_password).status_code == 200
        assert api.sign_in(user.email, "Wrong-Passw0rd-abc").status_code == 401
        bearer = api.token
        assert bearer
        ticket = api.post("events/ticket").json()["ticket"]
        # The stream is the events server's: the API server answers 503 (a 5xx line).
        assert Client().get("/api/v1/events", {"ticket": ticket}).status_code == 503
        assert Client().get("/api/v1/events", {"ticket": ticket + "x"}).status_code == 401
        assert api.get("requests/open", headers={"mfa-token": "Mfa-Secret-123456"}).status_code
        reset_token = "Rst0kenAbCdEfGhIjKlMnOpQrStUvWxYz0123456"
        assert Client().get(f"/reset-password/{reset_token}").status_code == 200
        upload_token = "17:1tUpLoAd:SiGnAtUrEaBcDeFgHiJkLmNoPqRsTuVwXyZ012"
        with mock.patch(
            "concierge.uploads.services.upload_receive", side_effect=RuntimeError("disk on fire")
        ):
            broken = Client(raise_request_exception=False).put(
                f"/api/v1/uploads/put/{upload_token}",
                b"file bytes",
                content_type="image/png",
            )
        assert broken.status_code == 500
        logging.getLogger("concierge.test").warning(
            "Someone pasted Authorization: Bearer %s and password=%s", bearer, secret_password
        )
        text = captured.text
        if formatter is JsonFormatter:  # Django's own line of the 5xx has the request id too
            for line in captured.lines():
                if line["logger"] in ("django.request", "concierge.request"):
                    assert HEX_ID.fullmatch(line["request_id"]), line
    for secret in (secret_password, "Wrong-Passw0rd-abc", bearer, ticket, reset_token):
        assert secret not in text
    assert "Mfa-Secret-123456" not in text
    assert upload_token not in text
    assert "1tUpLoAd" not in text
    assert "/reset-password/[redacted]" in text
    assert "/api/v1/uploads/put/[redacted]" in text
    # The 500 is logged with its traceback, on the scrubbed path.
    assert "Internal Server Error: /api/v1/uploads/put/[redacted]" in text
    assert "disk on fire" in text
    assert "/api/v1/events 503" in text


def test_issue_25_observability_json_lines_leave_out_objects_and_secret_named_fields():
    """Issue 25 observability: extra fields that are objects (a request, a header mapping) or
    whose names suggest a secret are not written; plain ones are."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("concierge.test.fields")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        logger.warning(
            "fields",
            extra={
                "request": object(),
                "headers": {"Authorization": "Bearer abc"},
                "auth_token": "tok-123",
                "password_hint": "pw-456",
                "status": 503,
                "route": "api/v1/health",
            },
        )
    finally:
        logger.removeHandler(handler)
        logger.propagate = True
    line = json.loads(stream.getvalue())
    assert line["status"] == 503
    assert line["route"] == "api/v1/health"
    for absent in ("request", "headers", "auth_token", "password_hint"):
        assert absent not in line
    assert "tok-123" not in stream.getvalue()
    assert "pw-456" not in stream.getvalue()


def test_issue_25_observability_paths_lose_tokens_but_keep_words_slugs_and_ids():
    """Issue 25 observability: what a logged path keeps and loses."""
    assert safe_path("/api/v1/requests/123/messages") == "/api/v1/requests/123/messages"
    assert safe_path("/sign-up/acme-corporation-employees") == "/sign-up/acme-corporation-employees"
    assert safe_path("/unlock/AbCdEfGhIjKlMnOpQrSt_-12") == "/unlock/[redacted]"
    assert safe_path("/api/v1/events?ticket=1:2:abc") == "/api/v1/events"
    assert safe_path("/assets/RequestDrawer-C0vBEgu2.js") == "/assets/RequestDrawer-C0vBEgu2.js"
    assert safe_path("/rate/42:1tAbCd:Zx9_Signature-Value") == "/rate/[redacted]"


def test_issue_25_observability_an_admin_session_user_is_named_without_extra_queries(
    logs, user_factory
):
    """Issue 25 observability: a request signed in by the admin's session names its user once
    the app has looked at it (the admin does); a request that never looks (the health check)
    names nobody, and writing its line reads nothing from the database."""
    staff = user_factory(is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(staff)
    admin = client.get("/admin/", headers={"X-Request-ID": "admin-page-1"})
    assert admin.status_code in (200, 302)
    assert logs.access_line("admin-page-1")["user_id"] == staff.pk

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        response = client.get("/api/v1/search-nothing", headers={"X-Request-ID": "no-look-1"})
    assert response.status_code == 404
    line = logs.access_line("no-look-1")
    assert "user_id" not in line
    assert not any("session" in query["sql"].lower() for query in queries.captured_queries)


def test_issue_25_observability_an_error_report_carries_the_request_id():
    """Issue 25 observability: an error sent to Sentry while a request is answered is tagged
    with the request's id, the one in its log lines and its X-Request-ID."""
    from concierge.common.logs import LogContext, log_context_begin, log_context_end
    from concierge.common.reporting import _scrub

    token = log_context_begin(LogContext(request_id="report-7"))
    try:
        event = _scrub({"request": {"method": "GET", "url": "https://x/api/v1/a?ticket=t"}}, {})
    finally:
        log_context_end(token)
    assert event["tags"]["request_id"] == "report-7"
    assert event["request"]["url"] == "https://x/api/v1/a"
    # Outside a request (a fresh context: a stream test's ASGI call hands its context back to
    # the test's thread): no tag.
    assert "tags" not in contextvars.Context().run(_scrub, {}, {})


@pytest.mark.parametrize("access_lines", [True, False])
def test_issue_25_observability_a_servers_choice_of_access_lines_outlives_djangos_logging(
    settings, access_lines
):
    """monitoring.md: a server started with --no-access-log (uvicorn turns its access logger's
    propagation off before the app loads) writes no access line once Django configures its
    logging, so each request is one line (concierge.request); one started with them keeps
    them."""
    from concierge.common.logs import logging_configure

    access = logging.getLogger("uvicorn.access")
    before = access.propagate
    try:
        access.propagate = access_lines  # as uvicorn's Config leaves it
        logging_configure(settings.LOGGING)
        assert access.propagate is access_lines
    finally:
        access.propagate = before
        logging_configure(settings.LOGGING)
