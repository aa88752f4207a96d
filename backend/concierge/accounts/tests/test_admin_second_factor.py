"""Issue 24: staff sign in to Django admin with their second factor (authenticator app, passkey,
text message or recovery code), checked and counted by the app's MFA services; a staff member
without one enrols an authenticator app before any admin page opens."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pyotp
import pytest
from django.conf import settings
from django.test import Client
from django.urls import get_resolver
from freezegun import freeze_time

from concierge.accounts.models import AuthToken, MfaFactor, User
from concierge.accounts.services.mfa.factors import (
    SESSION_VOIDED,
    TOO_MANY_OTP_ATTEMPTS,
    mfa_failures_last_hour,
)
from concierge.accounts.services.mfa.passkeys import (
    INVALID_PASSKEY,
    passkey_register,
    passkey_registration_options,
)
from concierge.accounts.services.mfa.recovery_codes import (
    INVALID_RECOVERY_CODE,
    RECOVERY_CODE_COUNT,
)
from concierge.accounts.services.mfa.totp import INVALID_TOTP, totp_enrol_confirm, totp_enrol_start
from concierge.accounts.tests.webauthn_device import SoftPasskey
from conftest import DEFAULT_PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

LOGIN = "/admin/login/?next=/admin/"
ADMIN_PAGES = ("/admin/", "/admin/accounts/user/", "/admin/accounts/company/")
PHONE = "+15551234567"


@pytest.fixture
def clock():
    """A stopped clock a few seconds into a 30-second TOTP step; tests move it on. The URLs
    (and the API's schemas behind them) load first, with real datetimes."""
    get_resolver().url_patterns  # noqa: B018
    with freeze_time("2026-03-02 10:00:05") as frozen:
        yield frozen


@pytest.fixture
def superuser() -> User:
    return UserFactory(email="root@example.com", is_staff=True, is_superuser=True)


def _authenticator_app(user: User, clock) -> tuple[str, list[str]]:
    """Adds an authenticator app through the enrolment services; returns its secret and the
    recovery codes. The clock moves to the next step: the confirming code is spent."""
    enrolment = totp_enrol_start(user=user)
    codes = totp_enrol_confirm(
        user=user, factor_id=enrolment.factor_id, code=pyotp.TOTP(enrolment.secret).now()
    )
    assert codes
    clock.tick(timedelta(seconds=30))
    return enrolment.secret, codes


def _password(client: Client, email: str = "root@example.com"):
    return client.post(LOGIN, {"username": email, "password": DEFAULT_PASSWORD, "next": "/admin/"})


def _code(client: Client, code: str, method: str | None = None):
    data = {"otp": code} if method is None else {"otp": code, "method": method}
    return client.post(LOGIN, data)


def _wrong(code: str) -> str:
    return f"{(int(code) + 1) % 1_000_000:06d}"


def _text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode()).replace("&#x27;", "'")


def _no_admin_page_opens(client: Client) -> bool:
    return all(
        (page := client.get(path)).status_code == 302
        and page["Location"].startswith("/admin/login/")
        for path in ADMIN_PAGES
    )


def test_issue_24_admin_with_an_authenticator_app_needs_its_code_after_the_password(
    superuser, clock
):
    """Issue 24: a superuser with an authenticator app does not reach the admin with the
    password alone; the app's current code then opens it, and no API session is left usable"""
    secret, _ = _authenticator_app(superuser, clock)
    client = Client()

    step = _password(client)
    assert step.status_code == 200
    assert "Enter the code from your authenticator app or one of your recovery codes." in _text(
        step
    )
    assert _no_admin_page_opens(client)

    done = _code(client, pyotp.TOTP(secret).now())
    assert (done.status_code, done["Location"]) == (302, "/admin/")
    assert client.get("/admin/").status_code == 200
    assert not AuthToken.objects.filter(user=superuser, revoked_at__isnull=True).exists()


def test_issue_24_admin_wrong_code_is_refused_and_counted(superuser, clock):
    """Issue 24: a wrong authenticator code is refused and counted against the account's
    hourly limit; five wrong codes void the step, so even the right code then needs the
    password again"""
    secret, _ = _authenticator_app(superuser, clock)
    client = Client()
    _password(client)

    wrong = _code(client, _wrong(pyotp.TOTP(secret).now()))
    assert wrong.status_code == 200
    assert INVALID_TOTP in _text(wrong)
    assert mfa_failures_last_hour(superuser) == 1
    assert _no_admin_page_opens(client)

    for _ in range(4):
        last = _code(client, _wrong(pyotp.TOTP(secret).now()))
    assert last.status_code == 302  # back to the password
    assert SESSION_VOIDED in _text(client.get(last["Location"]))
    assert mfa_failures_last_hour(superuser) == 5

    refused = _code(client, pyotp.TOTP(secret).now())
    assert refused.status_code == 302
    assert _no_admin_page_opens(client)


def test_issue_24_admin_hourly_limit_holds_across_sign_ins(superuser, clock):
    """Issue 24: wrong codes of earlier admin sign-ins count: after ten in an hour the right
    code is refused too"""
    secret, _ = _authenticator_app(superuser, clock)
    for _ in range(2):
        client = Client()
        _password(client)
        for _ in range(5):
            _code(client, _wrong(pyotp.TOTP(secret).now()))

    client = Client()
    _password(client)
    refused = _code(client, pyotp.TOTP(secret).now())
    assert TOO_MANY_OTP_ATTEMPTS in _text(refused)
    assert _no_admin_page_opens(client)


def test_issue_24_admin_recovery_code_works_once(superuser, clock):
    """Issue 24: a recovery code opens the admin once (with a warning of how many are left);
    the same code is refused on the next sign-in"""
    _, codes = _authenticator_app(superuser, clock)
    first = Client()
    _password(first)
    done = _code(first, codes[0].upper())
    assert done.status_code == 302
    assert "You signed in with a recovery code (9 left)" in _text(first.get(done["Location"]))

    again = Client()
    _password(again)
    refused = _code(again, codes[0])
    assert refused.status_code == 200
    assert INVALID_RECOVERY_CODE in _text(refused)
    assert _no_admin_page_opens(again)


def test_issue_24_admin_passkey_opens_the_admin(superuser, clock):
    """Issue 24: a superuser with a passkey uses it in the admin: the page carries the WebAuthn
    options of this sign-in, and the passkey's answer to them opens the admin; an answer to
    another sign-in's options is refused"""
    device = SoftPasskey(rp_id=settings.WEBAUTHN_RP_ID, origin=settings.WEBAUTHN_ORIGIN)
    options = json.loads(passkey_registration_options(user=superuser))
    passkey_register(user=superuser, credential=device.create(options))

    def passkey_options(page) -> dict:
        found = re.search(
            r'id="passkey-options" type="application/json">(.*?)</script>', _text(page)
        )
        assert found, "no passkey options on the page"
        return json.loads(found.group(1))

    other = Client()
    other_options = passkey_options(_password(other))
    client = Client()
    step = _password(client)
    assert 'src="/static/accounts/admin_passkey.js"' in _text(step)

    stolen = client.post(LOGIN, {"credential": json.dumps(device.get(other_options))})
    assert INVALID_PASSKEY in _text(stolen)
    assert _no_admin_page_opens(client)

    done = client.post(LOGIN, {"credential": json.dumps(device.get(passkey_options(stolen)))})
    assert (done.status_code, done["Location"]) == (302, "/admin/")
    assert client.get("/admin/").status_code == 200


def test_issue_24_admin_with_an_app_and_a_phone_can_ask_for_a_text(superuser, clock, outbox):
    """Issue 24: with an authenticator app no text is sent at once; "Text me a code" sends one
    and its code opens the admin"""
    _authenticator_app(superuser, clock)
    superuser.mfa_phone = PHONE
    superuser.save(update_fields=["mfa_phone"])
    client = Client()

    _password(client)
    assert outbox.sms() == []
    asked = client.post(LOGIN, {"send_sms": "Text me a code"})
    assert "We texted a code to •••-•••-••67." in _text(asked)

    done = _code(client, outbox.latest_code(to=PHONE), method="sms")
    assert (done.status_code, done["Location"]) == (302, "/admin/")


def test_issue_24_staff_without_a_factor_enrols_an_app_before_any_admin_page(clock):
    """Issue 24: a staff member with no second factor gets the authenticator-app enrolment
    after the password, no admin page opens until the app's code is confirmed (a wrong one is
    refused), then the recovery codes are shown once and the admin opens"""
    staff = UserFactory(email="desk@example.com", is_staff=True)
    client = Client()

    enrol = _password(client, staff.email)
    assert enrol.status_code == 200
    page = _text(enrol)
    assert "your account has none yet" in page and 'src="data:image/svg+xml' in page
    secret = re.search(r"Key: <code>([A-Z2-7]+)</code>", page).group(1)
    assert _no_admin_page_opens(client)

    wrong = client.post(LOGIN, {"enrol_code": _wrong(pyotp.TOTP(secret).now())})
    assert INVALID_TOTP in _text(wrong)
    assert not MfaFactor.objects.filter(user=staff, confirmed_at__isnull=False).exists()
    assert _no_admin_page_opens(client)

    done = client.post(LOGIN, {"enrol_code": pyotp.TOTP(secret).now()})
    assert done.status_code == 200
    codes = re.findall(r"<li><code>([a-z0-9-]+)</code></li>", done.content.decode())
    assert len(codes) == RECOVERY_CODE_COUNT
    assert 'href="/admin/"' in done.content.decode()
    assert MfaFactor.objects.filter(
        user=staff, kind=MfaFactor.Kind.TOTP, confirmed_at__isnull=False
    ).exists()
    assert client.get("/admin/").status_code == 200


def test_issue_24_enrolment_is_not_offered_to_staff_who_have_a_factor(clock):
    """Issue 24: someone with the password of a staff member who has a factor cannot add an
    app of their own through the enrolment step"""
    staff = UserFactory(email="desk@example.com", is_staff=True, mfa_phone=PHONE)
    client = Client()
    step = _password(client, staff.email)
    assert 'name="otp"' in step.content.decode() and "enrol_code" not in step.content.decode()

    forced = client.post(LOGIN, {"enrol_code": "123456"})
    assert "enrol_code" not in forced.content.decode()
    assert not MfaFactor.objects.filter(user=staff).exists()
    assert _no_admin_page_opens(client)


def test_issue_24_admin_sign_in_step_expires(superuser, clock):
    """Issue 24: a second factor entered more than ten minutes after the password is not
    accepted: the password is asked again"""
    secret, _ = _authenticator_app(superuser, clock)
    client = Client()
    _password(client)
    clock.tick(timedelta(seconds=settings.OTP_TTL_SECONDS + 1))

    late = _code(client, pyotp.TOTP(secret).now())
    assert late.status_code == 302
    assert "Your sign-in took too long. Please sign in again." in _text(
        client.get(late["Location"])
    )
    assert _no_admin_page_opens(client)
