from __future__ import annotations

import pytest

from concierge.servicerequests import services


@pytest.fixture(autouse=True)
def _media_root(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def make_request(db):
    """`make_request(user, name=..., status=..., details=...)` through the real service."""

    def make(user, name="Find a dog walker", status=None, details="", **kwargs):
        service_request = services.request_create(user=user, name=name, details=details, **kwargs)
        if status is not None:
            service_request.status = status
            service_request.save(update_fields=["status"])
        return service_request

    return make


@pytest.fixture
def other_user(user_factory):
    return user_factory(email="grace@example.com", first_name="Grace", last_name="Hopper")
