"""Hardening 1: rate limits count per real client: the socket peer, or behind trusted proxies
the right-most untrusted X-Forwarded-For hop. Hardening 13: health over plain HTTP."""

from __future__ import annotations

import pytest
from django.test import Client, RequestFactory
from freezegun import freeze_time

from concierge.common.ratelimit import client_ip
from conftest import ApiClient

pytestmark = pytest.mark.django_db
MID_WINDOW = "2026-03-02 10:00:20"


def _sign_in_statuses(user, clients: list[tuple[str, str]]) -> list[int]:
    """One sign-in per (socket peer, X-Forwarded-For) pair."""
    statuses = []
    for peer, forwarded in clients:
        api = ApiClient(Client(REMOTE_ADDR=peer))
        headers = {"X-Forwarded-For": forwarded} if forwarded else {}
        body = {"user": {"email": user.email, "password": "wrong-password-1"}}
        statuses.append(api.post("users/sign_in", body, headers=headers).status_code)
    return statuses


def test_hardening_1_without_trusted_proxies_forged_forwarded_for_shares_one_limit(settings, user):
    """Hardening 1: no TRUSTED_PROXIES (the default): a new X-Forwarded-For per attempt from
    one address does not get around the limit"""
    settings.RATE_LIMITS = {"sign_in": (3, 60)}
    settings.TRUSTED_PROXIES = []
    attempts = [("127.0.0.1", f"198.51.100.{n}") for n in range(1, 6)]
    with freeze_time(MID_WINDOW):
        statuses = _sign_in_statuses(user, attempts)

    assert statuses == [401, 401, 401, 429, 429]


def test_hardening_1_behind_a_trusted_proxy_each_client_has_its_own_limit(settings, user):
    """Hardening 1: behind a trusted load balancer, clients are told apart by the right-most
    untrusted X-Forwarded-For hop (so they do not share one bucket), and a forged left part
    of the header changes nothing"""
    settings.RATE_LIMITS = {"sign_in": (3, 60)}
    settings.TRUSTED_PROXIES = ["10.0.0.0/8"]
    balancer = "10.1.2.3"
    first = [(balancer, f"203.0.113.{n}, 192.0.2.10") for n in range(1, 6)]  # forged left part
    second = [(balancer, "192.0.2.20, 10.9.9.9")]  # via a second trusted proxy
    with freeze_time(MID_WINDOW):
        statuses = _sign_in_statuses(user, first + second)

    assert statuses == [401, 401, 401, 429, 429, 401]


@pytest.mark.parametrize(
    ("trusted", "peer", "forwarded", "client"),
    [
        ([], "192.0.2.1", "203.0.113.9", "192.0.2.1"),
        (["10.0.0.1"], "192.0.2.1", "203.0.113.9", "192.0.2.1"),  # peer is not a proxy
        (["10.0.0.1"], "10.0.0.1", "203.0.113.9, 192.0.2.7", "192.0.2.7"),
        (["10.0.0.0/8"], "10.0.0.1", "192.0.2.7, 10.0.0.2", "192.0.2.7"),
        (["10.0.0.1"], "10.0.0.1", "", "10.0.0.1"),  # no header: the proxy itself
        (["10.0.0.1"], "10.0.0.1", "not-an-ip", "not-an-ip"),
        (["2001:db8::/32"], "2001:db8::1", "2001:db9::5", "2001:db9::5"),
    ],
)
def test_hardening_1_client_address_rule(settings, trusted, peer, forwarded, client):
    """Hardening 1: the client is the socket peer unless it is a trusted proxy; then the
    right-most X-Forwarded-For hop that is not one"""
    settings.TRUSTED_PROXIES = trusted
    meta = {"REMOTE_ADDR": peer}
    if forwarded:
        meta["HTTP_X_FORWARDED_FOR"] = forwarded
    assert client_ip(RequestFactory().get("/", **meta)) == client


def test_hardening_13_health_answers_over_plain_http_when_https_is_enforced(settings):
    """Hardening 13: with SECURE_SSL_REDIRECT on (production), /api/v1/health and its readiness
    view answer over plain HTTP for the load balancer; other paths still redirect"""
    settings.SECURE_SSL_REDIRECT = True

    assert Client().get("/api/v1/health").status_code == 200
    assert Client().get("/api/v1/health/ready").status_code == 200
    assert Client().get("/api/v1/users/current").status_code == 301
