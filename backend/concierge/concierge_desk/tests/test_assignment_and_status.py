"""Issue #5 'Request view': claim and assign to a concierge; status changes (start →
in_progress, complete → closed, reopen) with clear 422s for the moves that do not apply."""

from __future__ import annotations

import pytest

from concierge.servicerequests import services
from concierge.servicerequests.models import ServiceRequest

pytestmark = pytest.mark.django_db


def test_claim_assigns_the_request_to_me(concierge_api, concierge, user, make_request):
    service_request = make_request(user)
    response = concierge_api.post(f"concierge/requests/{service_request.pk}/claim")
    assert response.status_code == 200
    assert response.json()["request"]["assignee"] == {
        "id": concierge.pk,
        "full_name": "Casey Jones",
    }
    assert response.json()["request"]["status"] == "open"  # claiming does not start it
    again = concierge_api.post(f"concierge/requests/{service_request.pk}/claim")
    assert again.status_code == 200  # already mine: nothing changes
    service_request.refresh_from_db()
    assert service_request.assignee == concierge


def test_claiming_someone_elses_request_is_409(concierge_api, other_concierge, user, make_request):
    service_request = make_request(user)
    services.request_assign(request=service_request, assignee=other_concierge)
    response = concierge_api.post(f"concierge/requests/{service_request.pk}/claim")
    assert response.status_code == 409
    assert response.json()["error"] == (
        "Dana Reyes is already working on this request. Use Assign to take it over."
    )
    service_request.refresh_from_db()
    assert service_request.assignee == other_concierge


def test_assign_to_another_concierge_and_unassign(
    concierge_api, other_concierge, user, make_request
):
    service_request = make_request(user)
    path = f"concierge/requests/{service_request.pk}/assign"
    response = concierge_api.post(path, {"assignee_id": other_concierge.pk})
    assert response.status_code == 200
    assert response.json()["request"]["assignee"]["full_name"] == "Dana Reyes"
    response = concierge_api.post(path, {"assignee_id": None})
    assert response.status_code == 200
    assert response.json()["request"]["assignee"] is None
    service_request.refresh_from_db()
    assert service_request.assignee is None


@pytest.mark.parametrize("who", ["employee", "unknown", "inactive concierge"])
def test_only_an_active_concierge_can_be_assigned(
    concierge_api, user, user_factory, make_request, who
):
    service_request = make_request(user)
    if who == "employee":
        assignee_id = user.pk
    elif who == "unknown":
        assignee_id = 987654
    else:
        assignee_id = user_factory(
            email="gone@example.com", groups=["Concierges"], is_active=False
        ).pk
    response = concierge_api.post(
        f"concierge/requests/{service_request.pk}/assign", {"assignee_id": assignee_id}
    )
    assert response.status_code == 422
    assert response.json()["errors"] == {
        "assignee_id": ["Requests can only be assigned to a concierge."]
    }
    service_request.refresh_from_db()
    assert service_request.assignee is None


S = ServiceRequest.Status


@pytest.mark.parametrize(
    ("start", "action", "result"),
    [
        (S.OPEN, "start", S.IN_PROGRESS),
        (S.OPEN, "complete", S.CLOSED),
        (S.IN_PROGRESS, "complete", S.CLOSED),
        (S.CLOSED, "reopen", S.OPEN),
    ],
)
def test_allowed_status_changes(concierge_api, user, make_request, start, action, result):
    service_request = make_request(user, status=start)
    response = concierge_api.post(
        f"concierge/requests/{service_request.pk}/status", {"action": action}
    )
    assert response.status_code == 200, response.content
    assert response.json()["request"]["status"] == result
    service_request.refresh_from_db()
    assert service_request.status == result


@pytest.mark.parametrize(
    ("start", "action", "message"),
    [
        (S.IN_PROGRESS, "start", "This request is already In Progress."),
        (S.CLOSED, "start", "This request is Completed. Reopen it before starting it again."),
        (S.CLOSED, "complete", "This request is already Completed."),
        (S.OPEN, "reopen", "Only a Completed request can be reopened; this one is In Queue."),
        (
            S.IN_PROGRESS,
            "reopen",
            "Only a Completed request can be reopened; this one is In Progress.",
        ),
    ],
)
def test_refused_status_changes_say_why(concierge_api, user, make_request, start, action, message):
    service_request = make_request(user, status=start)
    response = concierge_api.post(
        f"concierge/requests/{service_request.pk}/status", {"action": action}
    )
    assert response.status_code == 422
    assert response.json() == {"success": False, "error": message, "errors": {"action": [message]}}
    service_request.refresh_from_db()
    assert service_request.status == start


def test_unknown_status_action_is_422(concierge_api, user, make_request):
    service_request = make_request(user)
    response = concierge_api.post(
        f"concierge/requests/{service_request.pk}/status", {"action": "archive"}
    )
    assert response.status_code == 422
    assert "action" in response.json()["errors"]


def test_employee_sees_the_status_the_concierge_set(
    signed_in_api, concierge_api, user, make_request
):
    service_request = make_request(user)
    concierge_api.post(f"concierge/requests/{service_request.pk}/status", {"action": "start"})
    assert [r["id"] for r in signed_in_api.get("requests/in_progress").json()["requests"]] == [
        service_request.pk
    ]
    concierge_api.post(f"concierge/requests/{service_request.pk}/status", {"action": "complete"})
    assert [r["id"] for r in signed_in_api.get("requests/completed").json()["requests"]] == [
        service_request.pk
    ]
