"""The demo data with its requests, seeded once per test module: seeding takes seconds, and most tests only read
it. Each test runs inside it as usual (its own changes are rolled back at its end); the seed
itself is rolled back at the module's end."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.db import transaction

from concierge.demo.tests.seeding import PASSWORD, seed


@pytest.fixture(scope="module")
def demo_seeded(django_db_setup, django_db_blocker) -> Iterator[str]:
    """What the seed printed; the data stays until the module's tests are done."""
    with django_db_blocker.unblock(), pytest.MonkeyPatch.context() as patch:
        patch.setenv("DEMO_PASSWORD", PASSWORD)
        with transaction.atomic():
            yield seed("--requests")
            transaction.set_rollback(True)


@pytest.fixture
def seeded(demo_seeded, db, monkeypatch) -> str:
    """The seeded demo data, in the test's own transaction; DEMO_PASSWORD set to PASSWORD."""
    monkeypatch.setenv("DEMO_PASSWORD", PASSWORD)
    return demo_seeded
