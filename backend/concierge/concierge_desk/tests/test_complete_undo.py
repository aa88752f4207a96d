"""Issue 29 desk: Complete can be undone for a few seconds. Undo puts the request back as it
was (In Progress, or In Queue when it was completed from there), its reply-time clock and
the employee's screen included, and the completion email, which waits longer than Undo is
accepted, is sent once for the completion that stands and never for an undone one, whatever
the worker does (a task run twice, a worker stopped mid-way)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult
from freezegun import freeze_time

from concierge.notifications.background import tasks_requeue_stale
from concierge.satisfaction import invites
from concierge.service_levels.models import RequestClock
from concierge.servicerequests import services
from concierge.servicerequests.models import ServiceRequest
from concierge.servicerequests.tests.test_admin import committed_live_events, promise  # noqa: F401

pytestmark = pytest.mark.django_db

UNDO_SECONDS = 10
DELAY_SECONDS = 15
INVITE_TASK = "concierge.satisfaction.tasks.rating_invite_deliver"
EMAIL_TASK = "concierge.notifications.tasks.email_deliver"


@pytest.fixture(autouse=True)
def _real_delays(settings):
    """As in production: Undo accepted for 10 s, the completion email 15 s after."""
    settings.COMPLETION_UNDO_SECONDS = UNDO_SECONDS
    settings.COMPLETION_EMAIL_DELAY_SECONDS = DELAY_SECONDS


def status(api, request_id: int, action: str):
    return api.post(f"concierge/requests/{request_id}/status", {"action": action})


def completion_emails(outbox, tasks, to: str, *, at) -> list:
    """The completion emails in the outbox once the worker ran what is due at `at`."""
    tasks.run(at=at)
    return [
        e
        for e in outbox.written()
        if e.kind == "email" and to in e.to and "is complete" in e.subject
    ]


@pytest.fixture
def in_progress(user, make_request, concierge):
    service_request = make_request(user, name="Find a dog walker")
    services.concierge_reply_create(
        request=service_request, author=concierge, body="On it: three walkers to call."
    )
    service_request.refresh_from_db()
    assert service_request.status == "in_progress"
    return service_request


def test_issue_29_undo_within_the_window_puts_the_request_back_in_progress_and_sends_no_email(
    concierge_api, signed_in_api, in_progress, user, outbox, tasks
):
    """Issue 29 desk: Complete, then Undo within the window (API): the request is In Progress
    again with no completion time, the employee's screen offers no rating, and once the
    completion email's delay has passed the outbox has no completion email."""
    completed = status(concierge_api, in_progress.pk, "complete")
    assert completed.status_code == 200, completed.content
    assert completed.json()["request"]["status"] == "closed"
    assert signed_in_api.get(f"requests/{in_progress.pk}/rating").json()["can_rate"] is True

    undone = status(concierge_api, in_progress.pk, "undo_complete")
    assert undone.status_code == 200, undone.content
    assert undone.json()["request"]["status"] == "in_progress"
    in_progress.refresh_from_db()
    assert (in_progress.status, in_progress.completed_at, in_progress.completed_from) == (
        "in_progress",
        None,
        None,
    )
    employee_view = signed_in_api.get(f"requests/{in_progress.pk}").json()["request"]
    assert employee_view["status"] == "in_progress"
    assert signed_in_api.get(f"requests/{in_progress.pk}/rating").json()["can_rate"] is False

    later = timezone.now() + timedelta(seconds=DELAY_SECONDS + 5)
    assert completion_emails(outbox, tasks, user.email, at=later) == []
    [invite] = tasks.results(INVITE_TASK)
    assert (invite.status, invite.return_value) == (
        TaskResultStatus.SUCCESSFUL,
        "no longer completed",
    )
    assert tasks.results(EMAIL_TASK) == []


def test_issue_29_a_completion_that_stands_emails_once_after_the_delay(
    concierge_api, in_progress, user, outbox, tasks
):
    """Issue 29 desk: Complete and wait: nothing during the undo window, then exactly one
    completion email; the task run again (delivery is at least once) sends no second."""
    start = timezone.now()
    assert status(concierge_api, in_progress.pk, "complete").status_code == 200

    assert completion_emails(outbox, tasks, user.email, at=start + timedelta(seconds=5)) == []
    assert (
        completion_emails(outbox, tasks, user.email, at=start + timedelta(seconds=UNDO_SECONDS + 1))
        == []
    )
    [email] = completion_emails(
        outbox, tasks, user.email, at=start + timedelta(seconds=DELAY_SECONDS + 1)
    )
    assert email.subject.endswith("Your request is complete: Find a dog walker")
    assert "/rate/" in email.body

    DBTaskResult.objects.filter(task_path=INVITE_TASK).update(status=TaskResultStatus.READY)
    later = start + timedelta(seconds=DELAY_SECONDS + 60)
    assert len(completion_emails(outbox, tasks, user.email, at=later)) == 1
    assert [r.return_value for r in tasks.results(INVITE_TASK)] == ["already queued"]
    assert len(tasks.results(EMAIL_TASK)) == 1


def test_issue_29_complete_undo_complete_emails_once_for_the_completion_that_stands(
    concierge_api, in_progress, user, outbox, tasks
):
    """Issue 29 desk: Complete, Undo, Complete again: one completion email, sent for the
    second completion (the first one's task finds it replaced and sends nothing)."""
    start = timezone.now()
    with freeze_time(start):
        assert status(concierge_api, in_progress.pk, "complete").status_code == 200
    with freeze_time(start + timedelta(seconds=3)):
        assert status(concierge_api, in_progress.pk, "undo_complete").status_code == 200
    with freeze_time(start + timedelta(seconds=5)):
        assert status(concierge_api, in_progress.pk, "complete").status_code == 200

    # The first completion's email is due; the second's is not yet.
    at_first = start + timedelta(seconds=DELAY_SECONDS + 1)
    assert completion_emails(outbox, tasks, user.email, at=at_first) == []
    assert sorted(r.return_value or "" for r in tasks.results(INVITE_TASK)) == [
        "",
        "completed again since",
    ]
    at_second = start + timedelta(seconds=5 + DELAY_SECONDS + 1)
    assert len(completion_emails(outbox, tasks, user.email, at=at_second)) == 1
    assert sorted(r.return_value for r in tasks.results(INVITE_TASK)) == [
        "completed again since",
        "queued",
    ]
    assert len(completion_emails(outbox, tasks, user.email, at=at_second + timedelta(hours=1))) == 1


def test_issue_29_undo_is_refused_after_the_window_and_reopen_still_works(
    concierge_api, in_progress, user, outbox, tasks
):
    """Issue 29 desk: Undo is accepted for COMPLETION_UNDO_SECONDS only; afterwards it is a
    422 saying to use Reopen, the request stays Completed and its email goes out. Undo of a
    request that is not Completed is refused too."""
    start = timezone.now()
    with freeze_time(start):
        assert status(concierge_api, in_progress.pk, "complete").status_code == 200
    with freeze_time(start + timedelta(seconds=UNDO_SECONDS + 1)):
        late = status(concierge_api, in_progress.pk, "undo_complete")
    assert late.status_code == 422
    assert late.json()["errors"]["action"] == [services.UNDO_TOO_LATE]
    in_progress.refresh_from_db()
    assert in_progress.status == "closed"
    at = start + timedelta(seconds=DELAY_SECONDS + 1)
    assert len(completion_emails(outbox, tasks, user.email, at=at)) == 1

    with freeze_time(start + timedelta(minutes=5)):
        reopened = status(concierge_api, in_progress.pk, "reopen")
        assert reopened.json()["request"]["status"] == "open"
        again = status(concierge_api, in_progress.pk, "undo_complete")
    assert again.status_code == 422
    assert again.json()["errors"]["action"] == [
        "This request is no longer Completed: nothing to undo."
    ]


def test_issue_29_undo_goes_back_to_the_queue_for_a_request_completed_from_there(
    user, make_request, outbox, tasks
):
    """Issue 29 desk (service): Undo restores the status the request was completed from: a
    request completed straight from In Queue goes back to In Queue."""
    service_request = make_request(user)
    services.request_status_change(request=service_request, action="complete")
    assert service_request.completed_from == "open"
    services.request_status_change(request=service_request, action="undo_complete")
    service_request.refresh_from_db()
    assert (service_request.status, service_request.completed_at) == ("open", None)
    later = timezone.now() + timedelta(seconds=DELAY_SECONDS + 1)
    assert completion_emails(outbox, tasks, user.email, at=later) == []


@pytest.mark.usefixtures("promise")
@pytest.mark.parametrize("last_word", ["employee", "concierge"])
def test_issue_29_undo_puts_the_reply_time_clock_back(user, make_request, concierge, last_word):
    """Issue 29 desk: the clock stopped by the completion runs again after Undo when the
    employee is waiting on the concierge, and stays paused when the concierge had the last
    word, as before the completion; the completion time is gone."""
    service_request = make_request(user)
    services.concierge_reply_create(request=service_request, author=concierge, body="Booked?")
    if last_word == "employee":
        services.message_create(request=service_request, author=user, body="Not yet, please do")
    before = RequestClock.objects.get(request=service_request)
    assert (before.running_since is None) == (last_word == "concierge")

    services.request_status_change(request=service_request, action="complete")
    stopped = RequestClock.objects.get(request=service_request)
    assert stopped.completed_at is not None and stopped.running_since is None
    services.request_status_change(request=service_request, action="undo_complete")

    clock = RequestClock.objects.get(request=service_request)
    assert clock.completed_at is None
    assert (clock.running_since is not None) == (last_word == "employee")
    assert (clock.due_at is not None) == (last_word == "employee")


def test_issue_29_undo_publishes_the_request_in_progress_to_the_employee(
    concierge_api, in_progress, user, django_capture_on_commit_callbacks
):
    """Issue 29 desk: the live streams hear the completion and then the undo
    (`request.updated`, In Progress), for the request's owner, so the employee's thread shows
    In Progress again and drops its 'How did we do?' card."""
    _, completed = committed_live_events(
        django_capture_on_commit_callbacks,
        lambda: status(concierge_api, in_progress.pk, "complete"),
        count=1,
    )
    _, undone = committed_live_events(
        django_capture_on_commit_callbacks,
        lambda: status(concierge_api, in_progress.pk, "undo_complete"),
        count=1,
    )
    assert [(e.type, e.status, e.owner_id) for e in completed + undone] == [
        ("request.updated", "closed", user.pk),
        ("request.updated", "in_progress", user.pk),
    ]


def test_issue_29_a_worker_stopped_mid_way_neither_loses_nor_doubles_the_email(
    in_progress, user, outbox, tasks, settings, monkeypatch
):
    """Issue 29 desk: the completion email's task stops before its commit (nothing recorded,
    the email not queued) and is tried again: one email. A task whose worker died after its
    commit (left RUNNING, then made READY again by the recovery) queues no second one."""
    services.request_status_change(request=in_progress, action="complete")
    due = timezone.now() + timedelta(seconds=DELAY_SECONDS + 1)

    calls = []

    def stops_once(**kwargs):
        calls.append(kwargs["to"])
        if len(calls) == 1:
            raise RuntimeError("the worker stopped")
        return original(**kwargs)

    original = invites.email_enqueue_with_transaction
    monkeypatch.setattr(invites, "email_enqueue_with_transaction", stops_once)
    assert completion_emails(outbox, tasks, user.email, at=due) == []
    [failed] = tasks.results(INVITE_TASK)
    assert failed.status == TaskResultStatus.READY  # to be tried again after the backoff
    assert tasks.results(EMAIL_TASK) == []  # rolled back with the failure

    retry = due + timedelta(seconds=settings.TASKS_RETRY_DELAY_SECONDS + 1)
    assert len(completion_emails(outbox, tasks, user.email, at=retry)) == 1
    assert len(tasks.results(EMAIL_TASK)) == 1

    # The worker died right after its commit: the task still RUNNING, taken up again.
    stale_start = retry - timedelta(seconds=settings.TASKS_STALE_SECONDS + 1)
    DBTaskResult.objects.filter(task_path=INVITE_TASK).update(
        status=TaskResultStatus.RUNNING, started_at=stale_start, finished_at=None
    )
    with freeze_time(retry):
        assert tasks_requeue_stale() == 1
    assert len(completion_emails(outbox, tasks, user.email, at=retry)) == 1
    assert [r.return_value for r in tasks.results(INVITE_TASK)] == ["already queued"]


@pytest.mark.django_db(transaction=True)
def test_issue_29_real_commits_undo_then_complete_again_one_email_from_the_worker(
    concierge_api, in_progress, user, outbox
):
    """Issue 29 desk: with real commits and the worker as `manage.py task_worker` runs it:
    Complete, Undo, Complete: the tasks are stored by the commits, and the worker sends one
    completion email, after the delay."""
    assert status(concierge_api, in_progress.pk, "complete").status_code == 200
    assert status(concierge_api, in_progress.pk, "undo_complete").status_code == 200
    assert status(concierge_api, in_progress.pk, "complete").status_code == 200
    assert DBTaskResult.objects.filter(task_path=INVITE_TASK).count() == 2

    def run_worker_at(moment):
        with freeze_time(moment):
            call_command("task_worker", "--batch", "--no-reload", verbosity=0)

    run_worker_at(timezone.now() + timedelta(seconds=UNDO_SECONDS))
    assert outbox.written() == []
    run_worker_at(timezone.now() + timedelta(seconds=DELAY_SECONDS + 1))
    emails = [e for e in outbox.written() if "is complete" in e.subject]
    assert [e.to for e in emails] == [user.email]
    assert ServiceRequest.objects.get(pk=in_progress.pk).status == "closed"
