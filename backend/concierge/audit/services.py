"""Writing the audit trail: one call, `audit_record`, used by the API, the admin, tasks and
commands alike.

An event is written in the caller's transaction (inside a savepoint), so the event of
something rolled back is rolled back with it; a failure to write it is logged and counted
(`concierge_audit_write_failures`) and never fails the caller.

The hash chain: each entry's hash is SHA-256 over its canonical fields and the hash of the
entry before it. Writers take turns on PostgreSQL with a transaction-level advisory lock, held
until the caller's transaction ends (SQLite serialises writes anyway), so each entry chains to
the one committed before it.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, transaction
from django.http import HttpRequest
from django.utils import timezone
from prometheus_client import Counter

from concierge.audit import actions
from concierge.audit.middleware import current_acting, current_client_ip, request_user
from concierge.audit.models import AuditEvent
from concierge.common.cache import CACHE_ERRORS, cache_unavailable
from concierge.common.ratelimit import client_ip as request_client_ip
from concierge.common.sql_rows import ModelInsert

logger = logging.getLogger(__name__)

audit_write_failures = Counter(
    "concierge_audit_write_failures",
    "Audit events that could not be written (the caller's work went on), by action.",
    ["action"],
)

# Any number: the key of the advisory lock the chain's writers take turns on.
CHAIN_LOCK_KEY = 727_001
# Keys never kept in `details`, whatever a caller passes (secrets and message text).
SECRET_KEY_PARTS = ("password", "token", "secret", "code", "otp", "hash", "body", "text", "key")


def audit_record(
    *,
    action: str,
    actor: Any = None,
    actor_role: str = "",
    target_type: str = "",
    target_id: str | int = "",
    company_id: int | None = None,
    client_ip: str = "",
    details: dict[str, Any] | None = None,
) -> None:
    """Appends one event to the audit trail, in the caller's transaction. Never raises. The
    role, unless given, is the one the block acts in (`acting_as`), else the actor's own."""
    acting = current_acting.get()
    if acting.via:
        details = {**(details or {}), "via": acting.via}
    _record(
        action=action,
        actor_id=_actor_id(actor),
        actor_role=actor_role or acting.role or role_of(actor),
        target_type=target_type,
        target_id=str(target_id),
        company_id=company_id,
        client_ip=client_ip or current_client_ip.get(),
        details=details,
        opening_key=None,
    )


def audit_record_for_request(
    request: HttpRequest,
    *,
    action: str,
    actor_role: str = "",
    target_type: str = "",
    target_id: str | int = "",
    company_id: int | None = None,
    details: dict[str, Any] | None = None,
) -> None:
    """`audit_record` with the actor, their role and the client address read from a request."""
    actor = request_user(request)
    audit_record(
        action=action,
        actor=actor,
        actor_role=actor_role,
        target_type=target_type,
        target_id=target_id,
        company_id=company_id,
        client_ip=request_client_ip(request),
        details=details,
    )


def audit_record_opening(
    request: HttpRequest,
    *,
    action: str,
    actor_role: str,
    target_type: str,
    target_id: str | int,
    company_id: int | None = None,
    details: dict[str, Any] | None = None,
) -> None:
    """Records that someone on the concierge side opened an object: at most one event per
    person, object and kind (and `details`, e.g. which attachment) per
    AUDIT_OPENING_WINDOW_SECONDS (10 minutes), so a page that polls writes one event, not one
    per poll: the polls after the first read the cache only."""
    actor = request_user(request)
    if actor is None or not settings.AUDIT_LOG_ENABLED:
        return
    key = {
        "actor_id": actor.pk,
        "action": action,
        "target_type": target_type,
        "target_id": str(target_id),
        "details": dict(details or {}),
    }
    remembered = _opening_cache_key(key)
    if _opening_remembered(remembered):  # the usual poll: one cache read, no query
        return
    try:
        if _opened_recently(key):  # one indexed read, no lock
            _opening_remember(remembered)
            return
    except Exception:
        logger.exception("Could not read the audit trail's recent openings")
    _record(
        action=action,
        actor_id=actor.pk,
        actor_role=actor_role,
        target_type=target_type,
        target_id=str(target_id),
        company_id=company_id,
        client_ip=request_client_ip(request),
        details=details,
        opening_key=key,
    )
    _opening_remember(remembered)


_role_resolver: Callable[[Any], str] | None = None


def role_resolver_set(resolver: Callable[[Any], str]) -> None:
    """Lets accounts name an actor's role (concierge is a group of accounts'), since the audit
    trail knows no other app; set once, when accounts is ready."""
    global _role_resolver
    _role_resolver = resolver


def role_of(actor: Any) -> str:
    """The role recorded when a caller names none: accounts' answer (superuser, concierge,
    staff or member), else from the account's flags."""
    if actor is None:
        return "system"
    if _role_resolver is not None and getattr(actor, "pk", None) is not None:
        return _role_resolver(actor)
    if getattr(actor, "is_superuser", False):
        return "superuser"
    if getattr(actor, "is_staff", False):
        return "staff"
    return "member"


def chain_hash(event: AuditEvent) -> str:
    """SHA-256 over the entry's canonical fields and the previous entry's hash."""
    canonical = json.dumps(
        [
            event.occurred_at.isoformat(),
            event.actor_id,
            event.actor_role,
            event.client_ip,
            event.action,
            event.target_type,
            event.target_id,
            event.company_id,
            event.details,
            event.previous_hash,
        ],
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=True,
        cls=DjangoJSONEncoder,
    )
    return hashlib.sha256(canonical.encode()).hexdigest()


def clean_details(details: dict[str, Any] | None) -> dict[str, Any]:
    """The details as stored: JSON values only, without any key that may hold a secret or
    message text."""
    kept = {
        str(k): v
        for k, v in (details or {}).items()
        if not any(part in str(k).lower() for part in SECRET_KEY_PARTS)
    }
    cleaned: dict[str, Any] = json.loads(json.dumps(kept, cls=DjangoJSONEncoder))
    return cleaned


def _record(*, opening_key: dict[str, Any] | None, chain_start: str = "", **fields: Any) -> None:
    if not settings.AUDIT_LOG_ENABLED:
        return
    try:
        with transaction.atomic():  # a savepoint in the caller's transaction
            head = _take_chain_lock()
            if opening_key is not None and _opened_recently(opening_key):
                return
            _append(previous=head or chain_start, **fields)
    except Exception:
        logger.exception("Could not write the audit event %s", fields.get("action"))
        audit_write_failures.labels(action=str(fields.get("action", ""))[:64]).inc()


def _append(*, details: dict[str, Any] | None, previous: str, **fields: Any) -> AuditEvent:
    """Chains the entry to `previous`: the chain's head, or when no entry is left the
    `chain_start` of `_record` (a prune that deleted every entry chains its own to the last
    one it deleted)."""
    event = AuditEvent(
        occurred_at=timezone.now(),
        details=clean_details(details),
        previous_hash=previous,
        **fields,
    )
    event.client_ip = event.client_ip[:64]
    event.hash = chain_hash(event)
    return _EVENT_INSERT.save(event)


# The caller's foreign keys still to be checked (Django's are checked at commit) are checked
# first, so that the rows they name are locked (FOR KEY SHARE) before the chain is: a writer
# that holds such a row and waits for the chain (a sign-in locks the account, then writes its
# event) and one that holds the chain and waits for the row at commit (a reply naming that
# account) would deadlock. Nothing is locked after the chain but what comes after the event.
# Then the chain's head, read once the lock is held (each statement sees what was committed
# before it began). One round trip: nothing varies, so the statements go without parameters.
_CHAIN_HEAD_SQL = f"SELECT hash FROM {AuditEvent._meta.db_table} ORDER BY id DESC LIMIT 1"  # noqa: S608 (model table)
_CHAIN_LOCK_SQL = (
    "SET CONSTRAINTS ALL IMMEDIATE; SET CONSTRAINTS ALL DEFERRED; "
    f"SELECT pg_advisory_xact_lock({CHAIN_LOCK_KEY:d}); {_CHAIN_HEAD_SQL}"
)
_EVENT_INSERT = ModelInsert(AuditEvent)


def _take_chain_lock() -> str:
    """Takes the chain's turn (PostgreSQL: SQLite serialises writers anyway) and reads its
    head, the hash of the latest entry ('' when there is none)."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(_CHAIN_LOCK_SQL)
            while cursor.nextset():  # to the last statement's rows
                pass
        else:
            cursor.execute(_CHAIN_HEAD_SQL)
        row = cursor.fetchone()
    return str(row[0]) if row else ""


def _opened_recently(key: dict[str, Any]) -> bool:
    lookups = {f"details__{name}": value for name, value in key["details"].items()}
    return AuditEvent.objects.filter(
        actor_id=key["actor_id"],
        action=key["action"],
        target_type=key["target_type"],
        target_id=key["target_id"],
        occurred_at__gte=timezone.now() - _opening_window(),
        **lookups,
    ).exists()


def _opening_window() -> timedelta:
    """A poll reopening the same object within this window writes no new opening."""
    return timedelta(seconds=max(0, settings.AUDIT_OPENING_WINDOW_SECONDS))


def _opening_cache_key(key: dict[str, Any]) -> str:
    canonical = json.dumps(key, sort_keys=True, default=str)
    return "audit:opened:" + hashlib.sha256(canonical.encode()).hexdigest()


def _opening_remembered(cache_key: str) -> bool:
    try:
        return cache.get(cache_key) is not None
    except CACHE_ERRORS as exc:
        cache_unavailable("audit openings", exc)
        return False


def _opening_remember(cache_key: str) -> None:
    """Remembers a recorded opening for the window, so the next polls skip the database."""
    try:
        cache.set(cache_key, 1, timeout=int(_opening_window().total_seconds()))
    except CACHE_ERRORS as exc:
        cache_unavailable("audit openings", exc)


def _actor_id(actor: Any) -> int | None:
    pk = getattr(actor, "pk", None)
    return int(pk) if pk is not None else None


def prune_expired() -> int:
    """Deletes the oldest entries, those older than AUDIT_RETENTION_DAYS, as one unbroken run
    from the start of the chain (so what is kept still verifies from its oldest entry), and
    records the run, with the hash of the last entry deleted (audit_verify checks the oldest
    kept entry against it)."""
    cutoff = timezone.now() - timedelta(days=settings.AUDIT_RETENTION_DAYS)
    with transaction.atomic():
        _take_chain_lock()
        last_expired = (
            AuditEvent.objects.filter(occurred_at__lt=cutoff)
            .order_by("-id")
            .values_list("id", "hash")
            .first()
        )
        deleted = 0
        if last_expired is not None:
            deleted, _ = AuditEvent.objects.filter(id__lte=last_expired[0]).delete()
        last_deleted = last_expired[1] if last_expired else ""
        _record(
            action=actions.AUDIT_PRUNED,
            actor_id=None,
            actor_role=role_of(None),
            target_type="",
            target_id="",
            company_id=None,
            client_ip=current_client_ip.get(),
            details={
                "deleted": deleted,
                "older_than": cutoff.isoformat(),
                "retention_days": settings.AUDIT_RETENTION_DAYS,
                "last_deleted": last_deleted,
            },
            opening_key=None,
            chain_start=last_deleted,
        )
    return deleted
