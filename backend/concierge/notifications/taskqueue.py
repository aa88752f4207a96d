"""A database-backed backend for django-tasks, its worker loop, and the in-process runner.

django-tasks (the backport of Django 6's tasks framework) ships only the immediate and dummy
backends, so this module adds the queue ARCHITECTURE.md §2 asks for:

- `DatabaseBackend.enqueue()` writes a `QueuedTask` row in the caller's transaction. If the
  transaction rolls back, the task never existed; once it commits, the task is stored, so a
  web process dying right after the commit loses nothing.
- `run_due_tasks()` claims due rows one at a time with `SELECT ... FOR UPDATE SKIP LOCKED`
  (PostgreSQL; SQLite serialises writers anyway), runs them outside that transaction and
  records the outcome. A failure is retried `TASKS_MAX_ATTEMPTS` times with a growing delay.
  A row left RUNNING by a worker that died is taken up again after `TASKS_STALE_SECONDS`
  (at-least-once delivery: tasks must be safe to run twice, and ours check before acting).
- `manage.py run_tasks` is the worker process of production (`--once` drains and exits).
- With `TASKS_IN_PROCESS` (the embedded default under DEBUG) the app process runs the queue
  itself in one daemon thread, woken after each commit that enqueued something and otherwise
  sleeping until the next deferred task is due.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any, ParamSpec, TypeVar

from django.conf import settings
from django.db import close_old_connections, connections, transaction
from django.db.models import Min, Q
from django.utils import timezone
from django.utils.module_loading import import_string
from django_tasks import TaskContext, TaskResult, TaskResultStatus
from django_tasks.backends.base import BaseTaskBackend
from django_tasks.base import Task, TaskError
from django_tasks.exceptions import InvalidTaskError, TaskResultDoesNotExist
from django_tasks.utils import get_exception_traceback, get_random_id, normalize_json

logger = logging.getLogger(__name__)

T = TypeVar("T")
P = ParamSpec("P")

IDLE_WAIT_SECONDS = 30.0


def _models():  # imported lazily: the backend is loaded when a @task is defined
    from concierge.notifications.models import QueuedTask

    return QueuedTask


class DatabaseBackend(BaseTaskBackend):
    supports_defer = True
    supports_get_result = True
    supports_priority = True

    def enqueue(
        self,
        task: Task[P, T],
        args: P.args,  # type: ignore[valid-type]
        kwargs: P.kwargs,  # type: ignore[valid-type]
    ) -> TaskResult[T]:
        self.validate_task(task)
        queued_task = _models()
        row = queued_task.objects.create(
            task_path=task.module_path,
            args=normalize_json(args),
            kwargs=normalize_json(kwargs),
            queue_name=task.queue_name,
            backend=self.alias,
            priority=task.priority,
            run_after=task.run_after,
        )
        if settings.TASKS_IN_PROCESS:
            transaction.on_commit(in_process_runner.wake)
        return _result_for_row(row, task)

    def get_result(self, result_id: str) -> TaskResult:
        try:
            row = _models().objects.get(pk=int(result_id))
        except (ValueError, _models().DoesNotExist) as exc:
            raise TaskResultDoesNotExist(result_id) from exc
        return _result_for_row(row, _task_for_path(row.task_path))


def _task_for_path(path: str) -> Task:
    task = import_string(path)
    if not isinstance(task, Task):
        raise InvalidTaskError(f"{path} is not a task")
    return task


def _result_for_row(row: Any, task: Task) -> TaskResult:
    errors = []
    if row.last_error:
        errors.append(
            TaskError(exception_class_path="builtins.Exception", traceback=row.last_error)
        )
    result: TaskResult = TaskResult(
        task=task,
        id=str(row.pk),
        status=TaskResultStatus(row.status),
        enqueued_at=row.enqueued_at,
        started_at=row.started_at,
        finished_at=row.finished_at,
        last_attempted_at=row.started_at,
        args=row.args,
        kwargs=row.kwargs,
        backend=row.backend,
        errors=errors,
        worker_ids=list(row.worker_ids),
    )
    return result


# =========================================================================== the worker


def _due_filter(now: datetime) -> Q:
    return Q(run_after__isnull=True) | Q(run_after__lte=now)


def tasks_requeue_stale(*, now: datetime | None = None) -> int:
    """Rows left RUNNING by a worker that died: ready again (or failed after the last try)."""
    queued_task = _models()
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=settings.TASKS_STALE_SECONDS)
    stale = queued_task.objects.filter(status=queued_task.Status.RUNNING, started_at__lt=cutoff)
    failed = stale.filter(attempts__gte=settings.TASKS_MAX_ATTEMPTS).update(
        status=queued_task.Status.FAILED, finished_at=now, last_error="The worker stopped."
    )
    return failed + stale.update(status=queued_task.Status.READY)


def task_claim_next(*, worker_id: str, now: datetime | None = None) -> Any | None:
    """Take the next due task (highest priority, oldest first) and mark it RUNNING."""
    queued_task = _models()
    now = now or timezone.now()
    with transaction.atomic():
        row = (
            queued_task.objects.select_for_update(skip_locked=True)
            .filter(_due_filter(now), status=queued_task.Status.READY)
            .order_by("-priority", "enqueued_at", "id")
            .first()
        )
        if row is None:
            return None
        row.status = queued_task.Status.RUNNING
        row.started_at = now
        row.attempts += 1
        row.worker_ids = [*row.worker_ids, worker_id][-10:]
        row.save(update_fields=["status", "started_at", "attempts", "worker_ids"])
    return row


def task_execute(*, row: Any) -> bool:
    """Run one claimed task and store the outcome; True when it succeeded."""
    queued_task = _models()
    try:
        task = _task_for_path(row.task_path)
        if task.takes_context:
            context = TaskContext(task_result=_result_for_row(row, task))
            task.call(context, *row.args, **row.kwargs)  # type: ignore[arg-type]
        else:
            task.call(*row.args, **row.kwargs)
    except Exception as exc:
        logger.exception("Task %s (%s) failed on attempt %s", row.pk, row.task_path, row.attempts)
        row.last_error = get_exception_traceback(exc)[-5000:]
        if row.attempts < settings.TASKS_MAX_ATTEMPTS:
            row.status = queued_task.Status.READY
            row.run_after = timezone.now() + timedelta(seconds=30 * 2 ** (row.attempts - 1))
        else:
            row.status = queued_task.Status.FAILED
            row.finished_at = timezone.now()
        row.save(update_fields=["status", "run_after", "finished_at", "last_error"])
        return False
    row.status = queued_task.Status.SUCCESSFUL
    row.finished_at = timezone.now()
    row.save(update_fields=["status", "finished_at"])
    return True


def run_due_tasks(*, worker_id: str | None = None, limit: int | None = None) -> int:
    """Run every task that is due now (at most `limit`); the number run."""
    worker_id = worker_id or get_random_id()
    tasks_requeue_stale()
    count = 0
    while limit is None or count < limit:
        row = task_claim_next(worker_id=worker_id)
        if row is None:
            break
        task_execute(row=row)
        count += 1
    return count


def seconds_until_next_due(*, cap: float = IDLE_WAIT_SECONDS) -> float:
    """How long a worker may sleep before the next READY task is due (at most `cap`)."""
    queued_task = _models()
    ready = queued_task.objects.filter(status=queued_task.Status.READY)
    if ready.filter(run_after__isnull=True).exists():
        return 0.0
    next_due = ready.aggregate(next_due=Min("run_after"))["next_due"]
    if next_due is None:
        return cap
    return max(0.0, min(cap, (next_due - timezone.now()).total_seconds()))


def worker_loop(
    *,
    stop: Callable[[], bool],
    wake: threading.Event | None = None,
    poll_seconds: float = IDLE_WAIT_SECONDS,
) -> None:
    """Run due tasks until `stop()`, sleeping until the next one is due, `wake` is set, or at
    most `poll_seconds` (tasks enqueued by other processes are seen at the next poll)."""
    wake = wake or threading.Event()
    worker_id = get_random_id()
    while not stop():
        wake.clear()
        try:
            close_old_connections()
            run_due_tasks(worker_id=worker_id)
            delay = seconds_until_next_due(cap=poll_seconds)
        except Exception:
            logger.exception("The task worker hit an error; trying again shortly")
            delay = 5.0
        finally:
            close_old_connections()
        if delay > 0:
            wake.wait(delay)


class InProcessRunner:
    """The embedded default's worker: one daemon thread in the app process."""

    def __init__(self) -> None:
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def _run(self) -> None:
        try:
            worker_loop(stop=self._stopping.is_set, wake=self._wake)
        finally:
            connections.close_all()

    def start(self) -> None:
        with self._lock:
            if self._thread is not None and self._thread.is_alive():
                return
            self._stopping.clear()
            self._thread = threading.Thread(target=self._run, name="tasks-in-process", daemon=True)
            self._thread.start()

    def wake(self) -> None:
        self.start()
        self._wake.set()

    def stop(self, timeout: float = 10.0) -> None:
        with self._lock:
            thread = self._thread
            self._stopping.set()
            self._wake.set()
        if thread is not None:
            thread.join(timeout)


in_process_runner = InProcessRunner()
