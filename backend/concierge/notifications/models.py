"""The background task queue's table (see `concierge.notifications.taskqueue`)."""

from __future__ import annotations

from django.db import models
from django.utils import timezone


class QueuedTask(models.Model):
    """One enqueued django-tasks Task, stored so that a worker process can run it later.

    The row is written in the caller's database transaction: it exists exactly when the work
    that asked for it was committed, so a process that dies after the commit loses nothing.
    """

    class Status(models.TextChoices):
        # The same values as django_tasks.TaskResultStatus.
        READY = "READY", "Ready"
        RUNNING = "RUNNING", "Running"
        SUCCESSFUL = "SUCCESSFUL", "Successful"
        FAILED = "FAILED", "Failed"

    task_path = models.CharField(max_length=300, help_text="Module path of the task function.")
    args = models.JSONField(default=list, blank=True)
    kwargs = models.JSONField(default=dict, blank=True)
    queue_name = models.CharField(max_length=100, default="default")
    backend = models.CharField(max_length=100, default="default")
    priority = models.SmallIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.READY)
    run_after = models.DateTimeField(
        null=True, blank=True, help_text="Not run before this time (empty: as soon as possible)."
    )
    enqueued_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    worker_ids = models.JSONField(default=list, blank=True)
    last_error = models.TextField(blank=True)

    class Meta:
        ordering = ["-enqueued_at", "-id"]
        indexes = [
            models.Index(fields=["status", "run_after"], name="queuedtask_due_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.task_path} ({self.status})"
