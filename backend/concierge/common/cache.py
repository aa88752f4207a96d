"""The cache (Redis in production) is an accelerator: when it is down, callers degrade
instead of failing the request, and say so in the log."""

from __future__ import annotations

import logging

from redis.exceptions import RedisError

logger = logging.getLogger("concierge.cache")

# What a cache backend raises when its server is unreachable or times out.
CACHE_ERRORS: tuple[type[BaseException], ...] = (RedisError, OSError)


def cache_unavailable(purpose: str, exc: BaseException) -> None:
    logger.warning("Cache unavailable, %s skipped: %s", purpose, exc)
