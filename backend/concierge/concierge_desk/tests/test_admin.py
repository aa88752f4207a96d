"""Django admin: internal notes and the background task queue."""

from __future__ import annotations

import pytest

from concierge.concierge_desk import services as desk_services
from concierge.servicerequests import services

pytestmark = pytest.mark.django_db


def test_admin_lists_notes_and_queued_tasks(admin_client, concierge, user, make_request, tasks):
    service_request = make_request(user, name="Plan a birthday")
    desk_services.note_create(request=service_request, author=concierge, body="Likes blue")
    services.concierge_reply_create(request=service_request, author=concierge, body="On it")

    notes = admin_client.get("/admin/concierge_desk/internalnote/?q=blue")
    assert notes.status_code == 200
    assert "Plan a birthday" in notes.content.decode()

    tasks.commit()
    queued = admin_client.get("/admin/django_tasks_database/dbtaskresult/")  # django-tasks-db's
    assert queued.status_code == 200
    assert "reply_notification_send" in queued.content.decode()
