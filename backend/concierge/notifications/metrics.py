"""The background tasks' metrics (docs/operations/monitoring.md).

Read from the task table when `/metrics` is scraped, so every node reports the same figures
for the whole deployment, wherever the workers run:

- `concierge_task_queue_depth{queue}`: tasks due now and not yet taken by a worker;
- `concierge_task_queue_oldest_age_seconds{queue}`: how long the oldest of them has been due
  (0 when none is): a worker that is down or too slow shows here first;
- `concierge_tasks_scheduled{queue}`: tasks waiting for a later time (delayed emails, retries);
- `concierge_tasks_running{queue}`;
- `concierge_tasks_failed{queue}`: tasks that failed for good (every attempt used), kept
  until `prune_db_task_results` removes them.

Counted by the worker process that runs the task:

- `concierge_task_runs_total{task, outcome}`: each attempt, `successful` or `failed`.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

from django.db.models import Count, Min, Q
from django.utils import timezone
from django_tasks import DEFAULT_TASK_QUEUE_NAME, TaskResultStatus
from django_tasks_db.models import DBTaskResult, get_date_max
from prometheus_client import Counter
from prometheus_client.core import GaugeMetricFamily

from concierge.common.metrics import scrape_collector_register

task_runs = Counter(
    "concierge_task_runs",
    "Background task attempts finished by this node's workers, by task and outcome.",
    ["task", "outcome"],
)


def task_run_count(*, task_path: str, failed: bool) -> None:
    task_runs.labels(task_path, "failed" if failed else "successful").inc()


def task_queue_figures(*, now: datetime | None = None) -> dict[str, dict[str, float]]:
    """Per queue: due, oldest_age_seconds, scheduled, running, failed (one query)."""
    now = now or timezone.now()
    never = get_date_max()  # the library's run_after for "as soon as possible"
    ready = Q(status=TaskResultStatus.READY)
    due_now = ready & (Q(run_after=never) | Q(run_after__lte=now))
    rows = (
        DBTaskResult.objects.filter(
            status__in=[TaskResultStatus.READY, TaskResultStatus.RUNNING, TaskResultStatus.FAILED]
        )
        .values("queue_name")
        .annotate(
            due=Count("id", filter=due_now),
            scheduled=Count("id", filter=ready & Q(run_after__gt=now) & ~Q(run_after=never)),
            running=Count("id", filter=Q(status=TaskResultStatus.RUNNING)),
            failed=Count("id", filter=Q(status=TaskResultStatus.FAILED)),
            # Due since it was enqueued (no delay) or since its run_after (a delay, a retry).
            oldest_enqueued=Min("enqueued_at", filter=ready & Q(run_after=never)),
            oldest_run_after=Min("run_after", filter=ready & Q(run_after__lte=now)),
        )
        .order_by()
    )
    figures = {
        DEFAULT_TASK_QUEUE_NAME: {
            "due": 0.0,
            "oldest_age_seconds": 0.0,
            "scheduled": 0.0,
            "running": 0.0,
            "failed": 0.0,
        }
    }
    for row in rows:
        due_since = [t for t in (row["oldest_enqueued"], row["oldest_run_after"]) if t is not None]
        figures[row["queue_name"]] = {
            "due": float(row["due"]),
            "oldest_age_seconds": (
                max(0.0, (now - min(due_since)).total_seconds()) if due_since else 0.0
            ),
            "scheduled": float(row["scheduled"]),
            "running": float(row["running"]),
            "failed": float(row["failed"]),
        }
    return figures


_GAUGES = (
    ("due", "concierge_task_queue_depth", "Background tasks due now, not yet taken by a worker."),
    (
        "oldest_age_seconds",
        "concierge_task_queue_oldest_age_seconds",
        "How long the oldest task due now has been waiting for a worker (0 when none).",
    ),
    ("scheduled", "concierge_tasks_scheduled", "Background tasks waiting for a later time."),
    ("running", "concierge_tasks_running", "Background tasks being run by a worker."),
    (
        "failed",
        "concierge_tasks_failed",
        "Background tasks that failed on their last attempt (until pruned).",
    ),
)


class TaskQueueCollector:
    """The task table's figures, read at each scrape."""

    def collect(self) -> Iterator[GaugeMetricFamily]:
        figures = task_queue_figures()
        for key, name, documentation in _GAUGES:
            gauge = GaugeMetricFamily(name, documentation, labels=["queue"])
            for queue, values in sorted(figures.items()):
                gauge.add_metric([queue], values[key])
            yield gauge


scrape_collector_register(TaskQueueCollector())
