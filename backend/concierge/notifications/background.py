"""Background work: django-tasks on the django-tasks-db database backend, plus what the
library leaves to its users.

django-tasks-db stores every enqueued task as a `DBTaskResult` row; its worker (`db_worker`,
which `manage.py task_worker` runs) claims ready rows one at a time and records the outcome.
This module adds:

- `enqueue_on_commit()`: work that leaves the process (email, SMS) is enqueued once the
  caller's transaction has committed, never inside it. A rolled-back request enqueues nothing;
  a committed one has its task row stored before its response is sent, so a process that dies
  afterwards loses nothing.
- Retries: the library takes a task that raised as finally FAILED. Here it is made READY again
  after 30 s, 1 min, 2 min, ... (TASKS_RETRY_DELAY_SECONDS doubling, at most
  TASKS_RETRY_MAX_DELAY_SECONDS) until it has had TASKS_MAX_ATTEMPTS attempts.
- Recovery: the library leaves a task RUNNING for ever when its worker dies mid-task (killed,
  out of memory, machine lost). A task RUNNING for longer than TASKS_STALE_SECONDS is made
  READY again (FAILED after the last attempt). Delivery is therefore at least once, and the
  tasks check before they act.
- `in_process_worker`: the embedded default (TASKS_IN_PROCESS) runs the library's worker, and
  the recovery, in threads of the app process.
- `forget_body_when_sent()`: the stored arguments of a task that delivers a secret (an unlock
  link, a sign-in code) lose the message body once it was sent.
"""

from __future__ import annotations

import logging
import threading
import time
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import connections, transaction
from django.dispatch import receiver
from django.utils import timezone
from django.utils.crypto import get_random_string
from django_tasks import DEFAULT_TASK_QUEUE_NAME, TaskResult, TaskResultStatus
from django_tasks.base import Task
from django_tasks.signals import task_finished
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult

from concierge.notifications.metrics import task_run_count

logger = logging.getLogger(__name__)

WORKER_LOST = "The worker stopped while running this task."
BODY_FORGOTTEN = "(removed once sent)"
_FORGET_BODY_WHEN_SENT: set[str] = set()


class _Enqueue:
    """The on-commit callback that enqueues one task (once, however often it is called)."""

    def __init__(self, task: Task, kwargs: dict[str, Any]) -> None:
        self.task = task
        self.kwargs = kwargs
        self.enqueued = False
        self.__qualname__ = f"enqueue {task.module_path}"

    def __call__(self) -> None:
        if not self.enqueued:
            self.enqueued = True
            self.task.enqueue(**self.kwargs)


def enqueue_on_commit(task: Task, /, **kwargs: Any) -> None:
    """Enqueue `task(**kwargs)` when the current transaction commits (at once outside one).

    A failure to enqueue is logged, never raised: the caller's work is committed by then and
    its response must not change.
    """
    transaction.on_commit(_Enqueue(task, kwargs), robust=True)


def forget_body_when_sent(task: Task) -> Task:
    """Mark `task` (whose `body` argument, and `html` when given, may carry a secret) so that
    its stored `body` and `html` are replaced once it succeeded; a task still to be tried keeps
    them."""
    _FORGET_BODY_WHEN_SENT.add(task.module_path)
    return task


def _forget_body(db_result: Any) -> None:
    kwargs = {**db_result.args_kwargs["kwargs"], "body": BODY_FORGOTTEN}
    if "html" in kwargs:
        kwargs["html"] = BODY_FORGOTTEN
    DBTaskResult.objects.filter(pk=db_result.pk).update(
        args_kwargs={"args": db_result.args_kwargs["args"], "kwargs": kwargs}
    )


# =========================================================================== retries


def retry_delay_seconds(attempts: int) -> int:
    """How long to wait before the next attempt after `attempts` failed ones."""
    delay = int(settings.TASKS_RETRY_DELAY_SECONDS) * 2 ** max(0, attempts - 1)
    return min(delay, int(settings.TASKS_RETRY_MAX_DELAY_SECONDS))


def task_retry_later(*, result_id: Any, attempts: int) -> bool:
    """Make a FAILED task READY again after the backoff delay, while attempts are left."""
    if attempts >= settings.TASKS_MAX_ATTEMPTS:
        return False
    run_after = timezone.now() + timedelta(seconds=retry_delay_seconds(attempts))
    updated = DBTaskResult.objects.filter(pk=result_id, status=TaskResultStatus.FAILED).update(
        status=TaskResultStatus.READY, run_after=run_after, finished_at=None
    )
    return updated == 1


@receiver(task_finished, dispatch_uid="concierge.notifications.background.finished")
def _task_finished(sender: Any, task_result: TaskResult, **kwargs: Any) -> None:
    db_result = getattr(task_result, "db_result", None)
    if db_result is None:
        return
    try:  # the worker must never take a failure here for the task's own
        task_run_count(
            task_path=db_result.task_path, failed=task_result.status == TaskResultStatus.FAILED
        )
        if task_result.status == TaskResultStatus.FAILED:
            _retry_failed_task(db_result)
        elif db_result.task_path in _FORGET_BODY_WHEN_SENT:
            _forget_body(db_result)
    except Exception:
        logger.exception("Could not record the outcome of task %s", db_result.pk)


def _retry_failed_task(db_result: Any) -> None:
    attempts = len(db_result.worker_ids)
    if task_retry_later(result_id=db_result.pk, attempts=attempts):
        logger.warning(
            "Task %s (%s) failed on attempt %s; trying again later",
            db_result.pk,
            db_result.task_path,
            attempts,
        )
    else:
        logger.error(
            "Task %s (%s) failed on its last attempt (%s)",
            db_result.pk,
            db_result.task_path,
            attempts,
        )


# =========================================================================== recovery


def tasks_requeue_stale(*, now: datetime | None = None) -> int:
    """Tasks RUNNING for longer than TASKS_STALE_SECONDS: READY again, or FAILED when that
    was their last attempt. The number changed."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=settings.TASKS_STALE_SECONDS)
    changed = 0
    stale = DBTaskResult.objects.running().filter(started_at__lt=cutoff)
    for row in stale.only("id", "started_at", "worker_ids"):
        # Guarded by started_at: a worker that finishes or retakes it meanwhile wins.
        same_run = DBTaskResult.objects.filter(
            pk=row.pk, status=TaskResultStatus.RUNNING, started_at=row.started_at
        )
        if len(row.worker_ids) >= settings.TASKS_MAX_ATTEMPTS:
            changed += same_run.update(
                status=TaskResultStatus.FAILED,
                finished_at=now,
                exception_class_path="builtins.RuntimeError",
                traceback=WORKER_LOST,
            )
            logger.error("Task %s lost its worker on its last attempt", row.pk)
        else:
            changed += same_run.update(status=TaskResultStatus.READY, run_after=now)
            logger.warning("Task %s lost its worker; it will run again", row.pk)
    return changed


def recovery_interval_seconds() -> float:
    return float(min(60, settings.TASKS_STALE_SECONDS))


class StaleTaskRecovery:
    """A daemon thread running `tasks_requeue_stale()` every minute (or more often)."""

    def __init__(self) -> None:
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="tasks-recovery", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()

    def _run(self) -> None:
        while not self._stopping.is_set():
            try:
                tasks_requeue_stale()
            except Exception:
                logger.exception("Could not look for tasks left by a stopped worker")
            finally:
                connections.close_all()
            self._stopping.wait(recovery_interval_seconds())


# =========================================================================== workers


def worker_new(*, batch: bool = False, interval: float | None = None) -> Worker:
    """django-tasks-db's worker for the default backend and queue."""
    return Worker(
        queue_names=[DEFAULT_TASK_QUEUE_NAME],
        interval=float(settings.TASKS_POLL_SECONDS if interval is None else interval),
        batch=batch,
        backend_name="default",
        startup_delay=False,
        max_tasks=None,
        worker_id=get_random_string(32),
        excluded_queue_names=[],
    )


class InProcessWorker:
    """The embedded default's worker: the library's worker loop in a daemon thread of the app
    process, next to the recovery thread. Polls every TASKS_POLL_SECONDS."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._worker: Worker | None = None
        self._recovery: StaleTaskRecovery | None = None

    def start(self) -> None:
        with self._lock:
            if self._thread is not None and self._thread.is_alive():
                return
            self._worker = worker_new()
            self._recovery = StaleTaskRecovery()
            self._thread = threading.Thread(
                target=self._run, args=(self._worker,), name="tasks-in-process", daemon=True
            )
            self._recovery.start()
            self._thread.start()

    @staticmethod
    def _run(worker: Worker) -> None:
        while worker.running:
            try:
                worker.run()
            except Exception:
                logger.exception("The in-process task worker hit an error; restarting it")
                time.sleep(5)
            finally:
                connections.close_all()

    def stop(self, timeout: float = 10.0) -> None:
        with self._lock:
            thread, worker, recovery = self._thread, self._worker, self._recovery
            self._thread = None
        if worker is not None:
            worker.running = False
        if recovery is not None:
            recovery.stop()
        if thread is not None:
            thread.join(timeout)


in_process_worker = InProcessWorker()
