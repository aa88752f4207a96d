"""The task worker: `manage.py run_tasks` runs the background task queue until stopped."""

from __future__ import annotations

import signal
import threading

from django.conf import settings
from django.core.management.base import BaseCommand

from concierge.notifications.taskqueue import run_due_tasks, worker_loop


class Command(BaseCommand):
    help = (
        "Runs queued background tasks (reply notification emails, ...) as they fall due. "
        "Run one or more of these next to the app processes in production; with --once it "
        "runs what is due now and exits."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--once", action="store_true", help="Run the tasks that are due now, then exit."
        )

    def handle(self, *args, once=False, **options):
        if once:
            count = run_due_tasks()
            self.stdout.write(f"Ran {count} task{'s' if count != 1 else ''}.")
            return
        stopping = threading.Event()

        def stop(signum, frame):
            stopping.set()
            wake.set()

        wake = threading.Event()
        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        self.stdout.write("Task worker started; Ctrl+C to stop.")
        worker_loop(
            stop=stopping.is_set, wake=wake, poll_seconds=float(settings.TASKS_POLL_SECONDS)
        )
        self.stdout.write("Task worker stopped.")
