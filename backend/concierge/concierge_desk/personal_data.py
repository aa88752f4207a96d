"""The desk's part of a person's data (issue 27): the concierges' internal notes on their
requests keep their text without the person's name and addresses."""

from __future__ import annotations

from collections.abc import Sequence

from concierge.common.redaction import redact
from concierge.concierge_desk.models import InternalNote


def notes_redact(*, request_ids: Sequence[int], terms: Sequence[str]) -> int:
    redacted = 0
    for note in InternalNote.objects.filter(request_id__in=list(request_ids)):
        body = redact(note.body, terms)
        if body != note.body:
            InternalNote.objects.filter(pk=note.pk).update(body=body)
            redacted += 1
    return redacted


def notes_erase(*, request_ids: Sequence[int]) -> int:
    """A retention window's erasure: the notes of the requests."""
    return InternalNote.objects.filter(request_id__in=list(request_ids)).delete()[0]
