"""Saved reply reads."""

from __future__ import annotations

from django.db.models import QuerySet

from concierge.common.errors import NotFound
from concierge.common.validation import is_database_id
from concierge.saved_replies.models import SavedReply

NOT_FOUND = "We couldn't find that saved reply."


def saved_reply_list() -> QuerySet[SavedReply]:
    """Every saved reply by title, with who last changed it: one query."""
    return SavedReply.objects.select_related("updated_by")


def saved_reply_get(*, reply_id: int) -> SavedReply:
    reply = SavedReply.objects.filter(pk=reply_id).first() if is_database_id(reply_id) else None
    if reply is None:
        raise NotFound(NOT_FOUND)
    return reply
