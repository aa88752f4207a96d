"""A request's status moves do the same things whoever makes them."""

from __future__ import annotations

import pytest

from concierge.servicerequests import services

pytestmark = pytest.mark.django_db


def test_an_employee_reopening_with_a_message_clears_the_completion_time(user, make_request):
    """Issue 24 status changes: a request the employee reopens with a new message is no longer
    completed (no completion time), as when a concierge reopens it."""
    service_request = make_request(user)
    services.request_status_change(request=service_request, action="complete")

    services.message_create(request=service_request, author=user, body="One more", reopen=True)

    service_request.refresh_from_db()
    assert (service_request.status, service_request.completed_at) == ("open", None)
