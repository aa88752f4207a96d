"""Reading the audit trail: the chain's check, a company's administrative events, and who on
the concierge side opened a request."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Max, QuerySet

from concierge.audit import actions
from concierge.audit.models import AuditEvent
from concierge.audit.services import chain_hash

# Roles of the concierge side, whose openings an employee sees on their request.
STAFF_ROLES = ("concierge", "staff", "superuser")


@dataclass(frozen=True)
class BrokenLink:
    event_id: int
    reason: str


def first_broken_link() -> BrokenLink | None:
    """Walks the chain from the oldest kept entry (older ones may have been pruned): the first
    entry whose hash does not match its fields, or whose previous hash is not the hash of the
    entry before it. The oldest kept entry chains to the hash the last prune recorded of the
    last entry it deleted (or to nothing, before any prune), so deleting it is found too."""
    previous = last_pruned_hash()
    first = True
    rows = AuditEvent.objects.order_by("id").values_list(*ENTRY_FIELDS)
    for row in rows.iterator(chunk_size=2000):
        event = AuditEvent(**dict(zip(ENTRY_FIELDS, row, strict=True)))
        if event.previous_hash != previous:
            reason = (
                "its previous hash is not the hash the last prune recorded"
                if first
                else "its previous hash is not the hash of the entry before it"
            )
            return BrokenLink(event.id, reason)
        if chain_hash(event) != event.hash:
            return BrokenLink(event.id, "its fields do not match its hash")
        previous = event.hash
        first = False
    return None


def last_pruned_hash() -> str:
    """The hash of the last entry the latest prune deleted: the oldest kept entry's previous
    hash ('' while no prune has deleted anything, the chain's start)."""
    prunes = AuditEvent.objects.filter(action=actions.AUDIT_PRUNED).order_by("-id")
    for details in prunes.values_list("details", flat=True).iterator(chunk_size=100):
        if isinstance(details, dict) and details.get("last_deleted"):
            return str(details["last_deleted"])
    return ""


CHAINED_FIELDS = (
    "occurred_at",
    "actor_id",
    "actor_role",
    "client_ip",
    "action",
    "target_type",
    "target_id",
    "company_id",
    "details",
    "previous_hash",
)
# Every field of an entry, in the order the CSV export lists them.
ENTRY_FIELDS = ("id", *CHAINED_FIELDS, "hash")


def company_admin_events(company_id: int) -> QuerySet[AuditEvent]:
    """What a company admin sees: their company's own administration, never request activity."""
    return AuditEvent.objects.filter(
        company_id=company_id, action__in=actions.COMPANY_ADMIN_VISIBLE
    ).order_by("-id")


@dataclass(frozen=True)
class Opening:
    actor_id: int
    name: str
    role: str
    at: datetime


def request_openings(request_id: int) -> list[Opening]:
    """Who on the concierge side opened a request (its page, thread or attachments), each
    person once with their latest opening, newest first. Two queries."""
    latest = (
        AuditEvent.objects.filter(
            target_type="request",
            target_id=str(request_id),
            action__in=actions.OPENINGS,
            actor_role__in=STAFF_ROLES,
            actor_id__isnull=False,
        )
        .values("actor_id", "actor_role")
        .annotate(at=Max("occurred_at"))
    )
    by_person: dict[int, dict[str, Any]] = {}
    for row in latest:
        actor_id = int(row["actor_id"] or 0)
        kept = by_person.get(actor_id)
        if kept is None or row["at"] > kept["at"]:
            by_person[actor_id] = dict(row)
    names = dict(get_user_model().objects.filter(pk__in=by_person).values_list("pk", "first_name"))
    openings = [
        Opening(actor_id, names.get(actor_id) or "Someone", row["actor_role"], row["at"])
        for actor_id, row in by_person.items()
    ]
    return sorted(openings, key=lambda opening: opening.at, reverse=True)


@dataclass(frozen=True)
class EventPage:
    events: list[AuditEvent]
    actor_names: dict[int, str]
    next_before: int | None


def company_admin_page(*, company_id: int, before: int | None, size: int = 50) -> EventPage:
    """A page of the company's administrative events, newest first, in two queries."""
    events = company_admin_events(company_id)
    if before is not None:
        events = events.filter(id__lt=before)
    page = list(events[: size + 1])
    more = len(page) > size
    page = page[:size]
    actor_ids = {event.actor_id for event in page if event.actor_id is not None}
    names: dict[int, str] = {}
    if actor_ids:
        names = dict(
            get_user_model().objects.filter(pk__in=actor_ids).values_list("pk", "first_name")
        )
    return EventPage(page, names, page[-1].id if more and page else None)
