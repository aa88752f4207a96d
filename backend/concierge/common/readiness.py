"""Readiness: what each dependency of this process says, for `GET /api/v1/health/ready` and for
the endpoints that must not promise what a dependency down cannot keep (an upload address
while the file storage is down).

Each app registers the check of the dependency it owns (`register`, from its AppConfig's
`ready()`): common the database and the cache, uploads the file storage, notifications the
mail transport. A check answers `ok`, `unavailable` or `not configured` (an optional dependency
that is not set up). A required dependency that is unavailable makes the process
`unavailable`; an optional one `degraded`.

Checks that talk to another server over the network (`cached=True`) keep their answer for
READINESS_CACHE_SECONDS in this process, so frequent health checks never hammer the storage or
the mail server, and an answer never waits more than one probe's timeouts.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from django.conf import settings

logger = logging.getLogger(__name__)

CheckStatus = Literal["ok", "unavailable", "not configured"]
ReadinessStatus = Literal["ok", "degraded", "unavailable"]


@dataclass
class Check:
    name: str
    probe: Callable[[], CheckStatus]
    required: bool
    cached: bool
    lock: threading.Lock = field(default_factory=threading.Lock)
    answer: CheckStatus | None = None
    answered_at: float = 0.0


_checks: dict[str, Check] = {}


def register(
    name: str, probe: Callable[[], CheckStatus], *, required: bool, cached: bool = False
) -> None:
    """Adds (or replaces) the check `name`. `probe` returns the dependency's status; an
    exception it raises counts as `unavailable` (and is logged)."""
    _checks[name] = Check(name=name, probe=probe, required=required, cached=cached)


def _run(check: Check) -> CheckStatus:
    try:
        return check.probe()
    except Exception:  # any failure of the probe means the dependency is not usable
        logger.warning("Readiness check %r failed", check.name, exc_info=True)
        return "unavailable"


def check_status(name: str) -> CheckStatus:
    """The status of one registered check (the cached answer while it is fresh)."""
    check = _checks[name]
    if not check.cached:
        return _run(check)
    ttl = float(settings.READINESS_CACHE_SECONDS)
    with check.lock:  # one probe at a time; the others wait for its answer
        now = time.monotonic()
        if check.answer is None or now - check.answered_at >= ttl:
            check.answer = _run(check)
            check.answered_at = time.monotonic()
        return check.answer


def readiness() -> tuple[ReadinessStatus, dict[str, CheckStatus]]:
    """The process's status and every check's, in the order they were registered."""
    checks = {name: check_status(name) for name in _checks}
    if any(checks[name] == "unavailable" for name, c in _checks.items() if c.required):
        return "unavailable", checks
    if "unavailable" in checks.values():
        return "degraded", checks
    return "ok", checks


def forget() -> None:
    """Drops the cached answers: the next question probes again (tests, and after a change
    of settings)."""
    for check in _checks.values():
        with check.lock:
            check.answer = None
