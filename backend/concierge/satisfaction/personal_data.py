"""The ratings' part of a person's data (issue 27). The scores stay for the company's and the
concierges' averages; the comments are the person's words and go."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from concierge.satisfaction.models import Rating


def ratings_export(*, user: Any) -> dict[int, dict[str, Any]]:
    """The person's ratings by request id."""
    return {
        rating.request_id: {
            "score": rating.score,
            "comment": rating.comment,
            "created_at": rating.created_at.isoformat(),
        }
        for rating in Rating.objects.filter(request__user=user)
    }


def ratings_erase_comments(*, request_ids: Sequence[int]) -> int:
    return Rating.objects.filter(request_id__in=list(request_ids)).update(
        comment="", comment_key_hash="", employee=None
    )
