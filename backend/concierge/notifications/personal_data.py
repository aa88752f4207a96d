"""The background tasks' part of a person's data (issue 27): stored email and SMS tasks keep
the address (and body) they were sent to; an erasure deletes those of the person."""

from __future__ import annotations

from collections.abc import Sequence

from django_tasks_db.models import DBTaskResult


def task_results_forget(*, terms: Sequence[str]) -> int:
    """Deletes the stored tasks whose arguments name any of `terms` (addresses, names)."""
    doomed: set[str] = set()
    for term in terms:
        rows = DBTaskResult.objects.filter(args_kwargs__icontains=term)
        doomed |= {str(pk) for pk in rows.values_list("pk", flat=True)}
    return DBTaskResult.objects.filter(pk__in=doomed).delete()[0]
