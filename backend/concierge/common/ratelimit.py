"""Fixed-window rate limits kept in the cache (Redis when configured), set by `RATE_LIMITS`.

Clients are told apart by address: the socket peer, or, when the peer is one of the
`TRUSTED_PROXIES`, the right-most address in `X-Forwarded-For` that is not a trusted proxy
(the left part of that header is whatever the client chose to send).
"""

from __future__ import annotations

import ipaddress
import time
from functools import cache as memoize

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

from concierge.common.cache import CACHE_ERRORS, cache_unavailable
from concierge.common.errors import RateLimited

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@memoize
def _networks(proxies: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(proxy.strip(), strict=False) for proxy in proxies)


def _trusted(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return False
    return any(ip in network for network in _networks(tuple(settings.TRUSTED_PROXIES)))


def client_ip(request: HttpRequest) -> str:
    peer = request.META.get("REMOTE_ADDR") or "unknown"
    if not _trusted(peer):
        return peer
    hops = [h.strip() for h in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    for hop in reversed([h for h in hops if h]):
        if not _trusted(hop):
            return hop
    return peer


def rate_limit(
    request: HttpRequest, scope: str, *, key: str = "", client: str | None = None
) -> None:
    """Count one attempt for `scope` from this client (by default its address; `client` names
    another, e.g. the signed-in account); raise RateLimited past the limit.
    Without a cache (Redis down) the attempt is allowed and a warning logged: account lockout
    and the per-code limits in the database still hold."""
    limits = settings.RATE_LIMITS
    if limits is None or scope not in limits:
        return
    count, window = limits[scope]
    window_start = int(time.time() // window)
    cache_key = f"rl:{scope}:{client or client_ip(request)}:{key}:{window_start}"
    try:
        added = cache.add(cache_key, 1, timeout=window)
        current = 1 if added else cache.incr(cache_key)
    except ValueError:  # the key expired between add and incr: a fresh window
        current = 1
    except CACHE_ERRORS as exc:
        cache_unavailable("rate limit", exc)
        return
    if current > count:
        retry_after = window - int(time.time() % window)
        raise RateLimited(retry_after=max(retry_after, 1))
