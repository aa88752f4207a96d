"""The cache (Redis in production) is an accelerator: when it is down, callers degrade
instead of failing the request, and say so in the log."""

from __future__ import annotations

import logging
from typing import Any

import redis
from django.core.cache.backends import redis as redis_backend
from redis.exceptions import RedisError

logger = logging.getLogger("concierge.cache")

# What a cache backend raises when its server is unreachable or times out.
CACHE_ERRORS: tuple[type[BaseException], ...] = (RedisError, OSError)


def cache_unavailable(purpose: str, exc: BaseException) -> None:
    logger.warning("Cache unavailable, %s skipped: %s", purpose, exc)


class _RedisCacheClient(redis_backend.RedisCacheClient):
    """Django's client builds a new `redis.Redis` for every command, which costs redis-py
    about as much CPU as the command itself; one per connection pool is enough (they are
    thread-safe and share the pool's connections)."""

    def __init__(self, servers: list[str], **options: Any) -> None:
        super().__init__(servers, **options)
        self._clients: dict[int, redis.Redis] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> redis.Redis:
        pool = self._get_connection_pool(write)  # type: ignore[attr-defined]
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = redis.Redis(connection_pool=pool)
        return client


class RedisCache(redis_backend.RedisCache):
    """Django's Redis cache (settings.CACHES) with one client per connection pool."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = _RedisCacheClient
