"""The django-tasks database backend: enqueue in the caller's transaction, the worker, retries."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import transaction
from django.utils import timezone
from django_tasks import TaskResultStatus, task

from concierge.notifications.models import QueuedTask
from concierge.notifications.taskqueue import (
    InProcessRunner,
    run_due_tasks,
    seconds_until_next_due,
    task_claim_next,
)

pytestmark = pytest.mark.django_db

CALLS: list[str] = []


@task()
def record(*, word: str) -> str:
    CALLS.append(word)
    return word


@task()
def explode() -> None:
    raise RuntimeError("boom")


@pytest.fixture(autouse=True)
def _calls():
    CALLS.clear()
    yield
    CALLS.clear()


def test_enqueue_stores_a_row_and_the_worker_runs_it(capsys):
    result = record.enqueue(word="hello")
    row = QueuedTask.objects.get(pk=int(result.id))
    assert row.status == QueuedTask.Status.READY
    assert row.task_path.endswith("test_taskqueue.record")
    assert row.kwargs == {"word": "hello"}
    assert CALLS == []  # nothing runs at enqueue

    call_command("run_tasks", "--once")
    assert "Ran 1 task." in capsys.readouterr().out
    assert CALLS == ["hello"]
    result.refresh()
    assert result.status == TaskResultStatus.SUCCESSFUL
    assert result.attempts == 1


def test_enqueue_joins_the_callers_transaction():
    with pytest.raises(RuntimeError), transaction.atomic():
        record.enqueue(word="never")
        raise RuntimeError("rolled back")
    assert not QueuedTask.objects.exists()


def test_deferred_task_waits_until_it_is_due():
    record.using(run_after=timezone.now() + timedelta(minutes=5)).enqueue(word="later")
    assert run_due_tasks() == 0
    assert 0 < seconds_until_next_due(cap=600) <= 300
    QueuedTask.objects.update(run_after=timezone.now() - timedelta(seconds=1))
    assert run_due_tasks() == 1
    assert CALLS == ["later"]


def test_failing_task_is_retried_then_marked_failed(settings):
    settings.TASKS_MAX_ATTEMPTS = 2
    result = explode.enqueue()
    assert run_due_tasks() == 1
    row = QueuedTask.objects.get(pk=int(result.id))
    assert (row.status, row.attempts) == (QueuedTask.Status.READY, 1)
    assert "RuntimeError: boom" in row.last_error
    assert row.run_after > timezone.now()  # backs off before the retry
    QueuedTask.objects.update(run_after=timezone.now())
    assert run_due_tasks() == 1
    row.refresh_from_db()
    assert (row.status, row.attempts) == (QueuedTask.Status.FAILED, 2)


def test_a_task_left_running_by_a_dead_worker_is_run_again():
    record.enqueue(word="again")
    claimed = task_claim_next(worker_id="worker-that-dies")
    assert claimed is not None
    assert run_due_tasks() == 0  # still RUNNING, not stale yet
    QueuedTask.objects.update(started_at=timezone.now() - timedelta(hours=1))
    assert run_due_tasks() == 1
    assert CALLS == ["again"]


def test_two_workers_never_claim_the_same_task():
    record.enqueue(word="once")
    first = task_claim_next(worker_id="a")
    second = task_claim_next(worker_id="b")
    assert first is not None and second is None


@pytest.mark.django_db(transaction=True)
def test_in_process_runner_runs_tasks_after_the_commit(settings):
    """The embedded default: the app process itself runs what it enqueued, after commit."""
    settings.TASKS_IN_PROCESS = True
    runner = InProcessRunner()
    import concierge.notifications.taskqueue as taskqueue

    original, taskqueue.in_process_runner = taskqueue.in_process_runner, runner
    try:
        with transaction.atomic():
            record.enqueue(word="embedded")
        deadline = time.monotonic() + 10
        while CALLS != ["embedded"] and time.monotonic() < deadline:
            time.sleep(0.02)
    finally:
        runner.stop()
        taskqueue.in_process_runner = original
    assert CALLS == ["embedded"]
    assert QueuedTask.objects.get().status == QueuedTask.Status.SUCCESSFUL
