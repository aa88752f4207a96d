"""Saved reply writes (shared by every concierge) and the filling-in of their placeholders."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from django.db import IntegrityError, transaction

from concierge.common.errors import ValidationFailed
from concierge.common.validation import too_long
from concierge.saved_replies.models import SavedReply

if TYPE_CHECKING:
    from concierge.accounts.models import User

TITLE_MAX = 100
BODY_MAX = 10_000
PLACEHOLDERS = ("first_name", "request_name", "concierge_first_name")
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
TITLE_REQUIRED = "Please give the saved reply a title."
TITLE_TOO_LONG = too_long(TITLE_MAX)
TITLE_TAKEN = "A saved reply with this title already exists."
BODY_REQUIRED = "Please write the reply."
BODY_TOO_LONG = too_long(BODY_MAX)
UNKNOWN_PLACEHOLDER = (
    "Unknown placeholder {{{name}}}: use {{first_name}}, {{request_name}} or "
    "{{concierge_first_name}}."
)


def _clean(title: str, body: str) -> tuple[str, str]:
    title = " ".join((title or "").split())
    body = (body or "").strip()
    if not title:
        raise ValidationFailed.for_field("title", TITLE_REQUIRED)
    if len(title) > TITLE_MAX:
        raise ValidationFailed.for_field("title", TITLE_TOO_LONG)
    if not body:
        raise ValidationFailed.for_field("body", BODY_REQUIRED)
    if len(body) > BODY_MAX:
        raise ValidationFailed.for_field("body", BODY_TOO_LONG)
    for name in PLACEHOLDER.findall(body):
        if name not in PLACEHOLDERS:
            raise ValidationFailed.for_field("body", UNKNOWN_PLACEHOLDER.format(name=name))
    return title, body


def _save(reply: SavedReply) -> SavedReply:
    try:
        with transaction.atomic():
            reply.save()
    except IntegrityError:
        raise ValidationFailed.for_field("title", TITLE_TAKEN) from None
    return reply


def saved_reply_create(*, title: str, body: str, author: User) -> SavedReply:
    title, body = _clean(title, body)
    return _save(SavedReply(title=title, body=body, created_by=author, updated_by=author))


def saved_reply_update(*, reply: SavedReply, title: str, body: str, author: User) -> SavedReply:
    reply.title, reply.body = _clean(title, body)
    reply.updated_by = author
    return _save(reply)


def saved_reply_delete(*, reply: SavedReply) -> None:
    reply.delete()


def saved_reply_fill(
    body: str, *, first_name: str, request_name: str, concierge_first_name: str
) -> str:
    """The text with its placeholders filled in (plain substitution: a value that itself looks
    like a placeholder stays as it is)."""
    values = {
        "first_name": first_name,
        "request_name": request_name,
        "concierge_first_name": concierge_first_name,
    }
    return PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), body)
