"""Issue 25 deploy: `manage.py daily_jobs`, the scheduled work of the Procfile's `scheduler`
and of deploy/systemd/concierge-daily.timer: every job runs, one failing stops none of the
others and fails the run."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from concierge.common.management.commands import daily_jobs

pytestmark = pytest.mark.django_db


def test_the_daily_jobs_run() -> None:
    out = io.StringIO()
    call_command("daily_jobs", stdout=out)
    assert "Deleted 0 abandoned uploads." in out.getvalue()


def test_a_failing_job_stops_none_of_the_others(monkeypatch) -> None:
    ran = []

    def fake_call_command(name: str, *args, **kwargs) -> None:
        ran.append(name)
        if name == "prune_db_task_results":
            raise RuntimeError("database unreachable")

    monkeypatch.setattr(daily_jobs, "call_command", fake_call_command)
    with pytest.raises(CommandError, match="Failed: prune_db_task_results"):
        call_command("daily_jobs", stdout=io.StringIO())
    assert ran == [name for name, _ in daily_jobs.DAILY_JOBS]
