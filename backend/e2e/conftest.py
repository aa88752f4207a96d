"""Browser tests: Debian's Chromium driven by Playwright against the production server layout
(README: Production): granian serving the API, uvicorn serving the live event stream, Redis
between them, and nginx in front routing /api/v1/events as the load balancer does, all on the
test database."""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from unittest.mock import patch
from urllib.parse import urlsplit

import httpx
import pytest
import redis
from django.conf import settings
from django.core.management import call_command
from django.db import connection, transaction
from django.test import override_settings
from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Locator,
    Page,
    Playwright,
    Response,
    expect,
)

from bench.layouts import BACKEND_DIR, HOST, Layout, LayoutSpec, free_port
from concierge.accounts.models import Company, User
from concierge.live.tests.servers import server_database_url
from concierge.notifications.background import worker_new
from concierge.notifications.outbox import OutboxItem, outbox_list
from config import nginx_template
from conftest import written_tables, written_tables_empty
from e2e.a11y import expect_axe_clean

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

# Debian's headless shell drives the browser tests: the same engine as Chromium without the
# windowing parts it would run off screen (about a third less time per test). It has no PDF
# viewer and no Push API, so the tests of those use the full browser (`full_chromium`).
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium-headless-shell")
FULL_CHROMIUM = os.environ.get("CHROMIUM_FULL_PATH", "/usr/bin/chromium")
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


# What no page may print: a script or style the Content-Security-Policy refused, or one that came
# with another type (a missing file, answered with a page).
_REFUSED = ("Content Security Policy", "because its MIME type")
# The web app's and Django admin's own files: none may be missing.
_OWN_FILES = re.compile(
    r"/(assets|static|icons)/|/(favicon\.svg|manifest\.webmanifest|sw\.js|offline\.\w+)$"
)


@pytest.fixture
def context(context: BrowserContext) -> Iterator[BrowserContext]:
    """The test's browser context, whose every page is watched: an exception no code caught, a
    refusal above or a file of the app's own that failed fails the test."""
    problems: list[str] = []

    def on_console(page: Page, message: ConsoleMessage) -> None:
        if message.type == "error" and any(text in message.text for text in _REFUSED):
            problems.append(f"{page.url}: {message.text}")

    def on_response(response: Response) -> None:
        if response.status >= 400 and _OWN_FILES.search(urlsplit(response.url).path):
            problems.append(f"{response.url}: {response.status}")

    def watch(page: Page) -> None:
        page.on("pageerror", lambda error: problems.append(f"{page.url}: uncaught {error}"))
        page.on("console", lambda message: on_console(page, message))
        page.on("response", on_response)

    context.on("page", watch)
    yield context
    assert not problems, "The browser reported:\n" + "\n".join(problems)


@pytest.fixture(scope="session")
def full_chromium(playwright: Playwright) -> Iterator[Browser]:
    """Debian's full Chromium, for tests of its PDF viewer or of web push."""
    browser = playwright.chromium.launch(executable_path=FULL_CHROMIUM, args=CHROMIUM_ARGS)
    yield browser
    browser.close()


@pytest.fixture
def full_chromium_page(full_chromium: Browser, browser_context_args: dict) -> Iterator[Page]:
    """A page of the full Chromium (`full_chromium`), set up as `page` is."""
    context = full_chromium.new_context(**browser_context_args)
    yield context.new_page()
    context.close()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "both_viewports: run the browser test at phone size too (see VIEWPORTS)"
    )
    config.addinivalue_line(
        "markers",
        "phone_screenshots: run at phone size too when E2E_PHONE_SCREENSHOTS=1 (make screenshots)",
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Every browser test runs at desktop size. One marked `both_viewports` (a test, or a module
    through `pytestmark`) runs at phone size as well: it proves something a phone shows
    differently (the bottom bar, full-width drawers, tabs instead of columns, the docked
    composer, what fits, is hidden or is loaded on small screens), it is the accessibility
    module (axe, focus and the keyboard on every screen, at both sizes), or its issue asks for
    it at both sizes. One marked `phone_screenshots` takes screenshots worth looking at on a
    phone, but proves nothing a phone does differently: it runs at phone size only for
    `make screenshots` (E2E_PHONE_SCREENSHOTS=1)."""
    if "viewport_name" in metafunc.fixturenames:
        marked = metafunc.definition.get_closest_marker
        both = marked("both_viewports") is not None or (
            marked("phone_screenshots") is not None
            and os.environ.get("E2E_PHONE_SCREENSHOTS") == "1"
        )
        names = list(VIEWPORTS) if both else ["desktop"]
        metafunc.parametrize("viewport_name", names, ids=names, indirect=True)


@pytest.fixture
def viewport_name(request: pytest.FixtureRequest) -> str:
    """'desktop' or 'mobile', a key of VIEWPORTS (see pytest_generate_tests)."""
    return request.param


@pytest.fixture
def service_workers() -> str:
    """Playwright's `service_workers`: 'block', but in the installable app's own tests ('allow'
    there). Installing the app's worker, and caching its shell, in every new browser context
    is work no other test looks at."""
    return "block"


@pytest.fixture
def browser_context_args(
    browser_context_args: dict, viewport_name: str, base_url: str, service_workers: str
) -> dict:
    # base_url per test: a module serving its own build (`custom_app`) overrides it, and the
    # plugin's session-wide arguments keep the first one they saw.
    return {
        **browser_context_args,
        "viewport": VIEWPORTS[viewport_name],
        "base_url": base_url,
        "service_workers": service_workers,
    }


# As in production: granian, 2 workers x 4 threads, for the API; one uvicorn for the stream.
PRODUCTION_LAYOUT = LayoutSpec(
    "e2e", "granian (API) + uvicorn (events)", "granian", 2, 4, events_workers=1
)


def _redis_url() -> str:
    url = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
    try:
        with redis.Redis.from_url(url, socket_connect_timeout=2) as client:
            client.ping()
    except redis.RedisError as exc:
        pytest.exit(f"The browser tests need Redis (REDIS_URL, {url}): {exc}", returncode=1)
    return url


def nginx_config(
    listen: int, api: Sequence[str], events: Sequence[str], **settings: Sequence[str]
) -> str:
    """config/nginx.conf filled in (config/nginx_template.py): listening on `listen`, in front
    of the API servers `api` and the events servers `events` (URLs or host:port), plus any
    other template `settings` (LISTEN_TLS=[...], TLS_CERTIFICATE=[...], ...)."""
    return nginx_template.render(
        {
            "LISTEN": [f"{HOST}:{listen}"],
            "API": [url.removeprefix("http://") for url in api],
            "EVENTS": [url.removeprefix("http://") for url in events],
            **settings,
        }
    )


def nginx_binary() -> str:
    return shutil.which("nginx") or "/usr/sbin/nginx"


def _nginx(
    listen: int,
    api: str | Sequence[str],
    events: str | Sequence[str],
    folder: Path,
    **settings: Sequence[str],
) -> subprocess.Popen:
    """nginx with config/nginx.conf in front of one API and one events server (URLs), or of
    several of each (lists of URLs), with any other template `settings`."""
    conf = folder / "nginx.conf"
    conf.write_text(
        nginx_config(
            listen,
            [api] if isinstance(api, str) else api,
            [events] if isinstance(events, str) else events,
            **settings,
        )
    )
    return subprocess.Popen(
        [nginx_binary(), "-p", str(folder), "-c", str(conf), "-g", "daemon off;"],
        start_new_session=True,
    )


def _wait_until_up(url: str, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"nginx exited ({process.returncode})")
        try:
            if httpx.get(f"{url}/api/v1/health", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"{url} did not answer in time")


@pytest.fixture(scope="session")
def server_outbox(tmp_path_factory) -> Path:
    """The outbox folder the servers write to (emptied before each test)."""
    return tmp_path_factory.mktemp("server-outbox")


# The servers' cache prefix and live-event channel (config/settings_test.py).
SERVER_PREFIX = f"e2e-{os.getpid()}"


def _publish_to_servers(redis_url: str) -> None:
    """What the tests publish reaches the servers' streams: same Redis, same channel; and
    what they write makes the servers' cached reads stale: same cache."""
    settings.REDIS_URL = redis_url
    settings.EVENTS_CHANNEL = f"{SERVER_PREFIX}:events"
    server_cache = {
        "BACKEND": "concierge.common.cache.RedisCache",
        "LOCATION": redis_url,
        "KEY_PREFIX": SERVER_PREFIX,
    }
    override_settings(CACHES={"default": server_cache}).enable()


@pytest.fixture(scope="session")
def static_root(tmp_path_factory) -> Path:
    """Django admin's styles and scripts, collected as a deployment does (`collectstatic`)."""
    folder = tmp_path_factory.mktemp("static")
    with override_settings(STATIC_ROOT=str(folder)):
        call_command("collectstatic", interactive=False, verbosity=0)
    return folder


def _server_env(public_url: str, outbox: Path, redis_url: str, static_root: Path) -> dict[str, str]:
    """The environment of a server on the test database, as the production layout runs."""
    return {
        "DJANGO_SETTINGS_MODULE": "config.settings_test",
        "DATABASE_URL": server_database_url(),
        "REDIS_URL": redis_url,
        "TEST_SERVER_CACHE_PREFIX": SERVER_PREFIX,
        "DEBUG": "false",
        "ALLOWED_HOSTS": f"{HOST},localhost",
        "SECURE_SSL_REDIRECT": "false",
        "PUBLIC_URL": public_url,
        "OUTBOX_DIR": str(outbox),
        "MEDIA_ROOT": str(settings.MEDIA_ROOT),
        "STATIC_ROOT": str(static_root),
        "SPA_DIST_DIR": str(settings.SPA_DIST_DIR),
        "TASKS_IN_PROCESS": "false",  # the tests run the worker themselves (outbox_items)
        "REPLY_NOTIFICATION_DELAY_SECONDS": "0",
        "LOG_LEVEL": "WARNING",
    }


@pytest.fixture(scope="session")
def production_servers(django_db_setup, server_outbox, static_root) -> Iterator[str]:
    """Starts the production layout on the test database; its public URL (nginx)."""
    redis_url = _redis_url()
    _publish_to_servers(redis_url)
    listen = free_port()
    # The browser uses the name `localhost` (nginx listens on the loopback address): passkeys
    # are bound to a domain name, and browsers refuse an IP address as WebAuthn's RP ID.
    public_url = f"http://localhost:{listen}"
    env = _server_env(public_url, server_outbox, redis_url, static_root)
    with Layout(PRODUCTION_LAYOUT, env) as layout, tempfile.TemporaryDirectory() as folder:
        nginx = _nginx(listen, layout.api_url, layout.events_url, Path(folder))
        try:
            _wait_until_up(public_url, nginx)
            yield public_url
        finally:
            nginx.terminate()
            nginx.wait(timeout=10)


# One process serving the API, the events and a web app built for the test (see `custom_app`).
CUSTOM_LAYOUT = LayoutSpec("e2e-custom", "uvicorn (everything)", "uvicorn", 1)
FRONTEND_DIR = BACKEND_DIR.parent / "frontend"


def build_web_app(out_dir: Path, **vite_env: str) -> None:
    """Builds the web app into `out_dir` with build-time settings (spec §5 `VITE_*`)."""
    result = subprocess.run(  # noqa: S603 (our own build)
        ["npx", "vite", "build", "--logLevel", "error", "--outDir", str(out_dir), "--emptyOutDir"],
        cwd=FRONTEND_DIR,
        env={**os.environ, "VITE_PRODUCT_NAME": "Concierge", **vite_env},
        capture_output=True,
        text=True,
        timeout=300,
    )
    if result.returncode != 0:
        raise RuntimeError(f"The web app did not build:\n{result.stderr[-4000:]}")


class CustomApp:
    """A server started for one test module: `api_url` answers the API (and serves the web app
    built for it); `web_url`, when asked for, is another origin serving the same web app."""

    def __init__(self, layout: Layout, web_url: str | None) -> None:
        self.api_url = layout.api_url
        self.web_url = web_url or layout.api_url


@pytest.fixture(scope="session")
def custom_app(
    django_db_setup, server_outbox, static_root, tmp_path_factory
) -> Iterator[Callable[..., CustomApp]]:
    """`custom_app(vite={...}, env={...}, cross_origin=False)`: serves the web app (built with
    those build-time settings, when there are any) with those server settings on the test
    database. With
    `cross_origin`, the web app is served from its own origin (nginx) and calls the API on the
    server's: `vite`/`env` values may name `{web}` and `{api}`, replaced by the two origins."""
    redis_url = _redis_url()
    _publish_to_servers(redis_url)
    started: list[contextlib.ExitStack] = []

    def start(
        vite: dict[str, str] | None = None,
        env: dict[str, str] | None = None,
        cross_origin: bool = False,
    ) -> CustomApp:
        stack = contextlib.ExitStack()
        started.append(stack)
        web_port = free_port() if cross_origin else None
        layout = Layout(CUSTOM_LAYOUT, {})
        web = f"http://{HOST}:{web_port}" if web_port else layout.api_url
        names = {"web": web, "api": layout.api_url}
        layout.env.update(_server_env(web, server_outbox, redis_url, static_root))
        layout.env.update({k: v.format(**names) for k, v in (env or {}).items()})
        if vite:
            # Build-time settings need a build of their own; without them, the web app the
            # other servers serve is the same one (a build costs a core for half a minute).
            dist = tmp_path_factory.mktemp("web-app")
            build_web_app(dist, **{k: v.format(**names) for k, v in vite.items()})
            layout.env["SPA_DIST_DIR"] = str(dist)
        stack.enter_context(layout)
        if web_port:
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
            nginx = _nginx(web_port, layout.api_url, layout.events_url, folder)
            stack.callback(lambda: (nginx.terminate(), nginx.wait(timeout=10)))
            _wait_until_up(web, nginx)
        return CustomApp(layout, web if web_port else None)

    yield start
    for stack in reversed(started):
        stack.close()


@pytest.fixture(autouse=True)
def _outbox(settings, server_outbox) -> None:
    for item in server_outbox.iterdir():
        item.unlink()
    settings.OUTBOX_DIR = server_outbox


@pytest.fixture(scope="session")
def base_url(production_servers) -> str:  # used by pytest-playwright's page.goto("/...")
    return production_servers


# Every demo account's password (`manage.py seed_demo` reads it from DEMO_PASSWORD).
DEMO_PASSWORD = "Demo-Passw0rd!"


@pytest.fixture(scope="session")
def _demo_rows(django_db_setup, django_db_blocker) -> dict[str, bytes]:
    """`manage.py seed_demo`'s rows, table by table in COPY's format, seeded once per test
    process (then the tables are emptied again): loading them takes milliseconds, seeding
    most of a second."""
    with django_db_blocker.unblock(), patch.dict(os.environ, {"DEMO_PASSWORD": DEMO_PASSWORD}):
        call_command("seed_demo", stdout=io.StringIO())
        rows = {}
        with connection.cursor() as cursor:
            for table in written_tables(connection):
                with cursor.copy(f"COPY {connection.ops.quote_name(table)} TO STDOUT") as copy:
                    rows[table] = b"".join(bytes(chunk) for chunk in copy)
        written_tables_empty(connection)
    return {table: data for table, data in rows.items() if data}


@pytest.fixture
def demo(transactional_db, _demo_rows: dict[str, bytes]) -> None:
    """The demo companies, accounts, catalogue and surveys (`manage.py seed_demo`), each demo
    account with the password DEMO_PASSWORD. The rows go back as they were written, the
    triggers' own rows included, so no trigger runs again (`session_replication_role`)."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL session_replication_role = replica")
        for table, data in _demo_rows.items():
            with cursor.copy(f"COPY {connection.ops.quote_name(table)} FROM STDIN") as copy:
                copy.write(data)


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


# The scroll position once it stops moving (a thread may still be gliding to its newest message).
_SETTLED_SCROLL = """async () => {
    let last = null
    while (last === null || window.scrollY !== last) {
        last = window.scrollY
        await new Promise((frame) => requestAnimationFrame(() => requestAnimationFrame(frame)))
    }
    return [window.scrollX, window.scrollY]
}"""
_SCROLL_TO = "([x, y]) => window.scrollTo({left: x, top: y, behavior: 'instant'})"


# How far the page is wider than the window, and the first elements that stick out (by tag and
# class, to say where to look).
_SIDEWAYS_OVERFLOW = """() => {
    const width = document.documentElement.clientWidth
    const overflow = document.documentElement.scrollWidth - width
    const describe = (element) => `<${element.tagName.toLowerCase()} class="${element.className}">`
    const outside = overflow <= 0 ? [] : [...document.body.querySelectorAll('*')]
        .filter((element) => element.getBoundingClientRect().right > width + 1)
        .slice(0, 5)
        .map(describe)
    // What sticks out at the left is cut off rather than scrolled to: shown, and not inside
    // a box that clips it (a scrolled row of tabs), nor clipped itself (text for screen readers).
    const clips = (style) =>
        style.overflowX !== 'visible' || style.clipPath !== 'none' || style.clip !== 'auto'
    const clippedByBox = (element) => {
        for (let box = element.parentElement; box && box !== document.body; box = box.parentElement) {
            if (clips(getComputedStyle(box))) return true
        }
        return false
    }
    const cutOff = [...document.body.querySelectorAll('*')]
        .filter((element) => {
            const box = element.getBoundingClientRect()
            if (box.left >= -1 || box.width < 2 || box.height < 2) return false
            const style = getComputedStyle(element)
            return style.visibility !== 'hidden' && !clips(style) && !clippedByBox(element)
        })
        .slice(0, 5)
        .map(describe)
    return {overflow, outside, cutOff}
}"""


def expect_no_sideways_scroll(page: Page) -> None:
    """§2 screens: the page itself never scrolls sideways at any width (wide content, such as
    the desk's table or the filter bar, scrolls inside its own box), and nothing is cut off at
    its left edge."""
    found = page.evaluate(_SIDEWAYS_OVERFLOW)
    assert found["overflow"] <= 0, (
        f"{page.url} is {found['overflow']}px wider than the window; "
        f"sticking out: {', '.join(found['outside'])}"
    )
    assert not found["cutOff"], (
        f"{page.url} cuts off at its left edge: {', '.join(found['cutOff'])}"
    )


def save_screenshot(page: Page, file_stem: str, *, full_page: bool = False) -> None:
    """Writes `var/screenshots/<file_stem>.png` (looked at by people, not compared). A whole
    page is taken in a window as tall as the page, so that the sticky header and composer stand
    where they do when nothing scrolls (a capture beyond the window leaves them where the scroll
    position put them, in the middle of the page); the window and the scroll position are put
    back afterwards. Each screen is also checked as it is shot: the page does not scroll
    sideways, and axe-core finds nothing."""
    expect_no_sideways_scroll(page)
    expect_axe_clean(page, file_stem)
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    path = str(SCREENSHOT_DIR / f"{file_stem}.png")
    size = page.viewport_size
    height = page.evaluate("document.documentElement.scrollHeight") if full_page else 0
    if size is None or height <= size["height"]:
        page.screenshot(path=path, full_page=full_page)
        return
    scrolled = page.evaluate(_SETTLED_SCROLL)
    page.set_viewport_size({"width": size["width"], "height": height})
    try:
        page.screenshot(path=path, full_page=True)
    finally:
        page.set_viewport_size(size)
        page.evaluate(_SCROLL_TO, scrolled)


@pytest.fixture
def screenshot(page, viewport_name) -> Iterator[Callable[[str], None]]:
    def take(name: str) -> None:
        save_screenshot(page, f"{name}-{viewport_name}", full_page=True)

    yield take


def wait_until(page, condition: Callable[[], bool], timeout_ms: int = 5000) -> None:
    """Waits for a server-side condition (an outbox file, a stored row) while the page runs."""
    waited = 0
    while not condition():
        if waited >= timeout_ms:
            raise AssertionError("Condition not met in time")
        page.wait_for_timeout(100)
        waited += 100


# --------------------------------------------------------------------------- the request drawer


def settle(page: Page) -> None:
    """Waits until the drawer body stops scrolling: it scrolls smoothly to the newest message,
    and a press whose pointer-up lands after the chip moved away is (rightly) not a press."""
    body = page.locator("[data-drawer-body]")
    last = None
    for _ in range(30):
        top = body.evaluate("el => el.scrollTop")
        if top == last:
            return
        last = top
        page.wait_for_timeout(100)


def asked(page: Page, question: str) -> None:
    """Penny is asking `question` (the current question's form is labelled by it)."""
    expect(page.get_by_role("form", name=question)).to_be_visible()
    settle(page)


def continue_button(page: Page) -> Locator:
    return page.get_by_role("button", name="Continue", exact=True)
