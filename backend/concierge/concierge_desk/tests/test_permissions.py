"""Issue #5 'Security': every desk endpoint is for concierges only (anonymous 401, an
employee 403), and one shared desk: a concierge works every company's requests."""

from __future__ import annotations

import pytest

from concierge.concierge_desk.api import CONCIERGES_ONLY

pytestmark = pytest.mark.django_db

# (method, path, body): every endpoint of the desk; {id} is a request's id.
ENDPOINTS = [
    ("GET", "concierge/requests", None),
    ("GET", "concierge/requests/{id}", None),
    ("POST", "concierge/requests/{id}/claim", None),
    ("POST", "concierge/requests/{id}/assign", {"assignee_id": None}),
    ("POST", "concierge/requests/{id}/status", {"action": "start"}),
    ("POST", "concierge/requests/{id}/messages", {"message": {"body": "Hello"}}),
    ("POST", "concierge/requests/{id}/notes", {"body": "A note"}),
    ("POST", "concierge/requests/{id}/presence", None),
    ("DELETE", "concierge/requests/{id}/presence", None),
    ("GET", "concierge/concierges", None),
]


def call(api, method, path, body, request_id):
    return api.request(method, path.format(id=request_id), body)


@pytest.mark.parametrize(("method", "path", "body"), ENDPOINTS)
def test_anonymous_gets_401(api, user, make_request, method, path, body):
    response = call(api, method, path, body, make_request(user).pk)
    assert response.status_code == 401
    assert response.json() == {"success": False, "error": "Please sign in to continue."}


@pytest.mark.parametrize(("method", "path", "body"), ENDPOINTS)
def test_employee_gets_403_even_on_their_own_request(
    signed_in_api, user, make_request, method, path, body
):
    service_request = make_request(user)
    response = call(signed_in_api, method, path, body, service_request.pk)
    assert response.status_code == 403
    assert response.json() == {"success": False, "error": CONCIERGES_ONLY}
    service_request.refresh_from_db()
    assert service_request.status == "open" and service_request.assignee is None
    assert not service_request.messages.exists()
    assert not service_request.internal_notes.exists()


@pytest.mark.parametrize(("method", "path", "body"), ENDPOINTS)
def test_concierge_may_use_every_endpoint(concierge_api, user, make_request, method, path, body):
    response = call(concierge_api, method, path, body, make_request(user).pk)
    assert response.status_code in (200, 201), response.content


def test_superuser_counts_as_a_concierge(make_api, user_factory, user, make_request):
    admin = user_factory(email="root@example.com", is_superuser=True, is_staff=True)
    api = make_api()
    assert api.sign_in(admin.email).status_code == 200
    assert api.get(f"concierge/requests/{make_request(user).pk}").status_code == 200


def test_unknown_request_is_404(concierge_api):
    for path in ("concierge/requests/999999", "concierge/requests/99999999999999999999"):
        response = concierge_api.get(path)
        assert response.status_code == 404


def test_one_shared_desk_a_concierge_sees_every_companys_requests(
    concierge_api, user, bob, make_request
):
    """Decision: no concierge-to-company assignment; every concierge sees every request."""
    acme_request = make_request(user, name="Acme request")
    globex_request = make_request(bob, name="Globex request")
    queue = concierge_api.get("concierge/requests").json()["requests"]
    assert {(r["id"], r["company"]["name"]) for r in queue} == {
        (acme_request.pk, "Acme Corp"),
        (globex_request.pk, "Globex"),
    }
    for service_request in (acme_request, globex_request):
        assert concierge_api.get(f"concierge/requests/{service_request.pk}").status_code == 200
