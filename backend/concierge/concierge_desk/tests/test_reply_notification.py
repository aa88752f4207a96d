"""Issue #5 'Notifications': the employee is emailed when a concierge replies and they have
not seen the reply within REPLY_NOTIFICATION_DELAY_SECONDS; the task is stored when the
reply's transaction commits (not lost when the web process dies after the commit) and run by
the worker (`manage.py task_worker`)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import transaction
from django.utils import timezone
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult, get_date_max
from freezegun import freeze_time

from concierge.servicerequests import services
from concierge.servicerequests import tasks as tasks_module
from concierge.servicerequests.models import Message

pytestmark = pytest.mark.django_db

SUBJECT = "Concierge: New reply to your request: Find a dog walker"


def reply(api, request_id, body="We found three walkers near you."):
    response = api.post(f"concierge/requests/{request_id}/messages", {"message": {"body": body}})
    assert response.status_code == 201, response.content
    return response.json()["message"]


def run_worker_at(moment):
    with freeze_time(moment):
        call_command("task_worker", "--batch", "--no-reload", verbosity=0)


@pytest.mark.django_db(transaction=True)
def test_task_is_committed_with_the_reply_and_the_worker_sends_the_email(
    concierge_api, user, make_request, outbox, settings
):
    """Real commits: the reply's request returns, and nothing in the web process runs the
    task (as if the process died right after the commit). A worker started later sends it."""
    service_request = make_request(user)
    before = timezone.now()
    message = reply(concierge_api, service_request.pk)

    task = DBTaskResult.objects.get()
    assert task.status == TaskResultStatus.READY
    assert task.task_path == "concierge.servicerequests.tasks.reply_notification_send"
    assert task.args_kwargs == {"args": [], "kwargs": {"message_id": message["id"]}}
    assert (
        before + timedelta(seconds=300) <= task.run_after <= timezone.now() + timedelta(seconds=300)
    )
    assert outbox.emails() == []

    run_worker_at(timezone.now() + timedelta(seconds=60))  # not due yet
    assert outbox.emails() == []

    run_worker_at(timezone.now() + timedelta(seconds=301))
    [email] = outbox.emails(to=user.email)
    assert email.subject == SUBJECT
    assert "Casey from Concierge replied to your request" in email.body
    assert "We found three walkers near you." in email.body
    assert f"{settings.PUBLIC_URL}/requests/{service_request.pk}" in email.body
    task.refresh_from_db()
    assert task.status == TaskResultStatus.SUCCESSFUL
    assert Message.objects.get(pk=message["id"]).employee_notified_at is not None

    # A task run twice (at-least-once delivery) does not email twice.
    DBTaskResult.objects.filter(task_path=task.task_path).update(status=TaskResultStatus.READY)
    run_worker_at(timezone.now() + timedelta(seconds=400))
    assert len(outbox.emails()) == 1


def test_a_task_stopped_after_deciding_to_email_sends_one_email_when_run_again(
    concierge_api, user, make_request, outbox, tasks, monkeypatch
):
    """A worker stopped between queueing the email and recording it (here: the record's
    write fails) leaves neither behind: the task's next run sends the one email."""
    service_request = make_request(user)
    message = reply(concierge_api, service_request.pk)
    tasks.commit()
    stamped = Message.objects.filter(pk=message["id"])
    real_update = type(stamped).update

    def stopped(queryset, **changes):
        if "employee_notified_at" in changes:
            raise RuntimeError("the worker stopped here")
        return real_update(queryset, **changes)

    monkeypatch.setattr(type(stamped), "update", stopped)
    with pytest.raises(RuntimeError), transaction.atomic():
        tasks_module.reply_notification_send.call(message_id=message["id"])
    monkeypatch.undo()
    assert outbox.emails() == []

    assert tasks_module.reply_notification_send.call(message_id=message["id"]) == "sent"
    assert [e.subject for e in outbox.emails(to=user.email)] == [SUBJECT]
    assert tasks_module.reply_notification_send.call(message_id=message["id"]) == (
        "already notified"
    )
    assert len(outbox.emails()) == 1


def test_no_task_when_the_reply_rolls_back(concierge, user, make_request, tasks):
    service_request = make_request(user)
    with pytest.raises(RuntimeError), transaction.atomic():
        services.concierge_reply_create(request=service_request, author=concierge, body="Hi")
        raise RuntimeError("the web process failed before the commit")
    assert tasks.results() == []
    assert not Message.objects.exists()


def test_no_email_when_the_employee_opened_the_request_in_time(
    signed_in_api, concierge_api, user, make_request, outbox, tasks
):
    service_request = make_request(user)
    reply(concierge_api, service_request.pk)
    assert signed_in_api.get(f"requests/{service_request.pk}").status_code == 200  # seen
    tasks.run(at=timezone.now() + timedelta(seconds=301))
    assert outbox.emails() == []
    [task] = tasks.results()
    assert (task.status, task.return_value) == (TaskResultStatus.SUCCESSFUL, "seen by the employee")


def test_email_when_the_employee_only_looked_before_the_reply(
    signed_in_api, concierge_api, user, make_request, outbox, tasks
):
    service_request = make_request(user)
    signed_in_api.get(f"requests/{service_request.pk}")  # seen, but before the reply
    with freeze_time(timezone.now() + timedelta(seconds=1)):
        reply(concierge_api, service_request.pk)
    tasks.run(at=timezone.now() + timedelta(seconds=302))
    assert [e.subject for e in outbox.emails(to=user.email)] == [SUBJECT]


def test_employee_writing_back_counts_as_seeing_the_reply(
    signed_in_api, concierge_api, user, make_request, outbox, tasks
):
    service_request = make_request(user)
    reply(concierge_api, service_request.pk)
    signed_in_api.post(f"requests/{service_request.pk}/messages", {"message": {"body": "Great"}})
    tasks.run(at=timezone.now() + timedelta(seconds=301))
    assert outbox.emails() == []


def test_one_email_for_a_burst_of_replies(concierge_api, user, make_request, outbox, tasks):
    service_request = make_request(user)
    reply(concierge_api, service_request.pk, "First thought")
    with freeze_time(timezone.now() + timedelta(seconds=5)):
        reply(concierge_api, service_request.pk, "Second thought")
    assert len(tasks.results()) == 2
    tasks.run(at=timezone.now() + timedelta(seconds=400))
    [email] = outbox.emails(to=user.email)
    assert "Second thought" in email.body


def test_the_delay_is_configurable(settings, concierge_api, user, make_request, outbox, tasks):
    settings.REPLY_NOTIFICATION_DELAY_SECONDS = 0
    service_request = make_request(user)
    reply(concierge_api, service_request.pk)
    [task] = tasks.results()
    assert task.run_after == get_date_max()  # as soon as possible
    assert tasks.run() == 2  # the reply's task, then the email's own
    assert len(outbox.emails(to=user.email)) == 1


def test_employee_messages_enqueue_nothing(signed_in_api, user, make_request, tasks):
    service_request = make_request(user)
    signed_in_api.post(f"requests/{service_request.pk}/messages", {"message": {"body": "Hi"}})
    assert tasks.results() == []
