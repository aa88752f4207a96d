"""Browser tests: Debian's Chromium driven by Playwright against Django's live server."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator

import pytest
from django.conf import settings

from concierge.accounts.models import Company, User
from concierge.notifications.background import worker_new
from concierge.notifications.outbox import OutboxItem, outbox_list

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
VIEWPORTS = {"desktop": {"width": 1440, "height": 900}, "mobile": {"width": 375, "height": 812}}
PASSWORD = "Sturdy-Passw0rd!"
SCREENSHOT_DIR = settings.VAR_DIR / "screenshots"


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(params=list(VIEWPORTS), ids=list(VIEWPORTS))
def viewport_name(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def browser_context_args(browser_context_args: dict, viewport_name: str) -> dict:
    return {**browser_context_args, "viewport": VIEWPORTS[viewport_name]}


@pytest.fixture(autouse=True)
def _outbox(settings, tmp_path) -> None:
    settings.OUTBOX_DIR = tmp_path / "outbox"


@pytest.fixture(scope="session")
def base_url(live_server) -> str:  # used by pytest-playwright's page.goto("/...")
    return live_server.url


@pytest.fixture
def acme(transactional_db) -> Company:
    return Company.objects.create(slug="acme", name="Acme Corp")


@pytest.fixture
def globex(transactional_db) -> Company:
    return Company.objects.create(slug="globex", name="Globex", requires_mfa=True)


@pytest.fixture
def make_employee(transactional_db) -> Callable[..., User]:
    def make(
        email: str = "dana@example.com",
        *,
        company: Company | None = None,
        onboarded: bool = True,
        **fields,
    ) -> User:
        from django.utils import timezone

        user = User.objects.create_user(
            email=email,
            password=PASSWORD,
            first_name=fields.pop("first_name", "Dana"),
            last_name=fields.pop("last_name", "Reyes"),
            onboarded_at=timezone.now() if onboarded else None,
            **fields,
        )
        if company:
            user.companies.add(company)
        return user

    return make


def outbox_items(kind: str, to: str | None = None) -> list[OutboxItem]:
    """The outbox once the task worker has sent what is due (as `task_worker` would)."""
    worker_new(batch=True).run()
    return [i for i in outbox_list() if i.kind == kind and (to is None or to in i.to)]


def link_from_outbox(to: str, pattern: str) -> str:
    """The path of the newest emailed link matching `pattern`, e.g. r'/unlock/\\S+'."""
    for item in outbox_items("email", to):
        match = re.search(rf"https?://[^/\s]+({pattern})", item.body)
        if match:
            return match.group(1)
    raise AssertionError(f"No email to {to} with a link like {pattern}")


def code_from_sms() -> str:
    items = outbox_items("sms")
    assert items, "No SMS in the outbox"
    match = re.search(r"\b(\d{6})\b", items[0].body)
    assert match, items[0].body
    return match.group(1)


@pytest.fixture
def screenshot(page, viewport_name) -> Iterator[Callable[[str], None]]:
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)

    def take(name: str) -> None:
        page.screenshot(path=str(SCREENSHOT_DIR / f"{name}-{viewport_name}.png"), full_page=True)

    yield take


def wait_until(page, condition: Callable[[], bool], timeout_ms: int = 5000) -> None:
    """Waits for a server-side condition (an outbox file, a stored row) while the page runs."""
    waited = 0
    while not condition():
        if waited >= timeout_ms:
            raise AssertionError("Condition not met in time")
        page.wait_for_timeout(100)
        waited += 100
