"""Passkeys (WebAuthn): registering one, passing the MFA step with it, and signing in with a
passkey alone."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

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

from concierge.accounts.models import AuthToken, MfaFactor, User, WebAuthnChallenge
from concierge.accounts.services.lockout import lock_lift_if_expired
from concierge.accounts.services.memberships import sign_in_membership_check
from concierge.accounts.services.mfa.factors import (
    code_attempt,
    default_factor_name,
    factor_change_email,
    kind_label,
)
from concierge.accounts.services.mfa.recovery_codes import first_strong_factor_codes
from concierge.accounts.services.sign_in_checks import own_sign_in_refusal
from concierge.accounts.services.tokens import auth_token_create, auth_token_mfa_verified
from concierge.audit import actions as audit_actions
from concierge.audit.services import audit_record
from concierge.common.errors import Unauthorized, ValidationFailed
from concierge.common.tokens import token_hash

CHALLENGE_TTL_SECONDS = 300

INVALID_PASSKEY = "We couldn't verify that passkey. Please try again."
NO_PASSKEY = "There is no passkey on your account."


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
        name=name.strip()[:100] or default_factor_name("Passkey", user, MfaFactor.Kind.PASSKEY),
        confirmed_at=now,
        credential_id=credential_id,
        public_key=verified.credential_public_key,
        sign_count=verified.sign_count,
        transports=[str(t) for t in transports if isinstance(t, str)][:10],
    )
    factor_change_email(user=user, added=True, label=kind_label(MfaFactor.Kind.PASSKEY))
    return first_strong_factor_codes(user)


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

    return code_attempt(auth_token=auth_token, check=check, wrong=INVALID_PASSKEY)


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
    or are (user verification), so the session is MFA-verified at once. A company whose own
    sign-in is required refuses it as it refuses a password (Unauthorized, after the refusal
    is recorded)."""
    refusal = None
    with transaction.atomic():
        challenge = _challenge_take(credential, WebAuthnChallenge.Purpose.SIGN_IN)
        factor = _passkey_check(credential, challenge, user_verified=True)
        if factor is not None:
            user = User.objects.select_for_update().get(pk=factor.user_id)
            lock_lift_if_expired(user)
            if refusal := own_sign_in_refusal(user):
                audit_record(
                    action=audit_actions.SIGN_IN_FAILED,
                    actor=user,
                    details={"reason": "refused", "method": "passkey"},
                )
            elif user.locked_at is None:
                sign_in_membership_check(user=user)
                user.last_login = timezone.now()
                user.save(update_fields=["last_login"])
                raw, auth_token = auth_token_create(user)
                audit_record(
                    action=audit_actions.SIGN_IN_SUCCEEDED,
                    actor=user,
                    details={"method": "passkey"},
                )
                mfa_token = auth_token_mfa_verified(auth_token=auth_token)
                return PasskeySignIn(token=raw, mfa_token=mfa_token, auth_token=auth_token)
    if refusal:
        raise Unauthorized(refusal)
    raise ValidationFailed(INVALID_PASSKEY)
