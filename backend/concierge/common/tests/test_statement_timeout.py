"""Issue 30 'Desk search can stall the API': web requests run their SQL under a statement
timeout (DB_STATEMENT_TIMEOUT_MS), so a query that would hold an API worker and a database
connection is stopped and answered with a clear error; migrations, the task worker and other
management commands run without it."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import httpx
import psycopg
import pytest
from django.db import connection

from bench.layouts import HOST, Layout, LayoutSpec
from concierge.accounts.services.identity import user_sign_in
from concierge.common.db_errors import STATEMENT_STOPPED
from conftest import DEFAULT_PASSWORD

BACKEND = Path(__file__).resolve().parents[3]
TIMEOUT_MS = 300
# The production API server (config/wsgi.py), one worker.
API_SERVER = LayoutSpec("statement-timeout", "granian, one worker", "granian", 1, 2)

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="a PostgreSQL setting (SQLite has none)"
)


def database_url() -> str:
    """The test database (pytest-django's, created for this session) as a DATABASE_URL."""
    db = connection.settings_dict
    user = quote(db["USER"] or "", safe="")
    password = f":{quote(db['PASSWORD'], safe='')}" if db["PASSWORD"] else ""
    return f"postgres://{user}{password}@{db['HOST'] or HOST}:{db['PORT'] or 5432}/{db['NAME']}"


def server_environment() -> dict[str, str]:
    return {
        "DJANGO_SETTINGS_MODULE": "config.settings_test",
        "DATABASE_URL": database_url(),
        "DB_STATEMENT_TIMEOUT_MS": str(TIMEOUT_MS),
        "REDIS_URL": "",
        "CACHED_READS": "false",
        "ALLOWED_HOSTS": HOST,
        "TASKS_IN_PROCESS": "false",
        "LOG_LEVEL": "ERROR",
    }


def statement_timeout_of_a_management_command() -> str:
    shown = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "shell",
            "-c",
            "from django.db import connection\n"
            "with connection.cursor() as cursor:\n"
            "    cursor.execute('SHOW statement_timeout')\n"
            "    print(cursor.fetchone()[0])",
        ],
        cwd=BACKEND,
        env={**os.environ, **server_environment()},
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return shown.stdout.split()[-1]


@pytest.mark.django_db(transaction=True)
def test_a_query_held_up_in_a_web_request_answers_a_clear_504_quickly(concierge):
    """A desk search that cannot read the requests (another session holds a lock on them) is
    stopped after DB_STATEMENT_TIMEOUT_MS and answers a 504 with a message for a person, long
    before the lock goes; the same worker answers the next search normally. A management
    command (migrate, the task worker, any other) is no web server: no timeout there."""
    token = user_sign_in(email=concierge.email, password=DEFAULT_PASSWORD).token
    headers = {"Authorization": f"Bearer {token}"}
    with (
        Layout(API_SERVER, server_environment()) as server,
        httpx.Client(base_url=server.api_url, headers=headers, timeout=30) as client,
    ):
        with psycopg.connect(database_url()) as locker:
            locker.execute("LOCK TABLE servicerequests_servicerequest IN ACCESS EXCLUSIVE MODE")
            started = time.monotonic()
            held_up = client.get("/api/v1/concierge/search", params={"q": "harpsichord"})
            waited = time.monotonic() - started
            locker.rollback()
        afterwards = client.get("/api/v1/concierge/search", params={"q": "harpsichord"})

    assert held_up.status_code == 504, held_up.text
    assert held_up.json() == {"success": False, "error": STATEMENT_STOPPED}
    assert waited < 5 * TIMEOUT_MS / 1000  # stopped, not waiting for the lock
    assert afterwards.status_code == 200, afterwards.text
    assert statement_timeout_of_a_management_command() == "0"
