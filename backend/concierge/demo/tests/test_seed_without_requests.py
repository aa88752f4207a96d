"""`manage.py seed_demo` without --requests: the clean slate the browser tests start from."""

from __future__ import annotations

import pytest

from concierge.accounts.models import User
from concierge.demo.loader import colleagues
from concierge.demo.tests.seeding import PASSWORD, seed
from concierge.servicerequests.models import ServiceRequest

pytestmark = pytest.mark.django_db


def test_demo_without_requests_the_seed_makes_no_request_and_no_colleague(monkeypatch):
    """demo: without --requests, no request and none of the colleagues behind them."""
    monkeypatch.setenv("DEMO_PASSWORD", PASSWORD)
    printed = seed()
    assert not ServiceRequest.objects.exists()
    assert not User.objects.filter(email__in=[c.email for c in colleagues()]).exists()
    assert "Requests:" not in printed and "colleagues" not in printed
