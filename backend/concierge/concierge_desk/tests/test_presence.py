"""Issue #5 'Presence': two concierges with the same request open each see the other."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from freezegun import freeze_time

from conftest import ApiClient

pytestmark = pytest.mark.django_db


@pytest.fixture
def dana_api(other_concierge) -> ApiClient:
    api = ApiClient()
    assert api.sign_in(other_concierge.email).status_code == 200
    return api


def heartbeat(api, request_id):
    response = api.post(f"concierge/requests/{request_id}/presence")
    assert response.status_code == 200, response.content
    return response.json()["viewers"]


def test_two_concierges_see_each_other(
    concierge_api, dana_api, concierge, other_concierge, user, make_request
):
    service_request = make_request(user)
    assert heartbeat(concierge_api, service_request.pk) == []  # alone: nobody else
    assert heartbeat(dana_api, service_request.pk) == [
        {"id": concierge.pk, "full_name": "Casey Jones"}
    ]
    assert heartbeat(concierge_api, service_request.pk) == [
        {"id": other_concierge.pk, "full_name": "Dana Reyes"}
    ]
    detail = concierge_api.get(f"concierge/requests/{service_request.pk}").json()["request"]
    assert detail["viewers"] == [{"id": other_concierge.pk, "full_name": "Dana Reyes"}]


def test_opening_the_request_counts_as_being_there(
    concierge_api, dana_api, concierge, user, make_request
):
    service_request = make_request(user)
    concierge_api.get(f"concierge/requests/{service_request.pk}")
    assert heartbeat(dana_api, service_request.pk) == [
        {"id": concierge.pk, "full_name": "Casey Jones"}
    ]


def test_presence_is_per_request(concierge_api, dana_api, user, make_request):
    first, second = make_request(user), make_request(user)
    heartbeat(concierge_api, first.pk)
    assert heartbeat(dana_api, second.pk) == []


def test_a_concierge_who_stops_sending_heartbeats_drops_off(
    concierge_api, dana_api, user, make_request
):
    service_request = make_request(user)
    now = timezone.now()
    with freeze_time(now):
        heartbeat(concierge_api, service_request.pk)
    with freeze_time(now + timedelta(seconds=31)):
        assert heartbeat(dana_api, service_request.pk) == []


def test_leaving_removes_me_at_once(concierge_api, dana_api, user, make_request):
    service_request = make_request(user)
    heartbeat(concierge_api, service_request.pk)
    response = concierge_api.delete(f"concierge/requests/{service_request.pk}/presence")
    assert response.status_code == 200
    assert heartbeat(dana_api, service_request.pk) == []


def test_presence_names_the_same_concierges_as_the_assign_menu(
    concierge, other_concierge, user, user_factory
):
    """Issue 30: presence reads the concierges' names in a query of its own; they are the
    same people, in the same order, as the assign menu's: the group's active members and
    the superusers, never an employee or a deactivated concierge."""
    from concierge.accounts.selectors.concierges import concierge_list, concierge_names

    user_factory(email="root@example.com", first_name="Ada", last_name="", is_superuser=True)
    user_factory(email="gone@example.com", first_name="Bo", is_active=False, groups=["Concierges"])
    expected = [(c.pk, c.full_name) for c in concierge_list()]
    assert concierge_names() == expected
    assert [name for _, name in expected] == ["Ada", "Casey Jones", "Dana Reyes"]
