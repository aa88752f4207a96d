"""Account hardening: sign-in timing and messages (Hardening 6), verification-code tries across
resends (Hardening 10), old reset and unlock links (Hardening 11)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.hashers import MD5PasswordHasher
from django.utils import timezone
from freezegun import freeze_time

from concierge.accounts.services.identity import INVALID_CREDENTIALS
from concierge.accounts.services.lockout import ACCOUNT_LOCKED
from concierge.accounts.services.mfa.factors import TOO_MANY_OTP_ATTEMPTS
from concierge.accounts.services.mfa.sms import INVALID_OTP
from conftest import DEFAULT_PASSWORD, ApiClient

pytestmark = pytest.mark.django_db

E164 = "+15551234567"


class CountingHasher(MD5PasswordHasher):
    """The test hasher, counting how many passwords it checks."""

    checks = 0

    def verify(self, password: str, encoded: str) -> bool:
        type(self).checks += 1
        return super().verify(password, encoded)


def _hashes_for(api: ApiClient, email: str, password: str) -> tuple[int, str]:
    CountingHasher.checks = 0
    response = api.sign_in(email, password)
    return CountingHasher.checks, response.json()["error"]


def test_hardening_6_known_unknown_and_locked_sign_in_cost_one_hash_each(settings, user):
    """Hardening 6: known, unknown and locked accounts all take one password hash (the same
    time), and a wrong password gets the same message for known and unknown ones; a locked
    account gets the lock's message whatever the password (issue 24: no oracle)"""
    settings.PASSWORD_HASHERS = [f"{__name__}.CountingHasher"]
    api = ApiClient()
    known = _hashes_for(api, user.email, "wrong-password-1")
    unknown = _hashes_for(api, "nobody@example.com", "wrong-password-1")
    for _ in range(10):
        api.sign_in(user.email, "wrong-password-1")
    user.refresh_from_db()
    assert user.locked_at is not None
    locked = _hashes_for(api, user.email, "wrong-password-1")

    assert known == unknown == (1, INVALID_CREDENTIALS)
    assert locked == _hashes_for(api, user.email, DEFAULT_PASSWORD) == (1, ACCOUNT_LOCKED)


@pytest.fixture
def pending_api(user, outbox) -> ApiClient:
    user.mfa_phone = E164
    user.save(update_fields=["mfa_phone"])
    api = ApiClient()
    assert api.sign_in(user.email).json()["mfa_required"] is True
    return api


def _wrong(code: str) -> str:
    return f"{(int(code) + 1) % 1_000_000:06d}"


def test_hardening_10_resends_do_not_grant_more_tries_than_the_hourly_cap(
    settings, pending_api, outbox
):
    """Hardening 10: wrong codes are capped per account and hour across resends (each resend
    used to grant 5 new tries); after the cap even a fresh right code is refused with 429,
    and an hour later it works again"""
    start = timezone.now()
    with freeze_time(start):
        statuses = []
        for _ in range(4):
            pending_api.post("mfa/send-otp")
            code = outbox.latest_code(to=E164)
            for _ in range(5):
                statuses.append(pending_api.post("mfa/verify", {"otp": _wrong(code)}).status_code)
        pending_api.post("mfa/send-otp")
        capped = pending_api.post("mfa/verify", {"otp": outbox.latest_code(to=E164)})

    cap = settings.OTP_MAX_ATTEMPTS_PER_HOUR
    assert statuses[:cap] == [401] * cap
    assert set(statuses[cap:]) == {429}
    assert capped.status_code == 429
    assert capped.json() == {"success": False, "error": TOO_MANY_OTP_ATTEMPTS}
    with freeze_time(start + timedelta(hours=1, minutes=1)):
        pending_api.post("mfa/send-otp")
        assert pending_api.mfa_verify(outbox.latest_code(to=E164)).status_code == 200


def test_hardening_10_wrong_tries_under_the_cap_keep_working(pending_api, outbox):
    """Hardening 10: the cap leaves the per-code rule alone (5 wrong tries void one code)"""
    code = outbox.latest_code(to=E164)
    for _ in range(5):
        pending_api.post("mfa/verify", {"otp": _wrong(code)})
    assert pending_api.post("mfa/verify", {"otp": code}).json()["error"] == INVALID_OTP
    pending_api.post("mfa/send-otp")
    assert pending_api.mfa_verify(outbox.latest_code(to=E164)).status_code == 200


def _reset(api: ApiClient, token: str, password: str):
    body = {"reset_password_token": token, "password": password, "password_confirmation": password}
    return api.put("users/password", body)


def test_hardening_11_a_reset_voids_the_older_reset_links(api, user, outbox):
    """Hardening 11: after a successful reset, links sent earlier no longer work"""
    api.post("users/password", {"user": {"email": user.email}})
    older = outbox.link_token("reset-password", to=user.email)
    api.post("users/password", {"user": {"email": user.email}})
    newer = outbox.link_token("reset-password", to=user.email)
    assert older != newer

    assert _reset(api, newer, "brand-new-secret-77").status_code == 200
    stale = _reset(api, older, "attacker-chosen-88")

    assert stale.status_code == 422
    assert "reset_password_token" in stale.json()["errors"]
    assert api.sign_in(user.email, "brand-new-secret-77").status_code == 200


def test_hardening_11_the_unlock_link_expires_with_its_lock(api, user, outbox):
    """Hardening 11: the unlock link works while its lock lasts (one hour), not after"""
    start = timezone.now()
    with freeze_time(start):
        for _ in range(10):
            api.sign_in(user.email, "wrong-password-1")
        token = outbox.link_token("unlock", to=user.email)
    with freeze_time(start + timedelta(hours=1, minutes=1)):
        response = api.get("users/unlock", query={"unlock_token": token})

    assert response.status_code == 422
    assert response.json()["error"] == "Invalid unlock token."


def test_hardening_11_the_unlock_link_works_within_the_hour(api, user, outbox):
    """Hardening 11: within the hour the unlock link still unlocks"""
    start = timezone.now()
    with freeze_time(start):
        for _ in range(10):
            api.sign_in(user.email, "wrong-password-1")
        token = outbox.link_token("unlock", to=user.email)
    with freeze_time(start + timedelta(minutes=59)):
        assert api.get("users/unlock", query={"unlock_token": token}).status_code == 200
        assert api.sign_in(user.email).status_code == 200
