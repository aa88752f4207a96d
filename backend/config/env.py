"""Environment configuration, validated once at start with errors that name the bad variable."""

from __future__ import annotations

import os
import warnings
from typing import Any
from urllib.parse import urlparse

import dj_email_url
from django.core.exceptions import ImproperlyConfigured

TRUE_VALUES = {"1", "true", "yes", "on"}
FALSE_VALUES = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool = False) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in TRUE_VALUES:
        return True
    if value in FALSE_VALUES:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, got {raw!r}")


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} must be a whole number, got {raw!r}") from exc


def env_float(name: str, default: float) -> float:
    raw = os.environ.get(name, "")
    if not raw:
        return default
    try:
        return float(raw)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} must be a number, got {raw!r}") from exc


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def env_url(name: str, default: str = "", schemes: tuple[str, ...] = ("http", "https")) -> str:
    raw = os.environ.get(name, default)
    if not raw:
        return raw
    parsed = urlparse(raw)
    if parsed.scheme not in schemes or not (parsed.netloc or parsed.path):
        raise ImproperlyConfigured(f"{name} must be a URL ({', '.join(schemes)}), got {raw!r}")
    return raw.rstrip("/")


def env_origins(name: str, default: str = "", *, wildcard: bool = False) -> list[str]:
    """Comma-separated web origins (`https://app.example.com`, `http://127.0.0.1:5173`): a scheme
    and a host, an optional port, nothing else; with `wildcard`, a `*.` host prefix is allowed
    (Content-Security-Policy sources such as `https://*.google-analytics.com`)."""
    origins = []
    for raw in env_list(name, default):
        parsed = urlparse(raw)
        host = parsed.hostname or ""
        if wildcard and host.startswith("*."):
            host = host[2:]
        try:
            port_ok = parsed.port is None or parsed.port > 0
        except ValueError:
            port_ok = False
        if (
            parsed.scheme not in ("http", "https")
            or not host
            or not port_ok
            or parsed.path not in ("", "/")
            or parsed.params
            or parsed.query
            or parsed.fragment
            or parsed.username
            or parsed.password
            or "*" in host
        ):
            raise ImproperlyConfigured(
                f"{name} must list origins such as https://app.example.com, got {raw!r}"
            )
        origins.append(raw.rstrip("/"))
    return origins


def env_choice(name: str, default: str, choices: tuple[str, ...]) -> str:
    raw = os.environ.get(name, default)
    if raw not in choices:
        raise ImproperlyConfigured(f"{name} must be one of {', '.join(choices)}, got {raw!r}")
    return raw


def parse_rate_limits(raw: str) -> dict[str, tuple[int, int]] | None:
    """`RATE_LIMITS="sign_in=20/60,otp=10/60"` → {"sign_in": (20, 60), ...}; `off` disables them."""
    if raw.strip().lower() == "off":
        return None
    limits: dict[str, tuple[int, int]] = {}
    for item in filter(None, (part.strip() for part in raw.split(","))):
        try:
            scope, rule = item.split("=", 1)
            count, seconds = rule.split("/", 1)
            limits[scope.strip()] = (int(count), int(seconds))
        except ValueError as exc:
            raise ImproperlyConfigured(
                f"RATE_LIMITS must look like 'sign_in=20/60,otp=10/60' or 'off', got {raw!r}"
            ) from exc
    return limits


def parse_email_url(url: str, *, use_tls: bool | None = None) -> dict[str, Any]:
    """Django's EMAIL_* settings from an EMAIL_URL, parsed by dj-email-url.

    smtp://host (port 25), submission://user:password@host (STARTTLS, port 587),
    smtps://user:password@host (STARTTLS); `?ssl=true` for TLS from the first byte (port 465),
    `?tls=true`, `?timeout=seconds` (default 30). `use_tls` (EMAIL_USE_TLS) overrides the URL.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # smtps:// is announced as deprecated, still supported
        parsed = dj_email_url.parse(url)
    if "EMAIL_BACKEND" not in parsed or not parsed["EMAIL_HOST"]:
        raise ImproperlyConfigured(
            "EMAIL_URL must be an smtp://, submission:// or smtps:// URL with a host, "
            f"got {url.rsplit('@', 1)[-1]!r}"
        )
    tls = parsed["EMAIL_USE_TLS"] if use_tls is None else use_tls
    return {
        "EMAIL_BACKEND": parsed["EMAIL_BACKEND"],
        "EMAIL_HOST": parsed["EMAIL_HOST"],
        "EMAIL_PORT": parsed["EMAIL_PORT"] or (465 if parsed["EMAIL_USE_SSL"] else 25),
        "EMAIL_HOST_USER": parsed["EMAIL_HOST_USER"] or "",
        "EMAIL_HOST_PASSWORD": parsed["EMAIL_HOST_PASSWORD"] or "",
        "EMAIL_USE_TLS": tls,
        "EMAIL_USE_SSL": parsed["EMAIL_USE_SSL"] and not tls,
        # A mail server that stops answering must not hold a task worker for ever.
        "EMAIL_TIMEOUT": parsed["EMAIL_TIMEOUT"] or 30,
    }
