"""Issue 24 'Per-account caps on outgoing mail': password reset, unlock, email verification and
the sign-up notice are each sent at most ACCOUNT_EMAILS_PER_HOUR times an hour to one account,
whatever the client address. Past the cap a request answers exactly as usual and nothing is
sent. The cap is kept in the database, so it holds without Redis."""

from __future__ import annotations

import socket
import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.utils import timezone
from freezegun import freeze_time

from concierge.accounts.models import Company
from concierge.common.cache import breaker
from conftest import ApiClient

pytestmark = pytest.mark.django_db

CAP = 3
WORK_EMAIL = "ann.ex@initech.example"
# The production limits per client address (config/settings.py), on for these tests.
RATE_LIMITS = {"sign_in": (20, 60), "sign_up": (10, 60), "password": (10, 60)}


@pytest.fixture(autouse=True)
def _limits_on(settings):
    settings.RATE_LIMITS = RATE_LIMITS
    settings.ACCOUNT_EMAILS_PER_HOUR = CAP


def _client_at(n: int) -> ApiClient:
    """A client at its own address: each of these is a first request for the rate limits."""
    return ApiClient(Client(REMOTE_ADDR=f"203.0.113.{n + 1}"))


def _closed_port() -> int:
    """A local port nothing listens on (connections are refused)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _answer(response) -> tuple[int, bytes]:
    return response.status_code, response.content


def _emails(outbox, to: str, subject: str) -> list:
    return [e for e in outbox.emails(to=to) if e.subject.endswith(subject)]


# --------------------------------------------------------------------------- password reset


def _reset_from(n: int, email: str):
    return _client_at(n).post("users/password", {"user": {"email": email}})


def test_issue_24_fifteen_resets_from_fifteen_addresses_send_at_most_the_cap(user, outbox):
    """Issue 24 mail bombing: 15 reset requests for one address from 15 client addresses all
    answer as usual (the same as for an unknown address) and send at most the cap"""
    answers = [_reset_from(n, user.email) for n in range(15)]
    unknown = _reset_from(15, "nobody@example.com")

    assert all(_answer(a) == _answer(unknown) for a in answers)
    assert unknown.status_code == 200
    assert len(_emails(outbox, user.email, "Reset your password")) == CAP


def test_issue_24_reset_cap_is_per_hour(user, outbox):
    """Issue 24 caps: an hour after the first sends, a reset email goes out again"""
    start = timezone.now()
    with freeze_time(start):
        for n in range(CAP + 2):
            _reset_from(n, user.email)
        assert len(_emails(outbox, user.email, "Reset your password")) == CAP
    with freeze_time(start + timedelta(hours=1, seconds=1)):
        assert _reset_from(20, user.email).status_code == 200
        assert len(_emails(outbox, user.email, "Reset your password")) == CAP + 1


def test_issue_24_reset_cap_holds_with_redis_down(settings, user, outbox):
    """Issue 24 caps: with the cache (Redis) down, the rate limits let everything through,
    and the per-account cap still holds"""
    test_caches = settings.CACHES
    settings.CACHES = {
        "default": {
            "BACKEND": "concierge.common.cache.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{_closed_port()}/0",
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
    try:
        same_client = _client_at(0)
        answers = [
            same_client.post("users/password", {"user": {"email": user.email}}) for _ in range(15)
        ]
    finally:
        settings.CACHES = test_caches
        breaker.reset()

    assert [a.status_code for a in answers] == [200] * 15  # no rate limit without the cache
    assert len(_emails(outbox, user.email, "Reset your password")) == CAP


def test_issue_24_one_account_reaching_its_cap_does_not_cap_another(user, user_factory, outbox):
    """Issue 24 caps are per account"""
    other = user_factory(email="other@example.com")
    for n in range(CAP + 2):
        _reset_from(n, user.email)
    _reset_from(10, other.email)

    assert len(_emails(outbox, user.email, "Reset your password")) == CAP
    assert len(_emails(outbox, other.email, "Reset your password")) == 1


def test_issue_24_a_reset_email_that_failed_to_send_does_not_use_up_the_cap(
    settings, user, tasks, outbox
):
    """Issue 24 caps: tries that failed (mail server down) do not count, so the owner gets the
    email when the server is back, and then the cap's remaining emails and no more"""
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = (
        "127.0.0.1",
        _closed_port(),
        5,
    )
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    _reset_from(0, user.email)
    start = timezone.now()
    for attempt in range(CAP + 1):
        tasks.run(at=start + timedelta(minutes=attempt))

    settings.EMAIL_BACKEND = "concierge.notifications.backends.OutboxEmailBackend"
    tasks.run(at=start + timedelta(minutes=30))
    assert len(_emails(outbox, user.email, "Reset your password")) == 1
    for n in range(1, CAP + 3):
        _reset_from(n, user.email)
    assert len(_emails(outbox, user.email, "Reset your password")) == CAP


# --------------------------------------------------------------------------- unlock


def test_issue_24_unlock_emails_are_capped_however_often_the_account_is_locked(user, outbox):
    """Issue 24 mail bombing: an account locked again and again (each time from a new client
    address, its owner unlocking with the emailed link) gets at most the cap of unlock emails
    an hour; the sign-in answers do not change"""
    answers = []
    for round_ in range(15):
        client = _client_at(round_)
        answers += [client.sign_in(user.email, "wrong-password-1") for _ in range(10)]
        emails = _emails(outbox, user.email, "Unlock your account")
        if len(emails) > round_:  # a new link came: its owner unlocks
            token = outbox.link_token("unlock", to=user.email)
            assert client.get("users/unlock", query={"unlock_token": token}).status_code == 200

    assert len(_emails(outbox, user.email, "Unlock your account")) == CAP
    assert {a.status_code for a in answers} == {401}
    user.refresh_from_db()
    assert user.locked_at is not None  # past the cap the lock holds, only the email is left out


# --------------------------------------------------------------------------- verification


@pytest.fixture
def initech(company_factory) -> Company:
    return company_factory(
        slug="initech",
        name="Initech",
        join_policy=Company.JoinPolicy.EMAIL_DOMAIN,
        allowed_email_domains="initech.example",
    )


def _signed_up_token(initech) -> str:
    api = ApiClient()
    assert api.sign_up(email=WORK_EMAIL, company_slug="initech").status_code == 200
    assert api.sign_in(WORK_EMAIL).status_code == 200
    assert api.token
    return api.token


def test_issue_24_fifteen_verification_resends_from_fifteen_addresses_are_capped(initech, outbox):
    """Issue 24 mail bombing: 15 'resend the confirmation' requests from 15 client addresses
    all answer as usual; with the sign-up's own email, at most the cap is sent"""
    token = _signed_up_token(initech)

    answers = []
    for n in range(15):
        client = _client_at(n)
        client.token = token
        answers.append(client.post("users/verify_email/resend"))

    assert all(_answer(a) == _answer(answers[0]) for a in answers)
    assert answers[0].json() == {"success": True}
    assert len(_emails(outbox, WORK_EMAIL, "Confirm your email address")) == CAP


# --------------------------------------------------------------------------- sign-up notice


def test_issue_24_sign_ups_with_a_taken_email_send_at_most_the_cap_of_notices(user, outbox):
    """Issue 24 mail bombing: 15 sign-ups with a taken email from 15 client addresses all
    answer like a fresh sign-up and email its owner at most the cap of notices"""
    answers = [
        _client_at(n).sign_up(email=user.email, password=f"another-pass-{n:02d}") for n in range(15)
    ]
    fresh = _client_at(15).sign_up(email="new.person@example.com")

    assert {a.status_code for a in answers} == {fresh.status_code} == {200}
    assert all(a.json().keys() == fresh.json().keys() for a in answers)
    subject = "Someone tried to sign up with your email"
    assert len(_emails(outbox, user.email, subject)) == CAP


# --------------------------------------------------------------------------- concurrency


@pytest.mark.django_db(transaction=True)
def test_issue_24_concurrent_resends_never_pass_the_cap(initech, outbox):
    """Issue 24 caps are race-safe: 12 resend requests at the same moment, each from its own
    address and database connection, send at most the cap"""
    token = _signed_up_token(initech)
    start = threading.Barrier(12)
    statuses: list[int] = []

    def resend(n: int) -> None:
        client = _client_at(n)
        client.token = token
        start.wait()
        try:
            statuses.append(client.post("users/verify_email/resend").status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=resend, args=(n,)) for n in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert statuses == [200] * 12
    assert len(_emails(outbox, WORK_EMAIL, "Confirm your email address")) == CAP


def test_issue_24_the_cap_is_a_setting(settings, user, outbox):
    """Issue 24 caps: ACCOUNT_EMAILS_PER_HOUR sets how many of each kind an hour"""
    settings.ACCOUNT_EMAILS_PER_HOUR = 1
    for n in range(4):
        _reset_from(n, user.email)
    assert len(_emails(outbox, user.email, "Reset your password")) == 1
