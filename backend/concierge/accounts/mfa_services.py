"""Writes of second factors beyond the SMS code: authenticator apps (TOTP, RFC 6238), passkeys
(WebAuthn) and recovery codes. Every factor ends the MFA step the same way as the SMS code:
the session gets an MFA token (`services.auth_token_mfa_verified`)."""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pyotp
import segno
from cryptography.fernet import Fernet, InvalidToken
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    AuthenticatorTransport,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from concierge.accounts import mfa_selectors, services
from concierge.accounts.models import (
    AuthToken,
    MfaFactor,
    RecoveryCode,
    User,
    WebAuthnChallenge,
)
from concierge.common.errors import ApiError, NotFound, Unauthorized, ValidationFailed
from concierge.common.tokens import hashes_equal, token_hash

TOTP_DIGITS = 6
TOTP_PERIOD = 30
# A code of the step before or after the current one still counts: clocks drift.
TOTP_DRIFT_STEPS = 1
RECOVERY_CODE_COUNT = 10
CHALLENGE_TTL_SECONDS = 300

INVALID_TOTP = "That code is incorrect or was already used. Please enter the current code from your authenticator app."
INVALID_RECOVERY_CODE = "That recovery code is incorrect or was already used."
INVALID_PASSKEY = "We couldn't verify that passkey. Please try again."
SESSION_VOIDED = "Too many incorrect codes. Please sign in again."
NO_TOTP = "There is no authenticator app on your account."
NO_PASSKEY = "There is no passkey on your account."
ENROLMENT_EXPIRED = "This setup has expired. Please start again."
FRESH_CHECK_FAILED = "That password or code is incorrect."
FRESH_CHECK_REQUIRED = "Please enter your password or a code from another sign-in method."
LAST_FACTOR_REQUIRED = (
    "Your employer requires two-step verification: add another sign-in method "
    "before removing this one."
)
FACTOR_NOT_FOUND = "That sign-in method was not found."


# ------------------------------------------------------------------------------- encryption


def _fernet() -> Fernet:
    digest = hashlib.sha256(f"concierge.mfa-secrets:{settings.MFA_ENCRYPTION_KEY}".encode())
    return Fernet(base64.urlsafe_b64encode(digest.digest()))


def secret_encrypt(secret: str) -> str:
    return _fernet().encrypt(secret.encode()).decode()


def secret_decrypt(encrypted: str) -> str:
    try:
        return _fernet().decrypt(encrypted.encode()).decode()
    except InvalidToken:
        return ""  # the key changed: the app must be enrolled again


# ---------------------------------------------------------------------------------- emails


def _kind_label(kind: str) -> str:
    return {
        MfaFactor.Kind.TOTP: "An authenticator app",
        MfaFactor.Kind.PASSKEY: "A passkey",
        mfa_selectors.SMS: "A phone number for text messages",
    }.get(kind, "A sign-in method")


# -------------------------------------------------------------------------- recovery codes


def _recovery_code_new() -> str:
    alphabet = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i
    raw = "".join(secrets.choice(alphabet) for _ in range(10))
    return f"{raw[:5]}-{raw[5:]}"


def _recovery_code_normal(code: str) -> str:
    return "".join(ch for ch in code.lower() if ch.isalnum())


def _recovery_codes_issue(user: User) -> list[str]:
    """Replaces `user`'s recovery codes with 10 new ones, returned once (only hashes kept)."""
    RecoveryCode.objects.filter(user=user).delete()
    codes = [_recovery_code_new() for _ in range(RECOVERY_CODE_COUNT)]
    RecoveryCode.objects.bulk_create(
        RecoveryCode(user=user, code_hash=token_hash(_recovery_code_normal(code))) for code in codes
    )
    return codes


def _first_strong_factor_codes(user: User) -> list[str] | None:
    """Recovery codes, issued at the first enrolment of a non-SMS factor (None afterwards)."""
    if RecoveryCode.objects.filter(user=user).exists():
        return None
    return _recovery_codes_issue(user)


def recovery_codes_regenerate(*, user: User, password: str = "", code: str = "") -> list[str]:
    """Replaces the recovery codes after a fresh check; returns the new ones (shown once)."""
    codes = _recovery_codes_regenerate(user_id=user.pk, password=password, code=code)
    if codes is None:
        # Raised only after the transaction committed, so the failed check is counted.
        raise Unauthorized(FRESH_CHECK_FAILED)
    return codes


@transaction.atomic
def _recovery_codes_regenerate(*, user_id: int, password: str, code: str) -> list[str] | None:
    user = User.objects.select_for_update().get(pk=user_id)
    if not _fresh_check(user, password=password, code=code):
        return None
    if not mfa_selectors.user_has_mfa_factor(user=user):
        raise ValidationFailed("Add an authenticator app or a passkey first.")
    return _recovery_codes_issue(user)


# ---------------------------------------------------------------------- authenticator apps


@dataclass(frozen=True)
class TotpEnrolment:
    factor_id: int
    secret: str
    otpauth_uri: str
    qr_data_uri: str


def totp_enrol_start(*, user: User) -> TotpEnrolment:
    """A new, unconfirmed authenticator app with its secret (shown once, as text and QR)."""
    MfaFactor.objects.filter(
        user=user, kind=MfaFactor.Kind.TOTP, confirmed_at__isnull=True
    ).delete()
    secret = pyotp.random_base32()
    factor = MfaFactor.objects.create(
        user=user,
        kind=MfaFactor.Kind.TOTP,
        name="Authenticator app",
        totp_secret_encrypted=secret_encrypt(secret),
    )
    uri = pyotp.TOTP(secret, digits=TOTP_DIGITS, interval=TOTP_PERIOD).provisioning_uri(
        name=user.email, issuer_name=settings.PRODUCT_NAME
    )
    qr = segno.make(uri, error="m").svg_data_uri(scale=4, border=2, dark="#1f2937")
    return TotpEnrolment(factor_id=factor.pk, secret=secret, otpauth_uri=uri, qr_data_uri=qr)


def _default_name(label: str, user: User, kind: str) -> str:
    """'Passkey', then 'Passkey 2', ...: the Account page tells a user's factors apart."""
    count = MfaFactor.objects.filter(user=user, kind=kind, confirmed_at__isnull=False).count()
    return f"{label} {count + 1}" if count else label


def _totp_step_matching(factor: MfaFactor, code: str, *, at: float | None = None) -> int | None:
    """The time step whose code `code` is (within the allowed drift), if not used yet."""
    secret = secret_decrypt(factor.totp_secret_encrypted)
    if not secret:
        return None
    totp = pyotp.TOTP(secret, digits=TOTP_DIGITS, interval=TOTP_PERIOD)
    now_step = int((time.time() if at is None else at) // TOTP_PERIOD)
    for step in range(now_step - TOTP_DRIFT_STEPS, now_step + TOTP_DRIFT_STEPS + 1):
        candidate = totp.at(step * TOTP_PERIOD)
        if hashes_equal(candidate, code) and step > factor.totp_last_step:
            return step
    return None


def _totp_use(factor: MfaFactor, code: str) -> bool:
    """Checks `code` (single use: its step and the ones before it are spent)."""
    step = _totp_step_matching(factor, code)
    if step is None:
        return False
    factor.totp_last_step = step
    factor.last_used_at = timezone.now()
    factor.save(update_fields=["totp_last_step", "last_used_at"])
    return True


@transaction.atomic
def totp_enrol_confirm(
    *, user: User, factor_id: int, code: str, name: str = ""
) -> list[str] | None:
    """Confirms the app with its first code; returns the recovery codes when they are new."""
    user = User.objects.select_for_update().get(pk=user.pk)
    factor = MfaFactor.objects.filter(
        pk=factor_id, user=user, kind=MfaFactor.Kind.TOTP, confirmed_at__isnull=True
    ).first()
    if factor is None or factor.created_at < timezone.now() - timedelta(hours=1):
        raise ValidationFailed.for_field("code", ENROLMENT_EXPIRED)
    if not _totp_use(factor, code):
        raise ValidationFailed.for_field("code", INVALID_TOTP)
    factor.confirmed_at = timezone.now()
    factor.name = name.strip() or _default_name("Authenticator app", user, MfaFactor.Kind.TOTP)
    factor.save(update_fields=["confirmed_at", "name"])
    services.factor_change_email(user=user, added=True, label=_kind_label(factor.kind))
    return _first_strong_factor_codes(user)


# -------------------------------------------------------------------------- the MFA step


@dataclass(frozen=True)
class _Outcome:
    mfa_token: str = ""
    error: str = ""
    status_code: int = 401


def _code_attempt(*, auth_token: AuthToken, check: Callable[[User], bool], wrong: str) -> str:
    """Runs `check` for this session's MFA step. Wrong codes count per session (5 void it: the
    password is needed again) and, with wrong SMS codes, per account and hour."""
    outcome = _code_attempt_locked(auth_token_id=auth_token.pk, check=check, wrong=wrong)
    if outcome.error:
        # Raised only after the transaction committed, so wrong tries are counted.
        raise ApiError(outcome.error, status_code=outcome.status_code)
    return outcome.mfa_token


@transaction.atomic
def _code_attempt_locked(
    *, auth_token_id: int, check: Callable[[User], bool], wrong: str
) -> _Outcome:
    auth_token = AuthToken.objects.select_related("user").get(pk=auth_token_id)
    user = User.objects.select_for_update().get(pk=auth_token.user_id)
    if auth_token.revoked_at is not None:
        return _Outcome(error=SESSION_VOIDED, status_code=429)
    if services.mfa_failures_last_hour(user) >= settings.OTP_MAX_ATTEMPTS_PER_HOUR:
        return _Outcome(error=services.TOO_MANY_OTP_ATTEMPTS, status_code=429)
    if not check(user):
        auth_token.mfa_failed_attempts += 1
        fields = ["mfa_failed_attempts"]
        if auth_token.mfa_failed_attempts >= settings.OTP_MAX_ATTEMPTS:
            auth_token.revoked_at = timezone.now()
            fields.append("revoked_at")
        auth_token.save(update_fields=fields)
        if auth_token.revoked_at is not None:
            return _Outcome(error=SESSION_VOIDED, status_code=429)
        return _Outcome(error=wrong)
    return _Outcome(mfa_token=services.auth_token_mfa_verified(auth_token=auth_token))


def mfa_totp_verify(*, auth_token: AuthToken, code: str) -> str:
    """The MFA step with an authenticator app's code; returns the session's MFA token."""

    def check(user: User) -> bool:
        factors = MfaFactor.objects.select_for_update().filter(
            user=user, kind=MfaFactor.Kind.TOTP, confirmed_at__isnull=False
        )
        return any(_totp_use(factor, code) for factor in factors)

    if not MfaFactor.objects.filter(
        user_id=auth_token.user_id, kind=MfaFactor.Kind.TOTP, confirmed_at__isnull=False
    ).exists():
        raise ValidationFailed.for_field("method", NO_TOTP)
    return _code_attempt(auth_token=auth_token, check=check, wrong=INVALID_TOTP)


def _recovery_code_use(user: User, code: str) -> bool:
    normal = _recovery_code_normal(code)
    if not normal:
        return False
    found = (
        RecoveryCode.objects.select_for_update()
        .filter(user=user, code_hash=token_hash(normal), used_at__isnull=True)
        .first()
    )
    if found is None:
        return False
    found.used_at = timezone.now()
    found.save(update_fields=["used_at"])
    return True


def mfa_recovery_verify(*, auth_token: AuthToken, code: str) -> str:
    """The MFA step with a recovery code (each works once); returns the session's MFA token."""
    return _code_attempt(
        auth_token=auth_token,
        check=lambda user: _recovery_code_use(user, code),
        wrong=INVALID_RECOVERY_CODE,
    )


# --------------------------------------------------------------------------------- passkeys


def _challenge_store(
    challenge: bytes, purpose: str, *, user: User | None = None, auth_token: AuthToken | None = None
) -> None:
    WebAuthnChallenge.objects.filter(expires_at__lt=timezone.now()).delete()
    WebAuthnChallenge.objects.create(
        challenge_hash=token_hash(bytes_to_base64url(challenge)),
        purpose=purpose,
        user=user,
        auth_token=auth_token,
        expires_at=timezone.now() + timedelta(seconds=CHALLENGE_TTL_SECONDS),
    )


def _challenge_take(credential: dict[str, Any], purpose: str) -> WebAuthnChallenge | None:
    """The stored challenge the credential answers (from its clientDataJSON), used up."""
    try:
        client_data = json.loads(base64url_to_bytes(str(credential["response"]["clientDataJSON"])))
        challenge = str(client_data["challenge"])
    except (KeyError, TypeError, ValueError):
        return None
    found = (
        WebAuthnChallenge.objects.select_for_update()
        .filter(
            challenge_hash=token_hash(challenge),
            purpose=purpose,
            used_at__isnull=True,
            expires_at__gt=timezone.now(),
        )
        .first()
    )
    if found is not None:
        found.used_at = timezone.now()
        found.save(update_fields=["used_at"])
    return found


def _challenge_bytes(credential: dict[str, Any]) -> bytes:
    client_data = json.loads(base64url_to_bytes(str(credential["response"]["clientDataJSON"])))
    return base64url_to_bytes(str(client_data["challenge"]))


def _descriptors(factors: list[MfaFactor]) -> list[PublicKeyCredentialDescriptor]:
    descriptors = []
    for factor in factors:
        transports = []
        for name in factor.transports:
            try:
                transports.append(AuthenticatorTransport(name))
            except ValueError:
                continue
        descriptors.append(
            PublicKeyCredentialDescriptor(
                id=base64url_to_bytes(factor.credential_id), transports=transports or None
            )
        )
    return descriptors


def _passkeys(user: User) -> list[MfaFactor]:
    return list(
        MfaFactor.objects.filter(user=user, kind=MfaFactor.Kind.PASSKEY, confirmed_at__isnull=False)
    )


def passkey_registration_options(*, user: User) -> str:
    """The options for `navigator.credentials.create()` (JSON), its challenge remembered."""
    options = generate_registration_options(
        rp_id=settings.WEBAUTHN_RP_ID,
        rp_name=settings.PRODUCT_NAME,
        user_id=user.external_id.bytes,
        user_name=user.email,
        user_display_name=user.full_name or user.email,
        exclude_credentials=_descriptors(_passkeys(user)),
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.PREFERRED,
            user_verification=UserVerificationRequirement.PREFERRED,
        ),
    )
    _challenge_store(options.challenge, WebAuthnChallenge.Purpose.REGISTER, user=user)
    return options_to_json(options)


@transaction.atomic
def passkey_register(*, user: User, credential: dict[str, Any], name: str = "") -> list[str] | None:
    """Stores the passkey the browser created; returns the recovery codes when they are new."""
    user = User.objects.select_for_update().get(pk=user.pk)
    challenge = _challenge_take(credential, WebAuthnChallenge.Purpose.REGISTER)
    if challenge is None or challenge.user_id != user.pk:
        raise ValidationFailed.for_field("credential", INVALID_PASSKEY)
    try:
        verified = verify_registration_response(
            credential=credential,
            expected_challenge=_challenge_bytes(credential),
            expected_rp_id=settings.WEBAUTHN_RP_ID,
            expected_origin=settings.WEBAUTHN_ORIGIN,
        )
    except (WebAuthnException, KeyError, TypeError, ValueError) as exc:
        raise ValidationFailed.for_field("credential", INVALID_PASSKEY) from exc
    credential_id = bytes_to_base64url(verified.credential_id)
    if MfaFactor.objects.filter(credential_id=credential_id).exists():
        raise ValidationFailed.for_field("credential", "This passkey is already registered.")
    transports = credential.get("response", {}).get("transports") or []
    now = timezone.now()
    MfaFactor.objects.create(
        user=user,
        kind=MfaFactor.Kind.PASSKEY,
        name=name.strip()[:100] or _default_name("Passkey", user, MfaFactor.Kind.PASSKEY),
        confirmed_at=now,
        credential_id=credential_id,
        public_key=verified.credential_public_key,
        sign_count=verified.sign_count,
        transports=[str(t) for t in transports if isinstance(t, str)][:10],
    )
    services.factor_change_email(user=user, added=True, label=_kind_label(MfaFactor.Kind.PASSKEY))
    return _first_strong_factor_codes(user)


def passkey_mfa_options(*, auth_token: AuthToken) -> str:
    """The options for `navigator.credentials.get()` in the MFA step (this user's passkeys)."""
    passkeys = _passkeys(auth_token.user)
    if not passkeys:
        raise ValidationFailed(NO_PASSKEY)
    options = generate_authentication_options(
        rp_id=settings.WEBAUTHN_RP_ID,
        allow_credentials=_descriptors(passkeys),
        user_verification=UserVerificationRequirement.PREFERRED,
    )
    _challenge_store(
        options.challenge,
        WebAuthnChallenge.Purpose.MFA,
        user=auth_token.user,
        auth_token=auth_token,
    )
    return options_to_json(options)


def _passkey_check(
    credential: dict[str, Any], challenge: WebAuthnChallenge | None, *, user_verified: bool
) -> MfaFactor | None:
    """The passkey that signed the challenge, its counter and last use updated; else None."""
    if challenge is None:
        return None
    credential_id = credential.get("rawId") or credential.get("id")
    if not isinstance(credential_id, str) or not credential_id:
        return None
    factor = (
        MfaFactor.objects.select_for_update()
        .select_related("user")
        .filter(
            kind=MfaFactor.Kind.PASSKEY,
            credential_id=credential_id,
            confirmed_at__isnull=False,
            user__is_active=True,
        )
        .first()
    )
    if factor is None or (challenge.user_id is not None and factor.user_id != challenge.user_id):
        return None
    try:
        verified = verify_authentication_response(
            credential=credential,
            expected_challenge=_challenge_bytes(credential),
            expected_rp_id=settings.WEBAUTHN_RP_ID,
            expected_origin=settings.WEBAUTHN_ORIGIN,
            credential_public_key=bytes(factor.public_key),
            credential_current_sign_count=factor.sign_count,
            require_user_verification=user_verified,
        )
    except (WebAuthnException, KeyError, TypeError, ValueError):
        return None
    factor.sign_count = verified.new_sign_count
    factor.last_used_at = timezone.now()
    factor.save(update_fields=["sign_count", "last_used_at"])
    return factor


def mfa_passkey_verify(*, auth_token: AuthToken, credential: dict[str, Any]) -> str:
    """The MFA step with a passkey; returns the session's MFA token."""

    def check(user: User) -> bool:
        challenge = _challenge_take(credential, WebAuthnChallenge.Purpose.MFA)
        if challenge is not None and challenge.auth_token_id != auth_token.pk:
            return False
        return _passkey_check(credential, challenge, user_verified=False) is not None

    return _code_attempt(auth_token=auth_token, check=check, wrong=INVALID_PASSKEY)


def passkey_sign_in_options() -> str:
    """Options for signing in with a passkey alone (the browser offers the user's passkeys)."""
    options = generate_authentication_options(
        rp_id=settings.WEBAUTHN_RP_ID,
        user_verification=UserVerificationRequirement.REQUIRED,
    )
    _challenge_store(options.challenge, WebAuthnChallenge.Purpose.SIGN_IN)
    return options_to_json(options)


@dataclass(frozen=True)
class PasskeySignIn:
    token: str
    mfa_token: str
    auth_token: AuthToken


def passkey_sign_in(*, credential: dict[str, Any]) -> PasskeySignIn:
    """Signs in with a passkey alone: something the user has, unlocked by something they know
    or are (user verification), so the session is MFA-verified at once."""
    with transaction.atomic():
        challenge = _challenge_take(credential, WebAuthnChallenge.Purpose.SIGN_IN)
        factor = _passkey_check(credential, challenge, user_verified=True)
        if factor is not None:
            user = User.objects.select_for_update().get(pk=factor.user_id)
            services.lock_lift_if_expired(user)
            if user.locked_at is None:
                user.last_login = timezone.now()
                user.save(update_fields=["last_login"])
                raw, auth_token = services.auth_token_create(user)
                mfa_token = services.auth_token_mfa_verified(auth_token=auth_token)
                return PasskeySignIn(token=raw, mfa_token=mfa_token, auth_token=auth_token)
    raise ValidationFailed(INVALID_PASSKEY)


# ---------------------------------------------------------------------- listing and removal


def _fresh_check(user: User, *, password: str, code: str) -> bool:
    """A fresh proof for a sensitive change: the password, or a current authenticator-app code
    or an unused recovery code. A wrong one counts as a failed sign-in (the lockout's count),
    so a session cannot be used to guess the password."""
    code = code.strip()
    if not password and not code:
        raise ValidationFailed.for_field("password", FRESH_CHECK_REQUIRED)
    services.lock_lift_if_expired(user)
    if user.locked_at:
        # As at sign-in: while locked no proof is checked, and every attempt still counts.
        services.sign_in_failure_count(user)
        return False
    if password:
        ok = user.check_password(password)
    else:
        factors = MfaFactor.objects.select_for_update().filter(
            user=user, kind=MfaFactor.Kind.TOTP, confirmed_at__isnull=False
        )
        ok = (code.isdigit() and any(_totp_use(factor, code) for factor in factors)) or (
            _recovery_code_use(user, code)
        )
    if not ok:
        services.sign_in_failure_count(user)
    return ok


def factor_remove(*, user: User, factor_id: str, password: str = "", code: str = "") -> None:
    """Removes one of `user`'s factors after a fresh check; a company that requires MFA keeps
    at least one."""
    if not _factor_remove(user_id=user.pk, factor_id=factor_id, password=password, code=code):
        # Raised only after the transaction committed, so the failed check is counted.
        raise Unauthorized(FRESH_CHECK_FAILED)


@transaction.atomic
def _factor_remove(*, user_id: int, factor_id: str, password: str, code: str) -> bool:
    user = User.objects.select_for_update().get(pk=user_id)
    if factor_id == mfa_selectors.SMS:
        if not user.mfa_phone:
            raise NotFound(FACTOR_NOT_FOUND)
        factor = None
        kind = mfa_selectors.SMS
    else:
        factor = (
            MfaFactor.objects.filter(
                pk=int(factor_id), user=user, confirmed_at__isnull=False
            ).first()
            if factor_id.isascii() and factor_id.isdigit() and len(factor_id) < 12
            else None
        )
        if factor is None:
            raise NotFound(FACTOR_NOT_FOUND)
        kind = factor.kind
    if not _fresh_check(user, password=password, code=code):
        return False
    company_rule = any(company.requires_mfa for company in user.companies.all())
    if company_rule and mfa_selectors.user_factor_count(user=user) <= 1:
        raise ValidationFailed(LAST_FACTOR_REQUIRED)
    if factor is None:
        user.mfa_phone = ""
        user.save(update_fields=["mfa_phone"])
    else:
        factor.delete()
    if not mfa_selectors.user_has_mfa_factor(user=user):
        # Recovery codes stand in for an app or a passkey: they go with the last of them.
        RecoveryCode.objects.filter(user=user).delete()
    services.factor_change_email(user=user, added=False, label=_kind_label(kind))
    return True
