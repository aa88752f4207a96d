"""Reply by email's part of a person's data: the records of the emails they sent (never a body;
the sender's address, when, and what became of each)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db.models import Q

from concierge.inbound_email.models import InboundEmail


def inbound_emails_export(*, user: Any) -> dict[str, Any]:
    """The person's received emails, newest first."""
    return {
        "emails_received": [
            {
                "received_at": record.received_at.isoformat(),
                "from": record.sender,
                "request_id": record.request_id,
                "outcome": record.outcome,
                "reason": record.reason,
            }
            for record in InboundEmail.objects.filter(user=user)
        ]
    }


def inbound_emails_erase(*, user: Any, addresses: Sequence[str]) -> int:
    """Delete the records of the person's emails: theirs, and any sent from one of their
    addresses (a refused email has no person)."""
    match = Q(user=user)
    for address in {a.strip().lower() for a in addresses if "@" in a}:
        match |= Q(sender__iexact=address)
    return InboundEmail.objects.filter(match).delete()[0]
