from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _media_root(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def other_user(user_factory):
    return user_factory(email="grace@example.com", first_name="Grace", last_name="Hopper")
