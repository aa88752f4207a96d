"""Issue 24: a start-up check refuses API processes that would share nothing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

BACKEND = Path(__file__).resolve().parents[3]


def _import_wsgi(**env: str) -> subprocess.CompletedProcess:
    environment = {
        key: value
        for key, value in os.environ.items()
        if key not in ("REDIS_URL", "DEBUG", "DJANGO_SETTINGS_MODULE")
    }
    environment.update(SECRET_KEY="start-up-check", ALLOWED_HOSTS="localhost", **env)
    return subprocess.run(
        [sys.executable, "-c", "import config.wsgi"],
        cwd=BACKEND,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_production_api_server_refuses_to_start_without_redis():
    """Issue 24: the WSGI API server (production layout) without REDIS_URL stops at start with
    a message naming the variable."""
    started = _import_wsgi(DEBUG="false")
    assert started.returncode != 0
    assert "REDIS_URL is required by the production layout" in started.stderr


def test_the_production_api_server_starts_with_redis():
    """Issue 24: with REDIS_URL the same start-up goes through."""
    started = _import_wsgi(DEBUG="false", REDIS_URL="redis://127.0.0.1:6379/0")
    assert started.returncode == 0, started.stderr
