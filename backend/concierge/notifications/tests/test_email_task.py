"""Issue 11 'Background work': an email's task stores its parts as JSON keyword arguments (the
optional ones only when given), and a task queued by the previous release, with those same
arguments, still sends the whole email."""

from __future__ import annotations

from email import message_from_bytes, policy
from pathlib import Path

import pytest
from django_tasks import TaskResultStatus

from concierge.notifications.services import email_enqueue, email_enqueue_with_transaction
from concierge.notifications.tasks import email_deliver

pytestmark = pytest.mark.django_db

EMAIL_TASK = "concierge.notifications.tasks.email_deliver"
THREAD = "<request-7@concierge.example.com>"
PARTS = {
    "to": "ada@example.com",
    "subject": "New reply to your request",
    "body": "Plain words",
    "html": "<p>Plain words</p>",
    "headers": {"In-Reply-To": THREAD, "References": THREAD},
    "reply_to": "reply+7@concierge.example.com",
}


@pytest.mark.parametrize(
    "enqueue", [email_enqueue, email_enqueue_with_transaction], ids=lambda f: f.__name__
)
def test_issue_11_background_work_a_plain_email_task_stores_its_address_subject_and_text(
    tasks, enqueue
):
    """Issue 11 'Background work': a plain email's task holds only `to`, `subject` and `body`,
    as tasks did before HTML, headers and Reply-To existed."""
    enqueue(to="ada@example.com", subject="Reset your password", body="Open the link")
    [row] = tasks.results(EMAIL_TASK)
    assert row.args_kwargs == {
        "args": [],
        "kwargs": {
            "to": "ada@example.com",
            "subject": "Reset your password",
            "body": "Open the link",
        },
    }


@pytest.mark.parametrize(
    "enqueue", [email_enqueue, email_enqueue_with_transaction], ids=lambda f: f.__name__
)
def test_issue_11_background_work_an_email_task_stores_every_part_by_name(tasks, enqueue):
    """Issue 11 'Background work': the HTML part, the headers and Reply-To are stored as
    keyword arguments of their own names."""
    enqueue(**PARTS)
    [row] = tasks.results(EMAIL_TASK)
    assert row.args_kwargs == {"args": [], "kwargs": PARTS}


def test_issue_11_background_work_an_email_task_of_the_previous_release_still_sends(
    tasks, outbox, settings
):
    """Issue 11 'Background work': email tasks stored as the previous release stored them, a
    plain one and one with every part, run and send their emails with the HTML part, headers
    and Reply-To."""
    email_deliver.enqueue(to="bob@example.com", subject="Reset your password", body="Open it")
    email_deliver.enqueue(**PARTS)

    [plain] = outbox.emails("bob@example.com")
    assert plain.subject.endswith(": Reset your password") and plain.html == ""
    [item] = outbox.emails("ada@example.com")
    assert item.subject.endswith(": New reply to your request")
    assert (item.body.strip(), item.html.strip()) == ("Plain words", "<p>Plain words</p>")
    eml = Path(settings.OUTBOX_DIR) / item.name
    sent = message_from_bytes(eml.read_bytes(), policy=policy.default)
    assert (sent["In-Reply-To"], sent["References"]) == (THREAD, THREAD)
    assert sent["Reply-To"] == "reply+7@concierge.example.com"
    statuses = {row.status for row in tasks.results(EMAIL_TASK)}
    assert statuses == {TaskResultStatus.SUCCESSFUL}
