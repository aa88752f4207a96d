from __future__ import annotations

import pytest


@pytest.fixture
def globex(company_factory):
    return company_factory(slug="globex", name="Globex")


@pytest.fixture
def bob(user_factory, globex):
    return user_factory(
        email="bob@globex.example", first_name="Bob", last_name="Stone", companies=[globex]
    )


@pytest.fixture
def other_concierge_user(user_factory):
    return user_factory(
        email="dana@example.com", first_name="Dana", last_name="Reyes", groups=["Concierges"]
    )
