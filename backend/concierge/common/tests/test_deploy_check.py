"""ARCHITECTURE.md §7 / issue 2: the production profile passes Django's deployment checks."""

import os
import subprocess
import sys
from pathlib import Path

BACKEND = Path(__file__).resolve().parents[3]


def test_check_deploy_passes_with_production_settings(tmp_path):
    """Production profile: `manage.py check --deploy` passes (DEBUG off, secrets from env)."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "false",
        "SECRET_KEY": "a-production-like-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
        "ALLOWED_HOSTS": "concierge.example.com",
        "PUBLIC_URL": "https://concierge.example.com",
        "VAR_DIR": str(tmp_path),
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=BACKEND,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_settings_refuse_a_missing_secret_key(tmp_path):
    """ARCHITECTURE.md §7: configuration is validated at start, naming the bad variable."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "false",
        "ALLOWED_HOSTS": "concierge.example.com",
        "VAR_DIR": str(tmp_path),
    }
    env.pop("SECRET_KEY", None)
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=BACKEND,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr
