"""An employee's request lists and threads, remembered between requests (common.read_cache):
the most read endpoints answer from the cache while the employee's read version, read with
the session, is the one a body was stored under.

Database triggers (migrations/0006_read_versions.py) give the employee a new version in the
same transaction as any write to their requests, messages, attachments or reply-time clocks,
and every employee one when a category changes: nothing the services, the admin, a cascade, a
bulk update or a command writes can leave an old body looking current.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest

from concierge.common import read_cache

# Bodies of versions that are no longer current are left to expire.
ENTRY_TTL_SECONDS = 600


def employee_read(
    request: HttpRequest, *, user: object, name: str, load: Callable[[], bytes]
) -> bytes:
    """A response body of one of `user`'s reads (`name`: 'list:open', 'thread:42'), cached
    per site address (bodies hold absolute image links) under the user's read version from
    the session query. `load` raises for a read that fails (a 404), which is never stored."""
    origin = f"{request.scheme}://{request.get_host()}"
    entry = f"rc:requests:{user.pk}:{name}:{origin}"  # type: ignore[attr-defined]
    version = getattr(user, "read_version", None)
    return read_cache.read_through(entry, version, ENTRY_TTL_SECONDS, load)  # type: ignore[no-any-return]
