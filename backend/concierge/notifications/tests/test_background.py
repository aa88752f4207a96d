"""Background work on django-tasks + django-tasks-db (issue 11 'Background work'): tasks are
enqueued on commit, a failed task is retried with backoff, a task whose worker died runs again
and completes once, and the embedded default runs the worker in the app process."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path
from urllib.parse import quote

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection, transaction
from django.utils import timezone
from django_tasks import TaskResultStatus, task
from django_tasks_db.models import DBTaskResult

from concierge.notifications.background import (
    InProcessWorker,
    enqueue_on_commit,
    retry_delay_seconds,
    tasks_requeue_stale,
)

pytestmark = pytest.mark.django_db

CALLS: list[str] = []
FAILURES_LEFT: list[int] = [0]


@task()
def record(*, word: str) -> str:
    CALLS.append(word)
    return word


@task()
def flaky(*, word: str) -> str:
    """Fails while FAILURES_LEFT is above zero (a mail server that is down), then works."""
    if FAILURES_LEFT[0] > 0:
        FAILURES_LEFT[0] -= 1
        raise ConnectionRefusedError("the server is down")
    CALLS.append(word)
    return word


@task()
def hold_then_record(*, log: str, release: str) -> str:
    """Notes its start, waits for the `release` file, then notes that it completed."""
    with open(log, "a") as handle:
        handle.write("started\n")
    deadline = time.monotonic() + 60
    while not os.path.exists(release) and time.monotonic() < deadline:
        time.sleep(0.05)
    with open(log, "a") as handle:
        handle.write("completed\n")
    return "completed"


@pytest.fixture(autouse=True)
def _calls():
    CALLS.clear()
    FAILURES_LEFT[0] = 0
    yield
    CALLS.clear()


def test_a_task_is_stored_when_the_transaction_commits_and_the_worker_runs_it(tasks):
    with transaction.atomic():
        enqueue_on_commit(record, word="hello")
        assert DBTaskResult.objects.count() == 0  # nothing before the commit
    [row] = tasks.results()
    assert (row.status, row.task_path) == (TaskResultStatus.READY, record.module_path)
    assert row.args_kwargs == {"args": [], "kwargs": {"word": "hello"}}
    assert CALLS == []  # nothing runs at enqueue

    assert tasks.run() == 1
    assert CALLS == ["hello"]
    row.refresh_from_db()
    assert (row.status, row.return_value) == (TaskResultStatus.SUCCESSFUL, "hello")


def test_nothing_is_enqueued_when_the_transaction_rolls_back(tasks):
    with pytest.raises(RuntimeError), transaction.atomic():
        enqueue_on_commit(record, word="never")
        raise RuntimeError("the request failed")
    assert tasks.results() == []
    assert tasks.run() == 0
    assert CALLS == []


@pytest.mark.django_db(transaction=True)
def test_the_worker_command_runs_what_is_due():
    enqueue_on_commit(record, word="from the command")  # autocommit: stored at once
    call_command("task_worker", "--batch", "--no-reload")
    assert CALLS == ["from the command"]


def test_a_failed_task_is_retried_with_backoff_until_its_last_attempt(tasks, settings):
    settings.TASKS_MAX_ATTEMPTS = 3
    FAILURES_LEFT[0] = 99
    enqueue_on_commit(flaky, word="never sent")
    start = timezone.now()

    tasks.run(at=start)
    [row] = tasks.results()
    assert row.status == TaskResultStatus.READY  # failed once, waiting to try again
    assert row.run_after == start + timedelta(seconds=30)
    assert "ConnectionRefusedError" in row.traceback
    assert tasks.run(at=start + timedelta(seconds=29)) == 0  # not due yet

    tasks.run(at=start + timedelta(seconds=30))
    row.refresh_from_db()
    assert row.status == TaskResultStatus.READY
    assert row.run_after == start + timedelta(seconds=30 + 60)  # the delay doubles

    tasks.run(at=start + timedelta(seconds=90))
    row.refresh_from_db()
    assert row.status == TaskResultStatus.FAILED  # the third attempt was the last
    assert len(row.worker_ids) == 3
    assert tasks.run(at=start + timedelta(days=1)) == 0
    assert CALLS == []


def test_a_task_that_fails_then_works_completes_once(tasks):
    FAILURES_LEFT[0] = 2
    enqueue_on_commit(flaky, word="sent")
    start = timezone.now()
    tasks.run(at=start)
    tasks.run(at=start + timedelta(seconds=30))
    tasks.run(at=start + timedelta(seconds=90))
    [row] = tasks.results()
    assert (row.status, len(row.worker_ids)) == (TaskResultStatus.SUCCESSFUL, 3)
    assert CALLS == ["sent"]


def test_retry_delays_double_up_to_the_maximum(settings):
    settings.TASKS_RETRY_DELAY_SECONDS = 30
    settings.TASKS_RETRY_MAX_DELAY_SECONDS = 3600
    assert [retry_delay_seconds(n) for n in range(1, 10)] == [
        30,
        60,
        120,
        240,
        480,
        960,
        1920,
        3600,
        3600,
    ]


def test_a_task_left_running_by_a_dead_worker_runs_again(tasks, settings):
    settings.TASKS_STALE_SECONDS = 600
    enqueue_on_commit(record, word="again")
    [row] = tasks.results()
    row.claim("worker-that-died")  # RUNNING, and its worker is gone
    now = timezone.now()

    assert tasks_requeue_stale(now=now + timedelta(seconds=599)) == 0  # may still be running
    assert tasks_requeue_stale(now=now + timedelta(seconds=601)) == 1
    row.refresh_from_db()
    assert row.status == TaskResultStatus.READY
    tasks.run(at=now + timedelta(seconds=601))
    row.refresh_from_db()
    assert row.status == TaskResultStatus.SUCCESSFUL
    assert CALLS == ["again"]


def test_a_task_that_lost_its_worker_on_its_last_attempt_fails(tasks, settings):
    settings.TASKS_MAX_ATTEMPTS = 1
    enqueue_on_commit(record, word="lost")
    [row] = tasks.results()
    row.claim("worker-that-died")
    assert tasks_requeue_stale(now=timezone.now() + timedelta(hours=1)) == 1
    row.refresh_from_db()
    assert row.status == TaskResultStatus.FAILED
    assert "worker stopped" in row.traceback


# --------------------------------------------------------------------------- real processes


def _database_url() -> str:
    """The URL of the test database, for a worker started as a separate process."""
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    credentials = quote(db["USER"] or "")
    if db["PASSWORD"]:
        credentials += ":" + quote(db["PASSWORD"])
    return f"postgres://{credentials}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def _start_worker(*args: str, stale_seconds: int) -> subprocess.Popen:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings_test",
        "DATABASE_URL": _database_url(),
        "TASKS_STALE_SECONDS": str(stale_seconds),
    }
    return subprocess.Popen(
        [sys.executable, "manage.py", "task_worker", "--no-reload", *args],
        cwd=settings.BACKEND_DIR,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def _wait_for(condition, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        time.sleep(0.05)


@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_mid_task_leaves_the_task_to_complete_exactly_once(tmp_path: Path):
    """Issue 11: a worker process is killed (SIGKILL) while running a task; the next worker
    takes the task up again and it completes, once."""
    log, release = tmp_path / "log.txt", tmp_path / "release"
    enqueue_on_commit(hold_then_record, log=str(log), release=str(release))  # autocommit

    first = _start_worker("--interval", "0.1", "--no-startup-delay", stale_seconds=3600)
    try:
        _wait_for(lambda: log.exists() and "started" in log.read_text())
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait(10)
    row = DBTaskResult.objects.get()
    assert row.status == TaskResultStatus.RUNNING  # left behind by the dead worker
    assert log.read_text() == "started\n"

    release.touch()
    time.sleep(1.2)  # the next worker takes a task running for over a second as lost
    second = _start_worker("--batch", stale_seconds=1)
    _, stderr = second.communicate(timeout=60)
    assert second.returncode == 0, stderr.decode()

    row.refresh_from_db()
    assert row.status == TaskResultStatus.SUCCESSFUL
    assert len(row.worker_ids) == 2 and row.worker_ids[0] != row.worker_ids[1]
    assert log.read_text() == "started\nstarted\ncompleted\n"  # completed exactly once


@pytest.mark.django_db(transaction=True)
def test_the_embedded_default_runs_tasks_in_the_app_process(settings):
    """TASKS_IN_PROCESS (make run): the app process's own worker thread runs what a request
    enqueued, without a separate worker."""
    settings.TASKS_POLL_SECONDS = 0.1
    worker = InProcessWorker()
    worker.start()
    try:
        with transaction.atomic():
            enqueue_on_commit(record, word="embedded")
        _wait_for(
            lambda: DBTaskResult.objects.filter(status=TaskResultStatus.SUCCESSFUL).exists(),
            timeout=20,
        )
    finally:
        worker.stop()
    assert CALLS == ["embedded"]
