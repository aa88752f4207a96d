"""Error reporting (spec §8): an API server error reaches the error-reporting service once,
with no password, token or message text in it. A local HTTP server stands in for Sentry's
ingestion API and records the envelopes it receives."""

from __future__ import annotations

import gzip
import json
import secrets
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import brotli
import pytest
import sentry_sdk
from django.test import Client

from concierge.common.reporting import error_reporting_init
from concierge.servicerequests import services as request_services
from conftest import DEFAULT_PASSWORD, ApiClient

pytestmark = pytest.mark.django_db
# Made at run time, so the reports' source-code context cannot contain them by accident.
MESSAGE_TEXT = f"Please walk Rex at gate {secrets.token_hex(6)}"
QUERY_TOKEN = secrets.token_urlsafe(12)


class Ingestion:
    """Records every envelope POSTed to /api/<project>/envelope/."""

    def __init__(self) -> None:
        self.envelopes: list[bytes] = []
        ingestion = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                # The SDK compresses with brotli when it is installed (whitenoise brings it).
                encoding = self.headers.get("Content-Encoding")
                if encoding == "gzip":
                    body = gzip.decompress(body)
                elif encoding == "br":
                    body = brotli.decompress(body)
                ingestion.envelopes.append(body)
                self.send_response(200)
                self.end_headers()
                self.wfile.write(b"{}")

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def dsn(self) -> str:
        return f"http://publickey@127.0.0.1:{self.server.server_port}/1"

    def events(self) -> list[dict]:
        """The error events (not transactions) received."""
        found = []
        for envelope in self.envelopes:
            lines = envelope.split(b"\n")
            for header, payload in zip(lines[1::2], lines[2::2], strict=False):
                if json.loads(header).get("type") == "event":
                    found.append(json.loads(payload))
        return found

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def ingestion() -> Iterator[Ingestion]:
    server = Ingestion()
    error_reporting_init(dsn=server.dsn, environment="test", traces_sample_rate=1.0)
    try:
        yield server
    finally:
        sentry_sdk.get_client().close()
        sentry_sdk.init(dsn=None)
        server.stop()


def test_error_reporting_an_api_500_arrives_once_without_secrets(ingestion, user, monkeypatch):
    """Spec §8 error reporting: an API server error is reported once; the report carries no
    password, bearer token, query-string token or message text"""
    api = ApiClient(Client(raise_request_exception=False))
    assert api.sign_in(user.email, DEFAULT_PASSWORD).status_code == 200
    service_request = request_services.request_create(user=user, name="Find a dog walker")

    def broken(**kwargs):
        raise RuntimeError("the message store is broken")

    monkeypatch.setattr(request_services, "message_create", broken)
    response = api.post(
        f"requests/{service_request.pk}/messages?unlock_token={QUERY_TOKEN}",
        {"message": {"body": MESSAGE_TEXT, "source": "user", "source_name": "Ada"}},
    )
    sentry_sdk.flush(timeout=5)

    assert response.status_code == 500
    assert response.json()["success"] is False
    events = ingestion.events()
    assert len(events) == 1
    assert events[0]["exception"]["values"][-1]["value"] == "the message store is broken"
    everything = b"".join(ingestion.envelopes).decode()
    for secret in (DEFAULT_PASSWORD, api.token, MESSAGE_TEXT, QUERY_TOKEN, user.email):
        assert secret not in everything


def test_error_reporting_client_errors_are_not_reported(ingestion, user):
    """Spec §8: only server errors are reported; a 401 or 422 is not"""
    api = ApiClient()
    api.sign_in(user.email, "wrong-password-1")
    api.post("users/sign_up", {"user": {}})
    sentry_sdk.flush(timeout=5)

    assert ingestion.events() == []


def test_error_reporting_is_off_without_a_dsn(settings):
    """Error reporting is off unless SENTRY_DSN is set"""
    assert settings.SENTRY_DSN == ""
    client = sentry_sdk.get_client()
    assert not client.is_active() or client.dsn is None
