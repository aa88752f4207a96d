"""Live events under test: a broker that records what is published, and each test run with the
in-process broker and again with Redis."""

from __future__ import annotations

import os

import pytest

from concierge.live import broker as broker_module
from concierge.live.events import Event


def reachable_redis_url() -> str:
    """REDIS_URL (or the local default) when a Redis answers there; else the test is skipped."""
    import redis

    url = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
    try:
        redis.Redis.from_url(url, socket_connect_timeout=0.5, socket_timeout=0.5).ping()
    except Exception:
        pytest.skip(f"Redis is not reachable at {url}")
    return url


class CapturingBroker:
    def __init__(self) -> None:
        self.events: list[Event] = []

    def publish(self, event: Event) -> None:
        self.events.append(event)

    def types(self) -> list[str]:
        return [e.type for e in self.events]


@pytest.fixture
def published(monkeypatch) -> CapturingBroker:
    """Every event published (after commit) during the test."""
    capturing = CapturingBroker()
    monkeypatch.setattr(broker_module, "broker_get", lambda: capturing)
    return capturing


@pytest.fixture(params=["in_process", "redis"])
def broker_kind(request, settings) -> str:
    """Run a test with the in-process broker and again with Redis (skipped without Redis)."""
    if request.param == "redis":
        settings.REDIS_URL = reachable_redis_url()
    else:
        settings.REDIS_URL = ""
    return request.param
