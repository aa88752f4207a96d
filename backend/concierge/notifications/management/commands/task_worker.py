"""`manage.py task_worker`: django-tasks-db's `db_worker` (same options), which also makes
ready again the tasks that a worker which died left running (see notifications.background)."""

from __future__ import annotations

from typing import Any

from django_tasks_db.management.commands.db_worker import Command as DbWorkerCommand

from concierge.notifications.background import StaleTaskRecovery, tasks_requeue_stale


class Command(DbWorkerCommand):
    help = (
        "Runs background tasks (emails, text messages) as they fall due: django-tasks-db's "
        "db_worker, plus recovery of tasks left running by a worker that died "
        "(after TASKS_STALE_SECONDS). With --batch it runs what is ready now and exits."
    )

    def handle(self, **options: Any) -> None:
        tasks_requeue_stale()
        if not options["batch"]:
            StaleTaskRecovery().start()
        super().handle(**options)
