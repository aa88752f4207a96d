"""Issue 24: a start-up check refuses API processes that would share nothing. Issue 30: a web
server is loaded before its first request."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

BACKEND = Path(__file__).resolve().parents[3]
WITH_REDIS = {"REDIS_URL": "redis://127.0.0.1:6379/0"}


def _import(entry_point: str, *then: str, **env: str) -> subprocess.CompletedProcess:
    """Imports a server's entry point in a fresh production-profile process, then runs `then`."""
    environment = {
        key: value
        for key, value in os.environ.items()
        if key not in ("REDIS_URL", "DEBUG", "DJANGO_SETTINGS_MODULE")
    }
    environment.update(SECRET_KEY="start-up-check", ALLOWED_HOSTS="localhost", DEBUG="false", **env)
    return subprocess.run(
        [sys.executable, "-c", "; ".join((f"import {entry_point}", *then))],
        cwd=BACKEND,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_production_api_server_refuses_to_start_without_redis():
    """Issue 24: the WSGI API server (production layout) without REDIS_URL stops at start with
    a message naming the variable."""
    started = _import("config.wsgi")
    assert started.returncode != 0
    assert "REDIS_URL is required by the production layout" in started.stderr


def test_the_production_api_server_starts_with_redis():
    """Issue 24: with REDIS_URL the same start-up goes through."""
    started = _import("config.wsgi", **WITH_REDIS)
    assert started.returncode == 0, started.stderr


@pytest.mark.parametrize("entry_point", ["config.wsgi", "config.asgi"])
def test_issue_30_a_web_server_loads_its_routes_before_the_first_request_and_freezes_them(
    entry_point,
):
    """Issue 30: once a server's application is built, every API module is loaded (not on the
    first request) and what was loaded is out of the garbage collector's full collections
    (`gc.freeze`): the frozen objects number in the tens of thousands."""
    started = _import(
        entry_point,
        "import gc, sys",
        "print(gc.get_freeze_count(), 'concierge.servicerequests.api' in sys.modules)",
        TASKS_IN_PROCESS="false",
        **WITH_REDIS,
    )
    assert started.returncode == 0, started.stderr
    frozen, routes_loaded = started.stdout.split()[-2:]
    assert int(frozen) > 50_000
    assert routes_loaded == "True"
