"""Browser tests for issue 8 (fast on a phone): a signed-in page's first load.

The document's first script (frontend/src/early.ts) starts a signed-in page's first API requests
as the page arrives; the app's API client takes each answer over (app/firstScreenRequests.ts).
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, Request, Route, expect

from e2e.conftest import DEMO_PASSWORD, wait_until
from e2e.journeys import sign_in_to
from e2e.test_offerings import DEMO_EMAIL

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.both_viewports]

# What /dashboard asks for first (firstScreenRequests.ts, held to the route loaders by its test).
DASHBOARD_FIRST_REQUESTS = {
    "/api/v1/users/current",
    "/api/v1/site",
    "/api/v1/company/access",
    "/api/v1/requests/unread_count",
    "/api/v1/requests/in_progress",
    "/api/v1/requests/open",
    "/api/v1/recommended_request_categories",
    "/api/v1/survey_categories",
}


@pytest.mark.usefixtures("demo")
def test_first_requests_leave_together_even_when_the_app_code_comes_first(page: Page) -> None:
    """Issue 8: /dashboard's first API requests all leave at once, from the document's first
    script, even when the app's own code arrives before that script does; the app takes each
    answer over instead of asking again, one round trip after another."""
    sign_in_to(page, "/dashboard", DEMO_EMAIL, DEMO_PASSWORD)
    page.goto("about:blank")  # nothing of the first visit is still on its way
    events: list[tuple[str, str]] = []
    framework_loaded: list[Request] = []
    held: list[Route] = []

    def first_screen_path(request: Request) -> str | None:
        path = urlsplit(request.url).path
        return path if path in DASHBOARD_FIRST_REQUESTS else None

    def on_request(request: Request) -> None:
        if path := first_screen_path(request):
            events.append(("sent", path))

    def on_finished(request: Request) -> None:
        if "/assets/framework-" in request.url:
            framework_loaded.append(request)
        if path := first_screen_path(request):
            events.append(("answered", path))

    page.on("request", on_request)
    page.on("requestfinished", on_finished)
    page.route(re.compile(r"/assets/early-[\w-]+\.js$"), lambda route: held.append(route))
    page.goto("/dashboard", wait_until="commit")
    wait_until(page, lambda: bool(held and framework_loaded))
    # The app's code is here and the early script is not: the app must not go first.
    page.wait_for_timeout(300)
    held[0].continue_()

    expect(page.get_by_role("main")).to_be_visible()
    wait_until(page, lambda: sum(kind == "answered" for kind, _ in events) >= 8)
    answers = [index for index, (kind, _) in enumerate(events) if kind == "answered"]
    # All eight left before the first answer came back...
    assert sorted(path for _, path in events[: answers[0]]) == sorted(DASHBOARD_FIRST_REQUESTS)
    # ...and the app asked for none of them again.
    asked = [path for kind, path in events[: answers[7] + 1] if kind == "sent"]
    assert sorted(asked) == sorted(DASHBOARD_FIRST_REQUESTS)


@pytest.mark.usefixtures("demo")
def test_dashboard_first_load_is_eight_scripts_and_no_favicon_request(page: Page) -> None:
    """Issue 8: /dashboard's first screen takes the document, eight scripts, one font and its
    eight API requests; the favicon comes inside the document (a phone has six connections, and
    each request more holds up the app's code)."""
    sign_in_to(page, "/dashboard", DEMO_EMAIL, DEMO_PASSWORD)
    page.goto("about:blank")
    asked: list[str] = []
    page.on("request", lambda request: asked.append(urlsplit(request.url).path))
    page.goto("/dashboard")
    expect(page.get_by_role("main")).to_be_visible()
    first_screen = list(asked)
    scripts = [path for path in first_screen if path.endswith(".js")]
    assert len(scripts) == 8, scripts
    assert not [path for path in first_screen if "favicon" in path]
    assert len([path for path in first_screen if path.endswith(".woff2")]) <= 1
    assert {path for path in first_screen if path.startswith("/api/")} == DASHBOARD_FIRST_REQUESTS
