"""Second factor by SMS: spec §2 MfaEnrollment, §4 Authentication, §5 'MFA code'/'MFA phone',
§7 mfa endpoints, §8, ARCHITECTURE.md §5 'MFA' (6 digits, 10 minutes, single use, 5 tries)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from freezegun import freeze_time

from concierge.accounts.auth import MFA_AUTHENTICATION_REQUIRED
from concierge.accounts.services.mfa.sms import INVALID_OTP, WRONG_OTP
from conftest import ApiClient, CompanyFactory, UserFactory

pytestmark = pytest.mark.django_db

PHONE = "5551234567"
E164 = "+15551234567"


def _wrong(code: str) -> str:
    return f"{(int(code) + 1) % 1_000_000:06d}"


@pytest.fixture
def enrolled_user(user):
    """A user whose phone is already enrolled."""
    user.mfa_phone = E164
    user.save(update_fields=["mfa_phone"])
    return user


@pytest.fixture
def pending_api(enrolled_user, outbox) -> ApiClient:
    """Signed in with the password, MFA code not yet entered."""
    api = ApiClient()
    response = api.sign_in(enrolled_user.email)
    assert response.status_code == 200
    assert response.json()["mfa_required"] is True
    return api


# --------------------------------------------------------------------------- enrolment


def test_enrol_sends_code_and_verify_returns_mfa_token(signed_in_api, user, outbox):
    """§2 MfaEnrollment / §7 POST mfa then POST mfa/verify: phone form, then code form;
    success returns body success and an mfa-token header"""
    response = signed_in_api.post("mfa", {"mfa_number": PHONE})

    assert response.status_code == 200, response.content
    assert response.json()["success"] is True
    sms = outbox.sms(to=E164)
    assert len(sms) == 1
    code = outbox.latest_code(to=E164)
    assert len(code) == 6 and code.isdigit()
    user.refresh_from_db()
    assert user.mfa_phone == ""  # not enrolled until the code is confirmed

    verify = signed_in_api.post("mfa/verify", {"otp": code})

    assert verify.status_code == 200, verify.content
    assert verify.json()["success"] is True
    assert verify["mfa-token"]
    user.refresh_from_db()
    assert user.mfa_phone == E164


def test_enrol_accepts_masked_phone(signed_in_api, user, outbox):
    """§5 MFA phone is 10 digits; the SPA's mask (999) 999-9999 is accepted"""
    response = signed_in_api.post("mfa", {"mfa_number": "(555) 123-4567"})
    assert response.status_code == 200
    assert outbox.sms(to=E164)


@pytest.mark.parametrize("number", ["", "555123456", "55512345678", "phone-number", "12"])
def test_enrol_bad_phone_is_422(signed_in_api, outbox, number):
    """§5 MFA phone: exactly 10 digits ('Please enter a valid phone number')"""
    response = signed_in_api.post("mfa", {"mfa_number": number})

    assert response.status_code == 422
    assert response.json()["error"] == "Please enter a valid phone number"
    assert response.json()["errors"]["mfa_number"] == ["Please enter a valid phone number"]
    assert outbox.sms() == []


def test_enrol_requires_sign_in(api, outbox):
    """§2 access rules: MFA enrollment is reachable only when authenticated"""
    assert api.post("mfa", {"mfa_number": PHONE}).status_code == 401
    assert outbox.sms() == []


def test_verify_wrong_code_is_401_with_message(signed_in_api, user, outbox):
    """§8 MFA verify failure: server error text; no mfa-token; phone not enrolled"""
    signed_in_api.post("mfa", {"mfa_number": PHONE})
    code = outbox.latest_code(to=E164)

    response = signed_in_api.post("mfa/verify", {"otp": _wrong(code)})

    assert response.status_code == 401
    assert response.json()["success"] is False
    # The code sent still works: the message says to check it, not that it expired.
    assert response.json()["error"] == WRONG_OTP
    assert not response.has_header("mfa-token")
    user.refresh_from_db()
    assert user.mfa_phone == ""
    # The session itself is not signed out (§4: the MFA-verify call is no sign-out).
    assert signed_in_api.get("users/current").status_code == 200


@pytest.mark.parametrize(
    ("otp", "message"),
    [
        ("", "Please enter the verification code sent to your phone number"),
        ("12345", "Please enter a valid verification code"),
        ("1234567", "Please enter a valid verification code"),
        ("12a456", "Please enter a valid verification code"),
    ],
)
def test_verify_code_format(pending_api, otp, message):
    """§5 MFA code: exactly 6 digits, with the spec's empty and invalid messages"""
    response = pending_api.post("mfa/verify", {"otp": otp})
    assert response.status_code == 422
    assert response.json()["errors"]["otp"] == [message]


def test_verify_missing_otp_field(pending_api):
    """§5 MFA code: an absent code gets the 'empty' message"""
    response = pending_api.post("mfa/verify", {})
    assert response.status_code == 422
    assert response.json()["errors"]["otp"] == [
        "Please enter the verification code sent to your phone number"
    ]


# --------------------------------------------------------------------------- sign-in with MFA


def test_full_enrolment_then_next_sign_in_requires_code(signed_in_api, user, outbox):
    """§4: after enrolment the next sign-in reports mfa_required and an SMS is sent; protected
    calls answer 401 'MFA authentication required' until the code is verified"""
    signed_in_api.post("mfa", {"mfa_number": PHONE})
    assert signed_in_api.mfa_verify(outbox.latest_code(to=E164)).status_code == 200
    assert signed_in_api.get("users/current").status_code == 200

    device = ApiClient()
    sms_before = len(outbox.sms(to=E164))
    response = device.sign_in(user.email)

    assert response.status_code == 200
    assert response.json()["mfa_required"] is True
    assert response.json()["mfa_requires_verification"] is False
    assert len(outbox.sms(to=E164)) == sms_before + 1

    blocked = device.get("users/current")
    assert blocked.status_code == 401
    assert blocked.json()["error"] == MFA_AUTHENTICATION_REQUIRED

    assert device.mfa_verify(outbox.latest_code(to=E164)).status_code == 200
    current = device.get("users/current")
    assert current.status_code == 200
    assert current.json()["email"] == user.email


def test_mfa_required_error_text_is_exact(pending_api):
    """§4: the error text is exactly 'MFA authentication required' (the SPA matches on it)"""
    response = pending_api.get("users/current")
    assert response.status_code == 401
    assert response.json() == {"success": False, "error": "MFA authentication required"}


def test_mfa_gate_covers_other_protected_calls(pending_api):
    """ARCHITECTURE §5: until verified, protected calls (not only current user) answer 401"""
    response = pending_api.get("users/onboarding")
    assert response.status_code == 401
    assert response.json()["error"] == MFA_AUTHENTICATION_REQUIRED


def test_sign_out_allowed_while_mfa_pending(pending_api):
    """§4 sign-out calls the server: allowed before the code is entered"""
    assert pending_api.sign_out().status_code == 200
    assert pending_api.post("mfa/send-otp").status_code == 401


def test_mfa_token_of_one_session_does_not_unlock_another(pending_api, enrolled_user, outbox):
    """ARCHITECTURE §5: the mfa-token belongs to the session that verified the code"""
    assert pending_api.mfa_verify(outbox.latest_code(to=E164)).status_code == 200

    other = ApiClient()
    other.sign_in(enrolled_user.email)
    other.mfa_token = pending_api.mfa_token

    response = other.get("users/current")
    assert response.status_code == 401
    assert response.json()["error"] == MFA_AUTHENTICATION_REQUIRED


def test_bogus_mfa_token_is_refused(pending_api):
    """ARCHITECTURE §5: an invented mfa-token header does not pass the gate"""
    pending_api.mfa_token = "made-up-token"
    assert pending_api.get("users/current").json()["error"] == MFA_AUTHENTICATION_REQUIRED


def test_send_otp_resends_a_new_code(pending_api, outbox):
    """§2 SignIn 'Resend code' / §7 POST mfa/send-otp: a new SMS with a fresh code that works"""
    first = outbox.latest_code(to=E164)

    response = pending_api.post("mfa/send-otp")

    assert response.status_code == 200
    assert response.json()["success"] is True
    assert len(outbox.sms(to=E164)) == 2
    second = outbox.latest_code(to=E164)
    if first != second:  # a one-in-a-million repeat is allowed
        assert pending_api.post("mfa/verify", {"otp": first}).status_code == 401
    assert pending_api.mfa_verify(second).status_code == 200
    assert pending_api.get("users/current").status_code == 200


def test_send_otp_during_enrolment_resends_to_the_new_phone(signed_in_api, outbox):
    """§2 MfaEnrollment: resending during enrolment texts the phone being enrolled"""
    signed_in_api.post("mfa", {"mfa_number": PHONE})
    assert signed_in_api.post("mfa/send-otp").status_code == 200
    assert len(outbox.sms(to=E164)) == 2
    assert signed_in_api.mfa_verify(outbox.latest_code(to=E164)).status_code == 200


def test_send_otp_without_phone_is_a_clear_error(signed_in_api, outbox):
    """§8 send OTP failure shows the server error: no phone to send to"""
    response = signed_in_api.post("mfa/send-otp")
    assert response.status_code == 422
    assert response.json()["error"]
    assert outbox.sms() == []


def test_code_expires_after_ten_minutes(enrolled_user, outbox):
    """ARCHITECTURE §5: an SMS code is valid 10 minutes"""
    api = ApiClient()
    start = timezone.now()
    with freeze_time(start):
        api.sign_in(enrolled_user.email)
    code = outbox.latest_code(to=E164)

    with freeze_time(start + timedelta(minutes=10, seconds=1)):
        response = api.post("mfa/verify", {"otp": code})

    assert response.status_code == 401
    assert response.json()["error"] == INVALID_OTP


def test_code_valid_just_before_ten_minutes(enrolled_user, outbox):
    """ARCHITECTURE §5: the code works for its whole 10 minutes"""
    api = ApiClient()
    start = timezone.now()
    with freeze_time(start):
        api.sign_in(enrolled_user.email)
    with freeze_time(start + timedelta(minutes=9, seconds=50)):
        assert api.mfa_verify(outbox.latest_code(to=E164)).status_code == 200


def test_code_is_single_use(pending_api, enrolled_user, outbox):
    """ARCHITECTURE §5: a code works once"""
    code = outbox.latest_code(to=E164)
    assert pending_api.mfa_verify(code).status_code == 200

    other = ApiClient()
    other.sign_in(enrolled_user.email)  # sends a new code, which we ignore
    response = other.post("mfa/verify", {"otp": code})
    assert response.status_code == 401

    again = pending_api.post("mfa/verify", {"otp": code})
    assert again.status_code == 401


def test_five_wrong_tries_void_the_code(pending_api, outbox):
    """ARCHITECTURE §5: 5 wrong tries void the code; even the right code then fails"""
    code = outbox.latest_code(to=E164)
    for _ in range(5):
        response = pending_api.post("mfa/verify", {"otp": _wrong(code)})
        assert response.status_code == 401

    right = pending_api.post("mfa/verify", {"otp": code})

    assert right.status_code == 401
    assert right.json()["error"] == INVALID_OTP
    assert pending_api.get("users/current").status_code == 401
    # A fresh code restores access.
    pending_api.post("mfa/send-otp")
    assert pending_api.mfa_verify(outbox.latest_code(to=E164)).status_code == 200


def test_four_wrong_tries_leave_the_code_usable(pending_api, outbox):
    """ARCHITECTURE §5: only the fifth wrong try voids the code"""
    code = outbox.latest_code(to=E164)
    for _ in range(4):
        pending_api.post("mfa/verify", {"otp": _wrong(code)})
    assert pending_api.mfa_verify(code).status_code == 200


def test_enrolled_user_cannot_replace_phone_before_verifying(pending_api, enrolled_user, outbox):
    """ARCHITECTURE §5 MFA must be passed: a password alone cannot enrol a different phone and
    use its code to get past MFA"""
    response = pending_api.post("mfa", {"mfa_number": "5559990000"})

    assert response.status_code == 401
    assert response.json()["error"] == MFA_AUTHENTICATION_REQUIRED
    assert outbox.sms(to="+15559990000") == []
    enrolled_user.refresh_from_db()
    assert enrolled_user.mfa_phone == E164


def test_verified_user_can_change_phone(pending_api, enrolled_user, outbox):
    """§2 MfaEnrollment: a user past MFA may enrol a new number, confirmed by its own code"""
    assert pending_api.mfa_verify(outbox.latest_code(to=E164)).status_code == 200

    assert pending_api.post("mfa", {"mfa_number": "5559990000"}).status_code == 200
    assert pending_api.mfa_verify(outbox.latest_code(to="+15559990000")).status_code == 200
    enrolled_user.refresh_from_db()
    assert enrolled_user.mfa_phone == "+15559990000"


def test_code_is_not_stored_in_clear(pending_api, enrolled_user, outbox):
    """ARCHITECTURE §5: codes, like tokens, are kept only as hashes"""
    code = outbox.latest_code(to=E164)
    stored = enrolled_user.one_time_codes.get()
    assert code not in stored.code_hash


# --------------------------------------------------------------------------- company requires MFA


def test_company_requiring_mfa_asks_user_without_phone_to_enrol(api, outbox):
    """§4/ARCHITECTURE §5: a user whose company requires MFA but who has no phone gets
    mfa_requires_verification and must enrol before other calls succeed"""
    company = CompanyFactory(slug="secure", name="Secure Co", requires_mfa=True)
    user = UserFactory(email="sec@example.com", companies=[company])

    response = api.sign_in(user.email)

    assert response.status_code == 200
    assert response.json()["mfa_requires_verification"] is True
    assert response.json()["mfa_required"] is False
    assert outbox.sms() == []
    blocked = api.get("users/current")
    assert blocked.status_code == 401
    assert blocked.json()["error"] == MFA_AUTHENTICATION_REQUIRED

    assert api.post("mfa", {"mfa_number": PHONE}).status_code == 200
    assert api.mfa_verify(outbox.latest_code(to=E164)).status_code == 200
    assert api.get("users/current").status_code == 200

    again = ApiClient()
    second = again.sign_in(user.email)
    assert second.json()["mfa_required"] is True
    assert second.json()["mfa_requires_verification"] is False


def test_sign_up_under_mfa_company_then_sign_in_requires_enrolment(api, outbox):
    """§4 sign-up is followed by sign-in; if it reports MFA enrollment available the user
    goes to MfaEnrollment"""
    CompanyFactory(slug="secure", name="Secure Co", requires_mfa=True)
    assert api.sign_up(email="fresh@example.com", company_slug="secure").status_code == 200

    response = api.sign_in("fresh@example.com")

    assert response.status_code == 200
    assert response.json()["mfa_requires_verification"] is True
    assert response.json()["mfa_required"] is False


def test_current_user_reports_mfa_state(signed_in_api, outbox):
    """§4 auth states: the current user carries whether MFA is enabled"""
    assert signed_in_api.get("users/current").json()["mfa_enabled"] is False
    signed_in_api.post("mfa", {"mfa_number": PHONE})
    signed_in_api.mfa_verify(outbox.latest_code(to=E164))
    assert signed_in_api.get("users/current").json()["mfa_enabled"] is True
