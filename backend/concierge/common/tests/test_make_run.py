"""Issue 'small things': `make run PORT=9000` puts links in emails on port 9000 too."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[4]

pytestmark = pytest.mark.skipif(not shutil.which("make"), reason="needs make")


def _served_public_url(*make_args: str, env: dict[str, str]) -> str:
    """Runs `make run`'s server command with the server swapped for `printenv PUBLIC_URL`."""
    dry = subprocess.run(
        ["make", "-n", "run", *make_args],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
        env=env,
    ).stdout
    line = next(line for line in dry.splitlines() if "uvicorn config.asgi" in line)
    command = re.sub(r"\S*/uvicorn config\.asgi:application.*$", "printenv PUBLIC_URL", line)
    return subprocess.run(
        ["bash", "-c", command], cwd=REPO, capture_output=True, text=True, check=True, env=env
    ).stdout.strip()


def test_make_run_public_url_defaults_to_the_served_address() -> None:
    """Served on localhost by default: browsers accept it as a passkey's relying party."""
    env = {k: v for k, v in os.environ.items() if k not in ("PUBLIC_URL", "HOST")}
    assert _served_public_url("PORT=9000", env=env) == "http://localhost:9000"
    assert _served_public_url("HOST=0.0.0.0", "PORT=8123", env=env) == "http://0.0.0.0:8123"


def test_make_run_keeps_an_explicit_public_url() -> None:
    env = {**os.environ, "PUBLIC_URL": "https://concierge.example.com"}
    assert _served_public_url("PORT=9000", env=env) == "https://concierge.example.com"
