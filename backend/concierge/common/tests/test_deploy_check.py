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


def _key_pair() -> tuple[str, str]:
    """A VAPID pair as `manage.py vapid_keys` prints it (base64url raw private key, public
    point)."""
    import base64

    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    key = ec.generate_private_key(ec.SECP256R1())

    def b64(data: bytes) -> str:
        return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

    private = key.private_numbers().private_value.to_bytes(32, "big")
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return b64(private), b64(public)


def test_the_push_keys_are_checked_at_start_naming_the_bad_one():
    """ARCHITECTURE.md §7 (README: Configuration): a VAPID key that is not one, or a public
    key of another pair, stops the process instead of leaving push quietly off."""
    import pytest
    from django.core.exceptions import ImproperlyConfigured

    from config.vapid import vapid_keys_check

    private, public = _key_pair()
    _, other_public = _key_pair()
    vapid_keys_check("", "")  # push off
    vapid_keys_check(private, "")  # the public key derived
    vapid_keys_check(private, public)
    for bad_private, bad_public, named in (
        ("not-a-key", "", "VAPID_PRIVATE_KEY is not a private key"),
        (private[:20], "", "VAPID_PRIVATE_KEY is not a private key"),
        (private, other_public, "VAPID_PUBLIC_KEY is not VAPID_PRIVATE_KEY's public key"),
        ("", public, "VAPID_PUBLIC_KEY is set without VAPID_PRIVATE_KEY"),
    ):
        with pytest.raises(ImproperlyConfigured, match=named):
            vapid_keys_check(bad_private, bad_public)


def test_production_settings_refuse_a_bad_push_key_or_sample_rate(tmp_path):
    """ARCHITECTURE.md §7: the process stops at start, naming the variable."""
    base = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "true",
        "VAR_DIR": str(tmp_path),
    }
    for extra, named in (
        ({"VAPID_PRIVATE_KEY": "not-a-key"}, "VAPID_PRIVATE_KEY is not a private key"),
        ({"SENTRY_TRACES_SAMPLE_RATE": "5"}, "SENTRY_TRACES_SAMPLE_RATE must be between 0 and 1"),
    ):
        result = subprocess.run(
            [sys.executable, "manage.py", "check"],
            cwd=BACKEND,
            env={**base, **extra},
            capture_output=True,
            text=True,
            check=False,
        )
        assert result.returncode != 0, extra
        assert named in result.stderr, result.stderr[-2000:]
