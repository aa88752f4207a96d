"""An employee's request lists and threads, remembered between requests (common.read_cache):
the most read endpoints answer from the cache while the employee's read version, read with
the session, is the one a body was stored under.

Database triggers (`WATCHED`, installed by migrations/0006_read_versions.py) give the
employee a new version in the same transaction as any write to their requests, messages,
attachments or reply-time clocks, and every employee one when a category changes: nothing the
services, the admin, a cascade, a bulk update or a command writes can leave an old body
looking current.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest

from concierge.common import read_cache
from concierge.common.read_versions import SHARED_OWNER, Watched

REQUEST_OWNER = "(SELECT user_id FROM servicerequests_servicerequest WHERE id = {row}.request_id)"

# What the cached reads show: the tables whose writes give an owner a new version, and how a
# row names its owner (installed by migrations 0006 and 0012).
WATCHED = [
    # Every employee has a version from the start (none: nothing of theirs would be cached).
    Watched("accounts_user", "{row}.id", operations=("INSERT",)),
    Watched("servicerequests_servicerequest", "{row}.user_id"),
    Watched("servicerequests_message", REQUEST_OWNER),
    Watched("service_levels_requestclock", REQUEST_OWNER),
    Watched(
        "servicerequests_messageattachment",
        "(SELECT r.user_id FROM servicerequests_servicerequest r"
        " JOIN servicerequests_message m ON m.request_id = r.id WHERE m.id = {row}.message_id)",
    ),
    Watched(
        "uploads_upload",
        "(SELECT r.user_id FROM servicerequests_servicerequest r"
        " JOIN servicerequests_message m ON m.request_id = r.id"
        " JOIN servicerequests_messageattachment a ON a.message_id = m.id"
        " WHERE a.upload_id = {row}.id)",
    ),
    # Requests show their category's name, image and icon.
    Watched("surveys_surveycategory", str(SHARED_OWNER)),
]

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
