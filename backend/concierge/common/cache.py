"""The cache (Redis in production) is an accelerator: when it is down, callers degrade
instead of failing the request, and say so in the log.

An unreachable Redis (a partition, a frozen server) does not refuse connections: each call
waits for its timeout. So the first call that times out or cannot connect opens a circuit
breaker, and for `REDIS_BREAKER_SECONDS` every Redis call of this process fails at once; a
request then waits at most one timeout, however many cache calls it makes.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

import redis
from django.conf import settings
from django.core.cache.backends import redis as redis_backend
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

from concierge.common.metrics import cache_breaker_trips, cache_errors

logger = logging.getLogger("concierge.cache")

# What a cache backend raises when its server is unreachable or times out.
CACHE_ERRORS: tuple[type[BaseException], ...] = (RedisError, OSError)
# What says the server is unreachable (not, say, a wrong command).
_UNREACHABLE = (RedisConnectionError, RedisTimeoutError, OSError)


def cache_unavailable(purpose: str, exc: BaseException) -> None:
    """Log a cache call that failed and was skipped; `purpose` (a fixed phrase, never a
    value) labels it in `concierge_cache_errors_total`."""
    cache_errors.labels(purpose).inc()
    logger.warning("Cache unavailable, %s skipped: %s", purpose, exc)


class RedisSkipped(RedisConnectionError):
    """Raised instead of calling Redis while the breaker is open."""


class CircuitBreaker:
    def __init__(self) -> None:
        self._open_until = 0.0
        self._lock = threading.Lock()

    def check(self) -> None:
        if time.monotonic() < self._open_until:
            raise RedisSkipped("Redis skipped for a few seconds after a failed call")

    def trip(self, exc: BaseException) -> None:
        with self._lock:
            already_open = time.monotonic() < self._open_until
            self._open_until = time.monotonic() + settings.REDIS_BREAKER_SECONDS
        if not already_open:
            cache_breaker_trips.inc()
            logger.warning(
                "Redis unreachable (%s): skipped for %s s", exc, settings.REDIS_BREAKER_SECONDS
            )

    def reset(self) -> None:
        self._open_until = 0.0


breaker = CircuitBreaker()


class _BreakerMixin:
    """A Redis connection that fails at once while the breaker is open, and opens it when the
    server cannot be reached or does not answer in time."""

    def connect(self, *args: Any, **kwargs: Any) -> None:
        breaker.check()
        try:
            super().connect(*args, **kwargs)  # type: ignore[misc]
        except _UNREACHABLE as exc:
            breaker.trip(exc)
            raise

    def send_packed_command(self, *args: Any, **kwargs: Any) -> None:
        breaker.check()
        try:
            super().send_packed_command(*args, **kwargs)  # type: ignore[misc]
        except _UNREACHABLE as exc:
            breaker.trip(exc)
            raise

    def read_response(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().read_response(*args, **kwargs)  # type: ignore[misc]
        except _UNREACHABLE as exc:
            breaker.trip(exc)
            raise


class BreakerConnection(_BreakerMixin, redis.Connection):
    pass


class BreakerSSLConnection(_BreakerMixin, redis.SSLConnection):
    pass


def breaker_connection_class(url: str) -> type[redis.Connection]:
    return BreakerSSLConnection if url.startswith("rediss:") else BreakerConnection


def redis_client(url: str, *, timeout: float) -> redis.Redis:
    """A client for other uses of the cache's Redis (publishing live events): behind the same
    breaker, no retries (a retry of an unreachable server only waits longer)."""
    pool = redis.ConnectionPool.from_url(
        url,
        connection_class=breaker_connection_class(url),
        socket_timeout=timeout,
        socket_connect_timeout=timeout,
    )
    return redis.Redis(connection_pool=pool)


class _RedisCacheClient(redis_backend.RedisCacheClient):
    """Django's client builds a new `redis.Redis` for every command, which costs redis-py
    about as much CPU as the command itself; one per connection pool is enough (they are
    thread-safe and share the pool's connections). Its connections go through the breaker."""

    def __init__(self, servers: list[str], **options: Any) -> None:
        options.setdefault("connection_class", breaker_connection_class(servers[0]))
        super().__init__(servers, **options)
        self._clients: dict[int, redis.Redis] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> redis.Redis:
        pool = self._get_connection_pool(write)  # type: ignore[attr-defined]
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = redis.Redis(connection_pool=pool)
        return client


class RedisCache(redis_backend.RedisCache):
    """Django's Redis cache (settings.CACHES) with one client per connection pool, behind the
    circuit breaker."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = _RedisCacheClient
