"""Issue 13: second factors beyond SMS (authenticator apps, passkeys, recovery codes), the
Account page's list of factors, their removal and the MFA step, with the spec's `mfa-token`
contract (§4, §7) kept for every factor."""

from __future__ import annotations

import time
from datetime import timedelta

import pyotp
import pytest
from django.conf import settings
from django.utils import timezone
from freezegun import freeze_time

from concierge.accounts.auth import MFA_AUTHENTICATION_REQUIRED
from concierge.accounts.models import AuthToken, MfaFactor, RecoveryCode
from concierge.accounts.services.mfa.factors import SESSION_VOIDED
from concierge.accounts.services.mfa.fresh_check import (
    CONFIRM_REQUIRED,
    LAST_FACTOR_REQUIRED,
    recovery_codes_regenerate,
)
from concierge.accounts.services.mfa.recovery_codes import INVALID_RECOVERY_CODE
from concierge.accounts.services.mfa.totp import INVALID_TOTP, secret_decrypt, totp_enrol_start
from concierge.accounts.tests.webauthn_device import SoftPasskey
from conftest import DEFAULT_PASSWORD, ApiClient, CompanyFactory, UserFactory

pytestmark = pytest.mark.django_db

E164 = "+15551234567"


def _code(secret: str, *, offset_steps: int = 0) -> str:
    return pyotp.TOTP(secret).at(time.time() + offset_steps * 30)


def _wrong(code: str) -> str:
    return f"{(int(code) + 1) % 1_000_000:06d}"


def _totp_enrol(api: ApiClient) -> tuple[int, str, list[str] | None]:
    """Enrols an authenticator app; returns its id, secret and the recovery codes shown."""
    start = api.post("mfa/totp")
    assert start.status_code == 200, start.content
    body = start.json()
    confirm = api.post(
        f"mfa/totp/{body['factor_id']}/confirm", {"code": _code(body["secret"]), "name": "Phone"}
    )
    assert confirm.status_code == 200, confirm.content
    if "mfa-token" in confirm:
        api.mfa_token = confirm["mfa-token"]
    return body["factor_id"], body["secret"], confirm.json()["recovery_codes"]


def _pending(email: str) -> ApiClient:
    api = ApiClient()
    response = api.sign_in(email)
    assert response.status_code == 200, response.content
    assert response.json()["mfa_required"] is True
    return api


def _verify(api: ApiClient, method: str, otp: str = "", **extra):
    response = api.post("mfa/verify", {"method": method, "otp": otp, **extra})
    if response.status_code == 200:
        api.mfa_token = response["mfa-token"]
    return response


@pytest.fixture
def totp_user(signed_in_api, user, outbox):
    """`user` with an authenticator app; its secret and recovery codes."""
    factor_id, secret, codes = _totp_enrol(signed_in_api)
    # The enrolment used this step's code: later tests start on a fresh step.
    MfaFactor.objects.filter(pk=factor_id).update(totp_last_step=0)
    return user, secret, codes


def _last_step_code(secret: str) -> str:
    return _code(secret)


# ------------------------------------------------------------------------ authenticator app


def test_totp_enrolment_shows_secret_and_qr_and_stores_it_encrypted(signed_in_api, user, outbox):
    """Issue 13 TOTP: enrol from the Account page (QR code and the secret as text, confirm with
    a code); the secret is stored encrypted at rest"""
    start = signed_in_api.post("mfa/totp")
    assert start.status_code == 200, start.content
    body = start.json()
    assert len(body["secret"]) >= 32
    assert body["otpauth_uri"].startswith("otpauth://totp/")
    assert body["qr_data_uri"].startswith("data:image/svg+xml")
    stored = MfaFactor.objects.get(pk=body["factor_id"])
    assert body["secret"] not in stored.totp_secret_encrypted
    assert secret_decrypt(stored.totp_secret_encrypted) == body["secret"]
    assert stored.confirmed_at is None  # not a factor until a code is confirmed
    assert signed_in_api.get("mfa/factors").json()["factors"] == []

    wrong = signed_in_api.post(
        f"mfa/totp/{body['factor_id']}/confirm", {"code": _wrong(_code(body["secret"]))}
    )
    assert wrong.status_code == 422
    assert wrong.json()["errors"]["code"] == [INVALID_TOTP]

    confirm = signed_in_api.post(
        f"mfa/totp/{body['factor_id']}/confirm", {"code": _code(body["secret"]), "name": "Pixel"}
    )
    assert confirm.status_code == 200, confirm.content
    # The app just proved itself: this session keeps going with the mfa-token it answers.
    assert signed_in_api.get("users/current").status_code == 401
    signed_in_api.mfa_token = confirm["mfa-token"]
    codes = confirm.json()["recovery_codes"]
    assert len(codes) == 10 and len(set(codes)) == 10
    factors = signed_in_api.get("mfa/factors").json()
    assert [(f["kind"], f["name"]) for f in factors["factors"]] == [("totp", "Pixel")]
    assert factors["factors"][0]["created_at"] and factors["factors"][0]["last_used_at"]
    assert factors["recovery_codes_left"] == 10
    emails = outbox.emails(to=user.email)
    assert [e.subject for e in emails] == ["Concierge: A sign-in method was added"]
    assert "An authenticator app was added" in emails[0].body


def test_totp_sign_in_keeps_the_mfa_token_contract(totp_user, outbox):
    """Issue 13 TOTP + §4/§7: sign-in answers mfa_required, no text is sent, protected calls
    answer 'MFA authentication required' until POST /mfa/verify returns the mfa-token header"""
    user, secret, _ = totp_user
    outbox.all()  # the enrolment email
    api = _pending(user.email)
    assert outbox.sms() == []
    current = api.get("users/current")
    assert current.status_code == 401
    assert current.json()["error"] == MFA_AUTHENTICATION_REQUIRED
    assert api.get("mfa/methods").json() == {"methods": ["totp", "recovery"], "phone_hint": ""}

    response = _verify(api, "totp", _code(secret))

    assert response.status_code == 200, response.content
    assert response.json() == {"success": True}
    assert api.get("users/current").status_code == 200
    assert api.get("users/current").json()["mfa_enabled"] is True


def test_totp_code_replay_refused(totp_user):
    """Issue 13 TOTP: codes are single use within their window"""
    user, secret, _ = totp_user
    code = _code(secret)
    assert _verify(_pending(user.email), "totp", code).status_code == 200

    replay = _verify(_pending(user.email), "totp", code)

    assert replay.status_code == 401
    assert replay.json()["error"] == INVALID_TOTP


@pytest.mark.parametrize("offset", [-1, 1])
def test_totp_clock_drift_of_one_step_allowed(totp_user, offset):
    """Issue 13 TOTP: a code one step (30 s) early or late is accepted"""
    user, secret, _ = totp_user
    assert (
        _verify(_pending(user.email), "totp", _code(secret, offset_steps=offset)).status_code == 200
    )


@pytest.mark.parametrize("offset", [-2, 2])
def test_totp_clock_drift_of_two_steps_refused(totp_user, offset):
    """Issue 13 TOTP: only one step of drift is allowed"""
    user, secret, _ = totp_user
    response = _verify(_pending(user.email), "totp", _code(secret, offset_steps=offset))
    assert response.status_code == 401


def test_totp_five_wrong_codes_void_the_attempt(totp_user):
    """Issue 13 TOTP: 5 wrong tries void the attempt like the SMS code (the password is
    needed again)"""
    user, secret, _ = totp_user
    api = _pending(user.email)
    wrong = _wrong(_code(secret))
    for _ in range(4):
        assert _verify(api, "totp", wrong).status_code == 401

    fifth = _verify(api, "totp", wrong)

    assert fifth.status_code == 429
    assert fifth.json()["error"] == SESSION_VOIDED
    assert _verify(api, "totp", _code(secret)).status_code in (401, 429)
    assert api.mfa_token is None
    assert AuthToken.objects.get(user=user, mfa_failed_attempts=5).revoked_at is not None
    # A new sign-in starts over.
    assert _verify(_pending(user.email), "totp", _code(secret)).status_code == 200


def test_totp_wrong_codes_capped_per_account_and_hour(totp_user):
    """Issue 13 TOTP: new sign-ins do not buy endless guesses: 10 wrong codes an hour block the
    account's MFA step, as with SMS codes"""
    user, secret, _ = totp_user
    wrong = _wrong(_code(secret))
    for _ in range(2):
        api = _pending(user.email)
        for _ in range(5):
            _verify(api, "totp", wrong)

    blocked = _verify(_pending(user.email), "totp", _code(secret))

    assert blocked.status_code == 429
    with freeze_time(timezone.now() + timedelta(hours=1, minutes=1)):
        assert _verify(_pending(user.email), "totp", _code(secret)).status_code == 200


# ----------------------------------------------------------------------------- recovery codes


def test_recovery_code_single_use(totp_user):
    """Issue 13 recovery codes: each code passes the MFA step once"""
    user, _, codes = totp_user
    assert codes and len(codes) == 10
    assert RecoveryCode.objects.filter(user=user).count() == 10
    assert not RecoveryCode.objects.filter(code_hash__in=codes).exists()  # only hashes stored

    first = _pending(user.email)
    assert _verify(first, "recovery", codes[0].upper()).status_code == 200
    assert first.get("users/current").status_code == 200

    again = _verify(_pending(user.email), "recovery", codes[0])

    assert again.status_code == 401
    assert again.json()["error"] == INVALID_RECOVERY_CODE
    assert first.get("mfa/factors").json()["recovery_codes_left"] == 9


def test_recovery_codes_only_at_first_enrolment_and_regenerable(totp_user, signed_in_api):
    """Issue 13 recovery codes: shown once at the first enrolment of a non-SMS factor;
    regenerating (with the password) replaces them all"""
    user, secret, codes = totp_user
    api = _pending(user.email)
    _verify(api, "totp", _code(secret))
    second = api.post("mfa/totp")
    confirm = api.post(
        f"mfa/totp/{second.json()['factor_id']}/confirm", {"code": _code(second.json()["secret"])}
    )
    assert confirm.status_code == 200
    assert confirm.json()["recovery_codes"] is None

    assert api.post("mfa/recovery-codes", {"password": "wrong"}).status_code == 403
    renewed = api.post("mfa/recovery-codes", {"password": DEFAULT_PASSWORD})

    assert renewed.status_code == 200, renewed.content
    fresh = renewed.json()["recovery_codes"]
    assert len(fresh) == 10 and not set(fresh) & set(codes)
    assert _verify(_pending(user.email), "recovery", codes[1]).status_code == 401
    assert _verify(_pending(user.email), "recovery", fresh[0]).status_code == 200


# --------------------------------------------------------------------- listing and removal


def test_factor_list_strongest_first_with_sms(totp_user):
    """Issue 13 Account page: factors with when added and last used, strongest first; the MFA
    step offers them in that order and SMS last ('Send a text instead')"""
    user, secret, _ = totp_user
    user.mfa_phone = E164
    user.save(update_fields=["mfa_phone"])
    api = _pending(user.email)
    assert api.get("mfa/methods").json() == {
        "methods": ["totp", "sms", "recovery"],
        "phone_hint": "•••-•••-••67",
    }
    _verify(api, "totp", _code(secret))
    kinds = [f["kind"] for f in api.get("mfa/factors").json()["factors"]]
    assert kinds == ["totp", "sms"]


def test_remove_factor_needs_a_fresh_check_and_emails(totp_user, outbox):
    """Issue 13: removing a factor needs the password (or another factor's code); the user is
    emailed"""
    user, secret, _ = totp_user
    api = _pending(user.email)
    _verify(api, "totp", _code(secret))
    factor = MfaFactor.objects.get(user=user)
    outbox.all()

    assert api.post(f"mfa/factors/{factor.pk}/remove", {}).status_code == 422
    assert api.post(f"mfa/factors/{factor.pk}/remove", {"password": "nope"}).status_code == 403
    assert MfaFactor.objects.filter(pk=factor.pk).exists()

    removed = api.post(f"mfa/factors/{factor.pk}/remove", {"password": DEFAULT_PASSWORD})

    assert removed.status_code == 200, removed.content
    assert not MfaFactor.objects.filter(pk=factor.pk).exists()
    assert not RecoveryCode.objects.filter(user=user).exists()  # they went with the last app
    subjects = [e.subject for e in outbox.emails(to=user.email)]
    assert "Concierge: A sign-in method was removed" in subjects
    # No factor left: signing in needs no MFA step any more.
    assert ApiClient().sign_in(user.email).json()["mfa_required"] is False


def test_remove_last_factor_of_company_requiring_mfa_refused(db, outbox):
    """Issue 13: a company that requires MFA accepts any factor, and its employees cannot
    remove their last one"""
    globex = CompanyFactory(slug="globex", name="Globex", requires_mfa=True)
    user = UserFactory(email="gia@globex.com", companies=[globex])
    api = ApiClient()
    assert api.sign_in(user.email).json()["mfa_requires_verification"] is True
    _, secret, _ = _totp_enrol(api)
    MfaFactor.objects.filter(user=user).update(totp_last_step=0)
    api = _pending(user.email)
    assert api.sign_in(user.email).json() | {"expires_at": None} == {
        "success": True,
        "expires_at": None,
        "mfa_required": True,
        "mfa_requires_verification": False,
    }
    _verify(api, "totp", _code(secret))
    factor = MfaFactor.objects.get(user=user)

    refused = api.post(f"mfa/factors/{factor.pk}/remove", {"password": DEFAULT_PASSWORD})

    assert refused.status_code == 422
    assert refused.json()["error"] == LAST_FACTOR_REQUIRED
    assert MfaFactor.objects.filter(pk=factor.pk).exists()
    assert api.get("mfa/factors").json()["company_requires_mfa"] is True
    # With the phone as well, the app can go.
    user.mfa_phone = E164
    user.save(update_fields=["mfa_phone"])
    ok = api.post(f"mfa/factors/{factor.pk}/remove", {"password": DEFAULT_PASSWORD})
    assert ok.status_code == 200
    sms = api.post("mfa/factors/sms/remove", {"password": DEFAULT_PASSWORD})
    assert sms.status_code == 422


def test_wrong_fresh_checks_count_towards_the_lockout(totp_user, settings, outbox):
    """Issue 13: a signed-in session cannot guess the password through the fresh check: wrong
    ones count as failed sign-ins and lock the account like them"""
    settings.RATE_LIMITS = None
    user, secret, _ = totp_user
    api = _pending(user.email)
    _verify(api, "totp", _code(secret))
    factor = MfaFactor.objects.get(user=user)
    for _ in range(10):
        assert api.post(f"mfa/factors/{factor.pk}/remove", {"password": "guess"}).status_code == 403
    user.refresh_from_db()
    assert user.locked_at is not None
    assert api.post("mfa/recovery-codes", {"code": "000000"}).status_code == 403
    assert ApiClient().sign_in(user.email).status_code == 401


def test_a_locked_account_confirms_no_password_through_the_fresh_check(totp_user, settings):
    """Issue 24 lockout without an oracle: once the account is locked, a signed-in session's
    fresh check refuses the right password as it does a wrong one, and the attempt counts"""
    settings.RATE_LIMITS = None
    user, secret, _ = totp_user
    api = _pending(user.email)
    _verify(api, "totp", _code(secret))
    factor = MfaFactor.objects.get(user=user)
    for _ in range(10):
        assert api.post(f"mfa/factors/{factor.pk}/remove", {"password": "guess"}).status_code == 403
    user.refresh_from_db()
    counted = user.failed_sign_in_count

    right = api.post(f"mfa/factors/{factor.pk}/remove", {"password": DEFAULT_PASSWORD})
    wrong = api.post(f"mfa/factors/{factor.pk}/remove", {"password": "guess"})

    assert (right.status_code, right.content) == (wrong.status_code, wrong.content)
    assert right.status_code == 403
    assert MfaFactor.objects.filter(pk=factor.pk).exists()
    user.refresh_from_db()
    assert user.failed_sign_in_count == counted + 2


def test_remove_with_another_factors_code(totp_user):
    """Issue 13: the fresh check may be a code of another factor instead of the password"""
    user, secret, codes = totp_user
    user.mfa_phone = E164
    user.save(update_fields=["mfa_phone"])
    api = _pending(user.email)
    _verify(api, "recovery", codes[0])
    response = api.post("mfa/factors/sms/remove", {"code": _code(secret)})
    assert response.status_code == 200, response.content
    user.refresh_from_db()
    assert user.mfa_phone == ""


def test_factors_of_another_user_are_not_found(totp_user, make_api, outbox):
    """Issue 13 ownership: another user's factor cannot be removed or confirmed"""
    owner, _, _ = totp_user
    factor = MfaFactor.objects.get(user=owner)
    other = UserFactory(email="eve@example.com")
    eve = make_api()
    eve.sign_in(other.email)

    removal = eve.post(f"mfa/factors/{factor.pk}/remove", {"password": DEFAULT_PASSWORD})
    assert removal.status_code == 404
    assert eve.post("mfa/factors/sms/remove", {"password": DEFAULT_PASSWORD}).status_code == 404
    assert eve.post("mfa/factors/abc/remove", {"password": DEFAULT_PASSWORD}).status_code == 404
    assert eve.post("mfa/factors/²/remove", {"password": DEFAULT_PASSWORD}).status_code == 404
    assert MfaFactor.objects.filter(pk=factor.pk).exists()
    # Eve cannot confirm a pending app of the owner either.
    pending = totp_enrol_start(user=owner)
    confirm = eve.post(f"mfa/totp/{pending.factor_id}/confirm", {"code": _code(pending.secret)})
    assert confirm.status_code == 422
    assert eve.get("mfa/factors").json()["factors"] == []


def test_managing_factors_needs_the_mfa_step_first(totp_user):
    """Issue 13: a password alone can neither add nor remove factors, nor enrol a phone"""
    user, _, _ = totp_user
    api = _pending(user.email)
    assert api.post("mfa/totp").status_code == 401
    assert api.get("mfa/factors").status_code == 401
    assert api.post("mfa/passkeys/options").status_code == 401
    assert api.post("mfa", {"mfa_number": "5551234567"}).status_code == 401


def test_adding_a_sign_in_method_needs_a_recent_proof(totp_user, outbox):
    """Issue 13 (a session left signed in, or stolen): adding a passkey, an app or a phone needs
    the session to have proven its person within 15 minutes (signed in, or POST /mfa/confirm
    with the password or a code); a wrong proof counts as a failed sign-in."""
    user, secret, _ = totp_user
    api = _pending(user.email)
    assert _verify(api, "totp", _last_step_code(secret)).status_code == 200
    assert api.get("mfa/factors").json()["add_needs_confirm"] is False
    assert api.post("mfa/passkeys/options").status_code == 200  # just signed in
    AuthToken.objects.filter(user=user).update(created_at=timezone.now() - timedelta(minutes=16))
    assert api.get("mfa/factors").json()["add_needs_confirm"] is True
    for path, body in (
        ("mfa/passkeys/options", None),
        ("mfa/totp", None),
        ("mfa", {"mfa_number": "5551234567"}),
    ):
        refused = api.post(path, body)
        assert refused.status_code == 403, (path, refused.content)
        assert refused.json()["errors"]["confirm"] == [CONFIRM_REQUIRED]
    assert outbox.sms() == []

    wrong = api.post("mfa/confirm", {"password": "not the password"})
    assert wrong.status_code == 403
    user.refresh_from_db()
    assert user.failed_sign_in_count == 1
    assert api.post("mfa/totp").status_code == 403
    assert api.post("mfa/confirm", {"password": DEFAULT_PASSWORD}).status_code == 200
    assert api.get("mfa/factors").json()["add_needs_confirm"] is False
    assert api.post("mfa/passkeys/options").status_code == 200
    assert api.post("mfa/totp").status_code == 200
    with freeze_time(timezone.now() + timedelta(minutes=16)):
        assert api.post("mfa/totp").status_code == 403  # the confirmation has its window too


# ------------------------------------------------------------------------------ SMS unchanged


def test_sms_only_user_sign_in_unchanged(user, outbox):
    """§4/§7: for SMS users nothing changes: sign-in texts a code, POST /mfa/verify {otp}"""
    user.mfa_phone = E164
    user.save(update_fields=["mfa_phone"])
    api = _pending(user.email)
    code = outbox.latest_code(to=E164)
    assert api.get("mfa/methods").json()["methods"] == ["sms"]
    assert api.mfa_verify(code).status_code == 200
    assert api.get("users/current").status_code == 200


def test_send_a_text_instead(totp_user, outbox):
    """Issue 13 MFA step: with a stronger factor no text is sent at sign-in; 'Send a text
    instead' (POST /mfa/send-otp) sends one and the SMS code passes the step"""
    user, _, _ = totp_user
    user.mfa_phone = E164
    user.save(update_fields=["mfa_phone"])
    api = _pending(user.email)
    assert outbox.sms() == []
    assert api.post("mfa/send-otp").status_code == 200
    assert api.mfa_verify(outbox.latest_code(to=E164)).status_code == 200


# ---------------------------------------------------------------------------------- passkeys


def _passkey_register(api: ApiClient, device: SoftPasskey):
    options = api.post("mfa/passkeys/options")
    assert options.status_code == 200, options.content
    response = api.post(
        "mfa/passkeys", {"credential": device.create(options.json()["options"]), "name": "Laptop"}
    )
    if "mfa-token" in response:
        api.mfa_token = response["mfa-token"]
    return response


@pytest.fixture
def device() -> SoftPasskey:
    return SoftPasskey(rp_id=settings.WEBAUTHN_RP_ID, origin=settings.WEBAUTHN_ORIGIN)


def test_passkey_register_and_mfa_step(signed_in_api, user, device, outbox):
    """Issue 13 passkeys: register from the Account page; sign in with the passkey as the
    second factor through POST /mfa/verify and its mfa-token header"""
    registered = _passkey_register(signed_in_api, device)
    assert registered.status_code == 200, registered.content
    assert len(registered.json()["recovery_codes"]) == 10
    assert [e.subject for e in outbox.emails(to=user.email)] == [
        "Concierge: A sign-in method was added"
    ]

    api = _pending(user.email)
    assert api.get("mfa/methods").json()["methods"] == ["passkey", "recovery"]
    options = api.post("mfa/passkey/options").json()["options"]
    assert [c["id"] for c in options["allowCredentials"]] == [device.id]
    assertion = device.get(options)

    response = _verify(api, "passkey", credential=assertion)

    assert response.status_code == 200, response.content
    assert api.get("users/current").status_code == 200
    factor = MfaFactor.objects.get(user=user)
    assert factor.sign_count == 1 and factor.last_used_at is not None
    # The same assertion again (its challenge is used up) is refused.
    replay = _verify(_pending(user.email), "passkey", credential=assertion)
    assert replay.status_code == 401


def test_passkey_of_another_origin_or_user_refused(signed_in_api, user, device, make_api):
    """Issue 13 passkeys: an assertion for another origin, or another user's passkey, fails"""
    assert _passkey_register(signed_in_api, device).status_code == 200
    api = _pending(user.email)
    options = api.post("mfa/passkey/options").json()["options"]
    phished = device.get(options, origin="https://evil.example")
    assert _verify(api, "passkey", credential=phished).status_code == 401

    other = UserFactory(email="eve@example.com")
    eve = make_api()
    eve.sign_in(other.email)
    eve_device = SoftPasskey(rp_id=settings.WEBAUTHN_RP_ID, origin=settings.WEBAUTHN_ORIGIN)
    assert _passkey_register(eve, eve_device).status_code == 200
    eve_pending = _pending(other.email)
    # Eve answers her own challenge with the owner's passkey: refused.
    eve_options = eve_pending.post("mfa/passkey/options").json()["options"]
    assert _verify(eve_pending, "passkey", credential=device.get(eve_options)).status_code == 401


def test_passkey_registration_refuses_foreign_challenge(signed_in_api, device):
    """Issue 13 passkeys: a registration must answer a challenge the server handed out"""
    bogus = {"challenge": "AAAAAAAAAAAAAAAAAAAAAA", "rp": {"id": settings.WEBAUTHN_RP_ID}}
    response = signed_in_api.post("mfa/passkeys", {"credential": device.create(bogus)})
    assert response.status_code == 422
    garbage = signed_in_api.post("mfa/passkeys", {"credential": {"response": "x"}})
    assert garbage.status_code == 422


def test_passwordless_sign_in_with_passkey(signed_in_api, user, device):
    """Issue 13 passkeys: a passkey alone signs in (it answers with both the Authorization and
    the mfa-token headers)"""
    assert _passkey_register(signed_in_api, device).status_code == 200
    api = ApiClient()
    options = api.post("users/sign_in/passkey/options")
    assert options.status_code == 200
    response = api.post(
        "users/sign_in/passkey", {"credential": device.get(options.json()["options"])}
    )
    assert response.status_code == 200, response.content
    assert response.json()["mfa_required"] is False
    api.token = response["Authorization"].removeprefix("Bearer ")
    api.mfa_token = response["mfa-token"]
    assert api.get("users/current").json()["email"] == user.email

    unknown = SoftPasskey(rp_id=settings.WEBAUTHN_RP_ID, origin=settings.WEBAUTHN_ORIGIN)
    options = api.post("users/sign_in/passkey/options").json()["options"]
    refused = ApiClient().post("users/sign_in/passkey", {"credential": unknown.get(options)})
    assert refused.status_code == 422


# ------------------------------------------------------------------------------- the admin


def test_admin_sign_in_takes_an_authenticator_code_or_a_recovery_code(db, outbox):
    """Issue 13: a staff member with an authenticator app (no phone) passes the admin's code
    step with the app's code, or a recovery code; no text is sent and a wrong code is refused"""
    from django.test import Client

    staff = UserFactory(email="root@example.com", is_staff=True, is_superuser=True)
    secret = totp_enrol_start(user=staff).secret
    factor = MfaFactor.objects.get(user=staff)
    factor.confirmed_at = timezone.now()
    factor.save()
    codes = recovery_codes_regenerate(user=staff, password=DEFAULT_PASSWORD)

    def log_in(client: Client):
        return client.post(
            "/admin/login/?next=/admin/",
            {"username": staff.email, "password": DEFAULT_PASSWORD, "next": "/admin/"},
        )

    client = Client()
    assert "authenticator app" in log_in(client).content.decode()
    assert outbox.sms() == []
    wrong = client.post("/admin/login/", {"otp": _wrong(_code(secret))})
    assert wrong.status_code == 200 and client.get("/admin/").status_code != 200
    assert client.post("/admin/login/", {"otp": _code(secret)}).status_code == 302
    assert client.get("/admin/").status_code == 200

    other = Client()
    log_in(other)
    assert other.post("/admin/login/", {"otp": codes[0]}).status_code == 302
    assert other.get("/admin/").status_code == 200


def test_factors_without_a_name_are_numbered(signed_in_api, user, outbox):
    """Issue 13 Account page: two passkeys read 'Passkey' and 'Passkey 2'"""
    for _ in range(2):
        device = SoftPasskey(rp_id=settings.WEBAUTHN_RP_ID, origin=settings.WEBAUTHN_ORIGIN)
        options = signed_in_api.post("mfa/passkeys/options").json()["options"]
        response = signed_in_api.post("mfa/passkeys", {"credential": device.create(options)})
        assert response.status_code == 200, response.content
        if "mfa-token" in response:
            signed_in_api.mfa_token = response["mfa-token"]
    names = [f["name"] for f in signed_in_api.get("mfa/factors").json()["factors"]]
    assert names == ["Passkey", "Passkey 2"]
