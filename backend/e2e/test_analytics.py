"""Browser tests for analytics (spec §2 route table, §4, §8): the web app built with an analytics
id loads the tag under the Content-Security-Policy, tells it anonymised page views only (a legacy
redirect once, as its destination), and sets and clears the identity. The tag is a stub served by
the test itself that posts back everything it is told."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from playwright.sync_api import Page, expect

from bench.layouts import HOST, free_port
from concierge.accounts.models import User
from concierge.accounts.services.tokens import user_sessions_revoke
from e2e.conftest import PASSWORD
from e2e.journeys import sign_in, sign_in_form_submit

pytestmark = pytest.mark.django_db(transaction=True)

ANALYTICS_ID = "G-E2ETEST"
LEGACY_TOKEN = "legacy-secret-unlock-token"
REQUEST_ID = "918273"

# The stub tag: gtag.js's contract (it reads `window.dataLayer`, then every later push), and each
# entry is posted back to the stub server as the tag would send it on.
STUB_TAG = """
(function () {
  var collect = '%(origin)s/collect';
  var layer = (window.dataLayer = window.dataLayer || []);
  function send(entry) {
    var plain = entry && typeof entry === 'object' && typeof entry.length === 'number'
      ? Array.prototype.slice.call(entry) : entry;
    fetch(collect, { method: 'POST', mode: 'cors', keepalive: true,
      headers: { 'Content-Type': 'text/plain' }, body: JSON.stringify(plain) });
  }
  layer.forEach(send);
  var push = layer.push;
  layer.push = function () {
    for (var i = 0; i < arguments.length; i++) send(arguments[i]);
    return push.apply(layer, arguments);
  };
})();
"""


class StubTag:
    """What the stub analytics service received: the tag requests and the data layer entries."""

    def __init__(self) -> None:
        self.entries: list[object] = []
        self.tag_requests: list[dict[str, str]] = []
        self.lock = threading.Lock()
        port = free_port()
        self.origin = f"http://{HOST}:{port}"
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def _cors(self) -> None:
                self.send_header("Access-Control-Allow-Origin", "*")
                self.send_header("Access-Control-Allow-Headers", "Content-Type")

            def do_OPTIONS(self) -> None:  # noqa: N802 (http.server's name)
                self.send_response(204)
                self._cors()
                self.end_headers()

            def do_GET(self) -> None:  # noqa: N802
                if not self.path.startswith("/gtag/js"):
                    self.send_error(404)
                    return
                with stub.lock:
                    stub.tag_requests.append(
                        {"path": self.path, "referer": self.headers.get("Referer", "")}
                    )
                body = (STUB_TAG % {"origin": stub.origin}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/javascript")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("Content-Length", "0"))
                entry = json.loads(self.rfile.read(length) or b"null")
                with stub.lock:
                    stub.entries.append(entry)
                self.send_response(204)
                self._cors()
                self.end_headers()

        self.server = ThreadingHTTPServer((HOST, port), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def received(self) -> list[object]:
        with self.lock:
            return list(self.entries)

    def page_views(self) -> list[str]:
        return [
            e[2]["page_path"]
            for e in self.received()
            if isinstance(e, list) and e[:2] == ["event", "page_view"]
        ]

    def identities(self) -> list[object]:
        return [
            e[1]["user_id"]
            for e in self.received()
            if isinstance(e, list) and e[0] == "set" and "user_id" in e[1]
        ]


# Session-scoped, as pytest-playwright's base_url they feed is.
@pytest.fixture(scope="session")
def stub_tag() -> Iterator[StubTag]:
    stub = StubTag()
    yield stub
    stub.stop()


@pytest.fixture(scope="session")
def analytics_app(custom_app, stub_tag):
    """The web app built with an analytics id and the stub as its tag; the tag's origin is in
    the server's Content-Security-Policy (ANALYTICS_ORIGINS)."""
    return custom_app(
        vite={
            "VITE_ANALYTICS_ID": ANALYTICS_ID,
            "VITE_REPORT_ANALYTICS": "true",
            "VITE_ANALYTICS_SCRIPT_URL": f"{stub_tag.origin}/gtag/js",
        },
        env={"ANALYTICS_ORIGINS": stub_tag.origin},
    )


@pytest.fixture(scope="session")
def base_url(analytics_app) -> str:
    return analytics_app.web_url


def _wait_for(page: Page, condition, timeout_ms: int = 8000) -> None:
    waited = 0
    while not condition():
        assert waited < timeout_ms, "The stub tag did not receive it in time"
        page.wait_for_timeout(100)
        waited += 100


def test_analytics_tag_gets_anonymised_paths_and_the_identity(
    page: Page, stub_tag: StubTag, acme, make_employee, viewport_name
) -> None:
    """§2/§4/§8 analytics: the tag loads under the CSP; a legacy unlock link is one page view of
    /unlock/:unlockToken; a request page is /requests/:requestId; sign-in sets the identity,
    sign-out and a forced sign-out clear it; no token or id ever reaches the tag."""
    # A script the Content-Security-Policy refused fails the test (conftest's `context`).
    user: User = make_employee(f"dana-{viewport_name}@example.com", company=acme)
    identity = str(user.external_id)
    stub_tag.entries.clear()
    stub_tag.tag_requests.clear()

    page.goto(f"/{LEGACY_TOKEN}/unlock")
    expect(page).to_have_url(re.compile(r"/unlock/" + LEGACY_TOKEN + "$"))
    expect(page.get_by_text(re.compile("unable to unlock your account", re.I))).to_be_visible()
    _wait_for(page, lambda: stub_tag.page_views())
    page.wait_for_timeout(500)  # a second page view of the redirect would have arrived by now
    assert stub_tag.page_views() == ["/unlock/:unlockToken"]
    assert stub_tag.tag_requests[0]["path"] == f"/gtag/js?id={ANALYTICS_ID}"
    configured = [e for e in stub_tag.received() if isinstance(e, list) and e[0] == "config"]
    assert configured == [
        [
            "config",
            ANALYTICS_ID,
            {
                "send_page_view": False,
                "page_location": f"{page.url.split('/unlock')[0]}/unlock/:unlockToken",
            },
        ]
    ]

    sign_in(page, user.email, PASSWORD)
    _wait_for(page, lambda: identity in stub_tag.identities())
    _wait_for(page, lambda: "/dashboard" in stub_tag.page_views())

    page.goto(f"/requests/{REQUEST_ID}")
    _wait_for(page, lambda: "/requests/:requestId" in stub_tag.page_views())

    page.goto("/account")
    page.get_by_role("button", name="Sign Out").click()
    expect(page).to_have_url(re.compile(r"/sign-in$"))
    _wait_for(page, lambda: stub_tag.identities()[-1:] == [None])

    sign_in_form_submit(page, user.email, PASSWORD)
    expect(page).to_have_url(re.compile(r"/dashboard$"))
    _wait_for(page, lambda: stub_tag.identities()[-1:] == [identity])
    # Signed out elsewhere (a password reset) while the app is closed, so that the next page's
    # own calls find it out (an open page's live stream would, and its reset could be cut off
    # by the next page load).
    page.goto("about:blank")
    user_sessions_revoke(user=user)
    page.goto("/requests")
    expect(page).to_have_url(re.compile(r"/sign-in$"))
    _wait_for(page, lambda: stub_tag.identities()[-1:] == [None])

    received = json.dumps(stub_tag.received()) + json.dumps(stub_tag.tag_requests)
    assert LEGACY_TOKEN not in received
    assert REQUEST_ID not in received
    assert set(stub_tag.page_views()) <= {
        "/unlock/:unlockToken",
        "/sign-in",
        "/dashboard",
        "/requests/:requestId",
        "/account",
        "/requests",
    }
