"""Issue 25 deploy: the documented way from a fresh server to a running service, followed as
an operator would (README: Production) on a database of its own.

The environment file, then `deploy/manage migrate`, `collectstatic` and `bootstrap`; the
processes started from the Procfile by honcho (not from commands written here); nginx with the
shipped config/nginx.conf over HTTPS, with a certificate made here. Then: HTTPS serves the app
and Django admin's styles, plain HTTP redirects to it but answers the health checks, a second
API server started as the Procfile starts one refuses to share the first one's port, the
bootstrapped administrator sets a password through the printed link and signs in to Django
admin (adding an authenticator app), and a new employee signs up under the bootstrapped
company and reaches onboarding."""

from __future__ import annotations

import datetime
import ipaddress
import os
import re
import secrets
import signal
import ssl
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import httpx
import psycopg
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from django.conf import settings
from django.db import connection
from honcho.environ import parse, parse_procfile
from playwright.sync_api import Browser, Page, expect

from bench.layouts import BACKEND_DIR, HOST
from e2e.conftest import PASSWORD, VIEWPORTS, _nginx, _redis_url, _wait_until_up, free_port
from e2e.journeys import admin_sign_in

REPO_DIR = BACKEND_DIR.parent
HONCHO = REPO_DIR / ".venv" / "bin" / "honcho"
MANAGE = REPO_DIR / "deploy" / "manage"
ADMIN_EMAIL = "ops@acme.example"
ADMIN_PASSWORD = "Fresh-Server-Admin-42"
# What every command here runs with besides the environment file: nothing of the test
# process's own settings (DJANGO_SETTINGS_MODULE=config.settings_test, DATABASE_URL, ...).
BASE_ENV = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": "/tmp"}


@dataclass
class Site:
    folder: Path
    env_file: Path
    public_url: str  # nginx over HTTPS, the app's PUBLIC_URL
    http_url: str  # nginx over plain HTTP
    http_port: int
    https_port: int
    api_port: int
    events_port: int
    certificate: Path
    key: Path
    acme_webroot: Path  # readable by nginx's workers (nobody), unlike tmp_path


@contextmanager
def _fresh_database(folder: Path) -> Iterator[str]:
    """A DATABASE_URL naming a database created empty for this test (on the test run's
    PostgreSQL server, else an SQLite file in `folder`), dropped after it."""
    db = settings.DATABASES["default"]
    if connection.vendor != "postgresql":
        yield f"sqlite:///{folder / 'concierge.sqlite3'}"
        return
    name = f"deploy_{os.getpid()}_{secrets.token_hex(3)}"
    server = {
        "host": db["HOST"] or HOST,
        "port": db["PORT"] or 5432,
        "user": db["USER"],
        "password": db["PASSWORD"] or None,
    }
    with psycopg.connect(dbname="postgres", autocommit=True, **server) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    password = f":{quote(db['PASSWORD'], safe='')}" if db["PASSWORD"] else ""
    try:
        yield f"postgres://{quote(db['USER'], safe='')}{password}@{server['host']}:{server['port']}/{name}"
    finally:
        with psycopg.connect(dbname="postgres", autocommit=True, **server) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _self_signed_certificate(folder: Path) -> tuple[Path, Path]:
    """A certificate for localhost and 127.0.0.1, valid for a day, and its key (PEM files)."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address(HOST))]
            ),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_file, key_file = folder / "certificate.pem", folder / "key.pem"
    cert_file.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    key_file.chmod(0o600)
    return cert_file, key_file


def _manage(site: Site, *args: str, stdin: str | None = None) -> str:
    """`deploy/manage ...` with the site's environment file, as an operator runs it."""
    result = subprocess.run(  # noqa: S603 (our own script)
        [str(MANAGE), *args],
        env={**BASE_ENV, "ENV_FILE": str(site.env_file)},
        input=stdin,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert result.returncode == 0, f"manage.py {args[0]}:\n{result.stdout}\n{result.stderr}"
    return result.stdout


def _api_health(site: Site) -> int:
    """The API server's own answer to the health check (as named in ALLOWED_HOSTS)."""
    url = f"http://{HOST}:{site.api_port}/api/v1/health"
    return httpx.get(url, headers={"Host": "localhost"}).status_code


def _wait_for_api(site: Site, honcho: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if honcho.poll() is not None:
            raise AssertionError(f"honcho exited ({honcho.returncode}):\n{log.read_text()}")
        try:
            if _api_health(site) == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    raise AssertionError(f"The API server did not answer in time:\n{log.read_text()}")


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    """The settings of a new installation (an environment file), on an empty database."""
    http_port, https_port, api_port, events_port = (free_port() for _ in range(4))
    public_url = f"https://localhost:{https_port}"
    certificate, key = _self_signed_certificate(tmp_path)
    with (
        _fresh_database(tmp_path) as database_url,
        tempfile.TemporaryDirectory(prefix="deploy-acme-") as acme_webroot,
    ):
        Path(acme_webroot).chmod(0o755)
        env_file = tmp_path / "concierge.env"
        env_file.write_text(
            "\n".join(
                [
                    "DEBUG=false",
                    f"SECRET_KEY={secrets.token_urlsafe(50)}",
                    f"PUBLIC_URL={public_url}",
                    "ALLOWED_HOSTS=localhost",
                    f"DATABASE_URL={database_url}",
                    f"REDIS_URL={_redis_url()}",
                    f"EVENTS_CHANNEL=deploy-{os.getpid()}:events",
                    "DEFAULT_FROM_EMAIL='Acme Concierge <no-reply@acme.example>'",
                    f"TRUSTED_PROXIES={HOST}",
                    f"VAR_DIR={tmp_path / 'var'}",
                    "DB_POOL_MAX=4",
                    "LOG_LEVEL=WARNING",
                    f"API_PORT={api_port}",
                    f"EVENTS_PORT={events_port}",
                    "API_WORKERS=1",
                    "",
                ]
            )
        )
        yield Site(
            folder=tmp_path,
            env_file=env_file,
            public_url=public_url,
            http_url=f"http://localhost:{http_port}",
            http_port=http_port,
            https_port=https_port,
            api_port=api_port,
            events_port=events_port,
            certificate=certificate,
            key=key,
            acme_webroot=Path(acme_webroot),
        )


def test_from_a_fresh_server_to_a_running_service(browser: Browser, site: Site) -> None:
    """Issue 25 deploy: migrate, collectstatic and bootstrap on an empty database; the Procfile
    under honcho behind the shipped nginx with TLS; the admin and a new employee sign in."""
    started = time.monotonic()
    _manage(site, "migrate", "--noinput")
    _manage(site, "collectstatic", "--noinput")
    printed = _manage(
        site,
        "bootstrap",
        "--company-name", "Acme Corp", "--company-slug", "acme",
        "--admin-email", ADMIN_EMAIL, "--admin-first-name", "Olive",
    )  # fmt: skip
    link = re.search(r"https://\S+(/reset-password/\S+)", printed)
    assert link, printed
    assert f"{site.public_url}/sign-up/acme" in printed
    again = _manage(site, "bootstrap", "--company-name", "Acme Corp", "--company-slug", "acme",
                    "--admin-email", ADMIN_EMAIL)  # fmt: skip
    assert again.strip().endswith("Nothing changed."), again
    prepared = time.monotonic() - started

    log = site.folder / "honcho.log"
    with log.open("wb") as output:
        honcho = subprocess.Popen(  # noqa: S603 (honcho with the repository's Procfile)
            [str(HONCHO), "start", "--no-colour", "-f", str(REPO_DIR / "Procfile"),
             "-e", str(site.env_file), "-d", str(REPO_DIR)],
            cwd=REPO_DIR,
            env=BASE_ENV,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
    nginx = None
    try:
        _wait_for_api(site, honcho, log)
        nginx = _nginx(
            site.http_port,
            f"http://{HOST}:{site.api_port}",
            f"http://{HOST}:{site.events_port}",
            site.folder,
            LISTEN_TLS=[f"{HOST}:{site.https_port}"],
            TLS_CERTIFICATE=[str(site.certificate)],
            TLS_CERTIFICATE_KEY=[str(site.key)],
            PUBLIC_URL=[site.public_url],
            ACME_WEBROOT=[str(site.acme_webroot)],
        )
        _wait_until_up(site.http_url, nginx)  # the health check, over plain HTTP
        _over_http_and_https(site)
        _second_api_server_refused(site)
        _admin_signs_in(browser, site, link.group(1))
        _employee_signs_up(browser, site)
    finally:
        if nginx is not None:
            nginx.terminate()
            nginx.wait(timeout=10)
        _stop(honcho)
    assert honcho.returncode is not None
    print(f"\nprepared (migrate, collectstatic, bootstrap) in {prepared:.1f} s")


def _over_http_and_https(site: Site) -> None:
    """HTTPS answers the app and Django admin's stylesheet with HSTS; plain HTTP redirects to
    PUBLIC_URL except the health checks and the certificate authority's challenges."""
    trusted = ssl.create_default_context(cafile=str(site.certificate))
    with httpx.Client(base_url=site.public_url, verify=trusted) as https:
        home = https.get("/sign-in")
        assert home.status_code == 200
        assert 'id="root"' in home.text
        assert home.headers["strict-transport-security"].startswith("max-age=31536000")
        css = https.get("/static/admin/css/base.css")
        assert css.status_code == 200, "collectstatic: Django admin must be styled"
        assert "text/css" in css.headers["content-type"]
        ready = https.get("/api/v1/health/ready")
        assert ready.status_code == 200
        assert ready.json()["status"] == "ok", ready.json()
        assert https.get("/admin/login/").status_code == 200  # no redirect loop behind nginx
    with httpx.Client(base_url=site.http_url) as http:
        for path in ("/", "/admin/", "/sign-up/acme?x=1"):
            moved = http.get(path)
            assert moved.status_code == 301, path
            assert moved.headers["location"] == f"{site.public_url}{path}"
        for path in ("/api/v1/health", "/api/v1/health/ready"):
            answer = http.get(path)
            assert answer.status_code == 200, path
            assert "strict-transport-security" not in answer.headers
        # A certificate renewal's challenge (certbot --webroot), over plain HTTP.
        challenge = site.acme_webroot / ".well-known" / "acme-challenge" / "token-1"
        challenge.parent.mkdir(parents=True, mode=0o755)
        challenge.parent.parent.chmod(0o755)
        challenge.write_text("token-1.thumbprint")
        answer = http.get("/.well-known/acme-challenge/token-1")
        assert (answer.status_code, answer.text) == (200, "token-1.thumbprint")


def _second_api_server_refused(site: Site) -> None:
    """The Procfile's API command, run again while the first server listens, refuses to start
    beside it (granian would share the port through SO_REUSEPORT); the first keeps answering."""
    command = parse_procfile((REPO_DIR / "Procfile").read_text()).processes["api"]
    env = {**BASE_ENV, **parse(site.env_file.read_text()), "PORT_WAIT_SECONDS": "1"}
    second = subprocess.run(  # noqa: S603 (the Procfile's command)
        ["sh", "-c", command], cwd=REPO_DIR, env=env, capture_output=True, text=True, timeout=60
    )
    assert second.returncode == 1, second.stdout + second.stderr
    assert f"127.0.0.1:{site.api_port} is still in use after 1 s" in second.stderr
    # One listening socket on the port: the first server's one worker (API_WORKERS=1).
    listening = subprocess.run(
        ["ss", "-Hltn", f"sport = :{site.api_port}"], capture_output=True, text=True, check=True
    )
    assert len(listening.stdout.splitlines()) == 1, listening.stdout
    assert _api_health(site) == 200


def _admin_signs_in(browser: Browser, site: Site, link_path: str) -> None:
    """The bootstrapped administrator sets a password through the printed link, signs in to
    Django admin, adds an authenticator app there and reaches the styled admin."""
    context = browser.new_context(
        base_url=site.public_url, ignore_https_errors=True, viewport=VIEWPORTS["desktop"]
    )
    page = context.new_page()
    try:
        page.goto(link_path)
        page.get_by_label("New password", exact=True).fill(ADMIN_PASSWORD)
        page.get_by_label("Confirm", exact=False).fill(ADMIN_PASSWORD)
        page.get_by_role("button", name="Update password").click()
        expect(page.get_by_text(re.compile("Your password has been updated"))).to_be_visible()

        page.goto("/admin/")
        expect(page).to_have_url(re.compile(r"/admin/login/\?next=/admin/$"))
        admin_sign_in(page, ADMIN_EMAIL, ADMIN_PASSWORD)
        assert _admin_styled(page)
        page.goto("/admin/accounts/company/")
        expect(page.locator("#result_list")).to_contain_text("Acme Corp")
    finally:
        context.close()


def _admin_styled(page: Page) -> bool:
    return page.evaluate(
        """() => [...document.styleSheets].some(
            (sheet) => sheet.href && sheet.href.endsWith('/static/admin/css/base.css')
                && sheet.cssRules.length > 0)"""
    )


def _employee_signs_up(browser: Browser, site: Site) -> None:
    """A new employee signs up at /sign-up/acme and reaches onboarding."""
    context = browser.new_context(
        base_url=site.public_url, ignore_https_errors=True, viewport=VIEWPORTS["desktop"]
    )
    page = context.new_page()
    try:
        page.goto("/sign-up/acme")
        expect(page.get_by_role("heading", level=1, name="Join Acme Corp")).to_be_visible()
        page.get_by_label("First name").fill("Nova")
        page.get_by_label("Last name").fill("Hire")
        page.get_by_role("textbox", name="Email").fill("nova.hire@acme.example")
        page.get_by_label("Password", exact=True).fill(PASSWORD)
        page.get_by_role("button", name="Create account").click()
        expect(page).to_have_url(re.compile(r"/welcome/"))
    finally:
        context.close()


def _stop(honcho: subprocess.Popen) -> None:
    """SIGTERM to honcho, which stops every process of the Procfile (SIGKILL after 5 s)."""
    if honcho.poll() is None:
        honcho.send_signal(signal.SIGTERM)
        try:
            honcho.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(honcho.pid, signal.SIGKILL)
            honcho.wait()
