"""Fixed-window rate limits kept in the cache (Redis when configured), set by `RATE_LIMITS`."""

from __future__ import annotations

import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

from concierge.common.errors import RateLimited


def client_ip(request: HttpRequest) -> str:
    return request.META.get("REMOTE_ADDR") or "unknown"


def rate_limit(request: HttpRequest, scope: str, *, key: str = "") -> None:
    """Count one attempt for `scope` from this client; raise RateLimited past the limit."""
    limits = settings.RATE_LIMITS
    if limits is None or scope not in limits:
        return
    count, window = limits[scope]
    window_start = int(time.time() // window)
    cache_key = f"rl:{scope}:{client_ip(request)}:{key}:{window_start}"
    added = cache.add(cache_key, 1, timeout=window)
    current = 1 if added else cache.incr(cache_key)
    if current > count:
        retry_after = window - int(time.time() % window)
        raise RateLimited(retry_after=max(retry_after, 1))
