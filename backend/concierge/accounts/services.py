"""Account writes: sign-up, sign-in, lockout, password reset, MFA and onboarding."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.hashers import check_password, make_password
from django.contrib.auth.password_validation import validate_password
from django.core import signing
from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.db.models import F, Sum
from django.utils import timezone

from concierge.accounts import onboarding
from concierge.accounts.account_emails import account_email_reserve
from concierge.accounts.mfa_selectors import user_has_mfa_factor
from concierge.accounts.models import (
    AccountEmail,
    AuthToken,
    Company,
    CompanyInvite,
    OnboardingAnswer,
    OneTimeCode,
    PasswordResetToken,
    User,
)
from concierge.accounts.onboarding import Answer
from concierge.accounts.selectors import user_mfa_required
from concierge.accounts.tasks import password_reset_email
from concierge.common import formatting
from concierge.common.errors import ApiError, Unauthorized, ValidationFailed
from concierge.common.tokens import digits_new, hashes_equal, token_hash, token_new
from concierge.notifications.background import enqueue_on_commit
from concierge.notifications.services import email_enqueue, sms_enqueue

INVALID_CREDENTIALS = "Invalid email or password."
ACCOUNT_LOCKED = (
    "Your account is locked after too many failed sign-in attempts. "
    "We've emailed you a link to unlock it, or try again in an hour."
)
INVALID_RESET_TOKEN = (
    "This password reset link is invalid or has expired. Please request a new one."
)
INVALID_UNLOCK_TOKEN = "Invalid unlock token."
INVALID_OTP = "That verification code is invalid or has expired. Please request a new code."
TOO_MANY_OTP_ATTEMPTS = "Too many incorrect verification codes. Please try again in an hour."
NO_PENDING_OTP = "There is no verification code waiting. Please request a new code."
UNKNOWN_COMPANY = "We couldn't find that company. Please check the sign-up link from your employer."
INVALID_INVITE = (
    "This invite link is invalid, used up or expired. Please ask your employer for a new one."
)
INVALID_EMAIL_VERIFICATION = (
    "This confirmation link is invalid, already used or expired. "
    "Sign in to send yourself a new one."
)
EMAIL_ALREADY_VERIFIED = "Your email address is already confirmed."
_EMAIL_VERIFICATION_SALT = "concierge.accounts.email-verification"
# A precomputed hash so that an unknown email costs as much time as a wrong password.
_DUMMY_PASSWORD_HASH = make_password("not-a-real-password")


@dataclass(frozen=True)
class SignInResult:
    token: str
    auth_token: AuthToken
    mfa_required: bool
    mfa_requires_verification: bool


def _link(path: str) -> str:
    return f"{settings.PUBLIC_URL}{path}"


def _password_errors(password: str, user: User | None = None) -> list[str]:
    try:
        validate_password(password, user=user)
    except DjangoValidationError as exc:
        return list(exc.messages)
    return []


def user_sign_up(
    *,
    email: str,
    password: str,
    first_name: str,
    last_name: str,
    company_slug: str,
    invite: str = "",
) -> str:
    """Creates the account under the company's join policy and returns its email. An email
    that already has an account gets the same answer (so sign-up tells no one which accounts
    exist) and its owner an email."""
    company = Company.objects.filter(slug=company_slug.strip().lower()).first()
    if company is None:
        raise ValidationFailed.for_field("company_slug", UNKNOWN_COMPANY)
    email = email.strip().lower()
    _email_domain_check(company, email)
    candidate = User(email=email, first_name=first_name.strip(), last_name=last_name.strip())
    if errors := _password_errors(password, candidate):
        raise ValidationFailed(errors[0], errors={"password": errors})
    invite_hash = _invite_hash(company, invite)
    if not _user_create(candidate, password=password, company=company, invite_hash=invite_hash):
        _email_taken_notify(email)
    return email


def _email_domain_check(company: Company, email: str) -> None:
    if not company.requires_verified_email:
        return
    domains = company.email_domains
    if email.rpartition("@")[2] not in domains:
        listed = ", ".join(f"@{d}" for d in domains) or "your company's domain"
        raise ValidationFailed.for_field(
            "email",
            f"{company.name} accounts need a work email address ({listed}). "
            "Please sign up with your work email.",
        )


def _invite_hash(company: Company, invite: str) -> str | None:
    """The hash of the invite token a sign-up needs, or None when the company needs none."""
    if company.join_policy != Company.JoinPolicy.INVITE:
        return None
    if not invite.strip():
        raise ValidationFailed.for_field(
            "invite", f"Joining {company.name} needs the invite link from your employer."
        )
    return token_hash(invite.strip())


def _invite_use(company: Company, invite_hash: str) -> None:
    """Counts one use of the company's invite (locked), or refuses the sign-up."""
    invite = (
        CompanyInvite.objects.select_for_update()
        .filter(company=company, token_hash=invite_hash)
        .first()
    )
    if invite is None or not invite.is_usable:
        raise ValidationFailed.for_field("invite", INVALID_INVITE)
    invite.use_count = F("use_count") + 1
    invite.save(update_fields=["use_count"])


@transaction.atomic
def _user_create(
    candidate: User, *, password: str, company: Company, invite_hash: str | None
) -> bool:
    """False when the email already has an account (in any letter case). An invite is used
    up either way, so a second try with it tells nothing about the first email either."""
    if invite_hash is not None:
        _invite_use(company, invite_hash)
    if User.objects.filter(email__iexact=candidate.email).exists():
        check_password(password, _DUMMY_PASSWORD_HASH)  # as long as hashing a new password
        return False
    try:
        with transaction.atomic():
            user = User.objects.create_user(
                email=candidate.email,
                password=password,
                first_name=candidate.first_name,
                last_name=candidate.last_name,
            )
    except IntegrityError:
        return False
    user.companies.add(company)
    if company.requires_verified_email:
        email_verification_send(user=user)
    return True


def email_verification_token(*, user: User) -> str:
    """A signed link token for `user`'s current address. It expires by its timestamp and works
    once: verifying makes every token of the account stale."""
    return signing.dumps(
        {"user": str(user.external_id), "email": user.email},
        salt=_EMAIL_VERIFICATION_SALT,
    )


def email_verification_send(*, user: User) -> None:
    """Emails the confirmation link (queued, sent once the transaction commits), unless the
    account's hourly cap of them is reached."""
    if user.email_verified_at is not None:
        raise ApiError(EMAIL_ALREADY_VERIFIED, status_code=422)
    if account_email_reserve(user=user, kind=AccountEmail.Kind.EMAIL_VERIFICATION) is None:
        return
    link = _link(f"/verify-email/{email_verification_token(user=user)}")
    days = settings.EMAIL_VERIFICATION_TTL_SECONDS // 86400
    email_enqueue(
        to=user.email,
        subject="Confirm your email address",
        body=(
            f"Hello {user.first_name},\n\n"
            "Please confirm your email address to see your company's benefits:\n"
            f"{link}\n\n"
            f"The link works once and expires in {days} days. "
            "If you didn't create an account, you can ignore this email."
        ),
    )


def _email_verification_claims(token: str) -> dict[str, str] | None:
    try:
        claims = signing.loads(
            token, salt=_EMAIL_VERIFICATION_SALT, max_age=settings.EMAIL_VERIFICATION_TTL_SECONDS
        )
    except signing.BadSignature:  # also SignatureExpired
        return None
    if not isinstance(claims, dict) or not all(
        isinstance(claims.get(k), str) for k in ("user", "email")
    ):
        return None
    return claims


@transaction.atomic
def email_verify(*, token: str) -> User:
    """Marks the address verified by a link from `email_verification_send`."""
    claims = _email_verification_claims(token)
    user = None
    if claims is not None:
        try:
            user = (
                User.objects.select_for_update()
                .filter(external_id=claims["user"], email=claims["email"], is_active=True)
                .first()
            )
        except DjangoValidationError:  # not a UUID
            user = None
    if user is None or user.email_verified_at is not None:
        raise ValidationFailed.for_field("token", INVALID_EMAIL_VERIFICATION)
    user.email_verified_at = timezone.now()
    user.save(update_fields=["email_verified_at"])
    return user


def _email_taken_notify(email: str) -> None:
    owner = User.objects.filter(email__iexact=email).first()
    if owner is None:
        return
    if account_email_reserve(user=owner, kind=AccountEmail.Kind.SIGN_UP_NOTICE) is None:
        return
    email_enqueue(
        to=owner.email,
        subject="Someone tried to sign up with your email",
        body=(
            f"Hello {owner.first_name},\n\n"
            "Someone tried to create an account with this email address, which already has "
            "one. If it was you, sign in here: "
            f"{_link('/sign-in')}\n"
            f"Forgot your password? Choose a new one here: {_link('/forgot-password')}\n\n"
            "If it wasn't you, you can ignore this email: your account has not changed."
        ),
    )


def sign_up_response_data(email: str) -> str:
    """The spec's sign-up `data` field: a JSON string that carries the email."""
    return json.dumps({"email": email})


def lock_lift_if_expired(user: User) -> None:
    if user.locked_at and timezone.now() - user.locked_at >= timedelta(
        seconds=settings.LOCKOUT_SECONDS
    ):
        user.locked_at = None
        user.failed_sign_in_count = 0
        user.unlock_token_hash = ""
        user.save(update_fields=["locked_at", "failed_sign_in_count", "unlock_token_hash"])


def sign_in_failure_count(user: User) -> None:
    """One more failed sign-in (or fresh check) for `user`, locked by the caller; the 10th
    locks the account and emails an unlock link (once per lock, within the hourly cap).
    Attempts during the lock keep counting."""
    user.failed_sign_in_count += 1
    fields = ["failed_sign_in_count"]
    if user.failed_sign_in_count >= settings.LOCKOUT_MAX_ATTEMPTS and not user.locked_at:
        raw, hashed = token_new()
        user.locked_at = timezone.now()
        user.unlock_token_hash = hashed
        fields += ["locked_at", "unlock_token_hash"]
        if account_email_reserve(user=user, kind=AccountEmail.Kind.UNLOCK) is not None:
            _unlock_email(user, raw)
    user.save(update_fields=fields)


def _unlock_email(user: User, raw_token: str) -> None:
    email_enqueue(
        to=user.email,
        subject="Unlock your account",
        body=(
            f"Hello {user.first_name},\n\n"
            "Your account was locked after too many failed sign-in attempts.\n"
            f"Unlock it here: {_link(f'/unlock/{raw_token}')}\n\n"
            "It also unlocks by itself after one hour. "
            "If this wasn't you, reset your password after unlocking."
        ),
    )


def auth_token_create(user: User) -> tuple[str, AuthToken]:
    raw, hashed = token_new()
    auth_token = AuthToken.objects.create(
        user=user,
        key_hash=hashed,
        expires_at=timezone.now() + timedelta(seconds=settings.AUTH_TOKEN_TTL_SECONDS),
    )
    return raw, auth_token


def user_sign_in(*, email: str, password: str) -> SignInResult:
    outcome = _sign_in_attempt(email=email, password=password)
    if isinstance(outcome, str):
        # Raised only after the transaction committed, so failed attempts and locks are kept.
        raise Unauthorized(outcome)
    return outcome


def user_credentials_check(*, email: str, password: str) -> User:
    """Email and password through the lockout rules of the API's sign-in (for the admin's)."""
    outcome = _credentials_attempt(email=email, password=password)
    if isinstance(outcome, str):
        # Raised only after the transaction committed, so failed attempts and locks are kept.
        raise Unauthorized(outcome)
    return outcome


@transaction.atomic
def _credentials_attempt(*, email: str, password: str) -> User | str:
    """The user, or the error message of a refused attempt (its counting is saved). Known,
    unknown and locked accounts all cost one password hash, so timing tells nothing."""
    user = User.objects.select_for_update().filter(email__iexact=email.strip()).first()
    if user is None or not user.is_active:
        check_password(password, _DUMMY_PASSWORD_HASH)
        return INVALID_CREDENTIALS
    lock_lift_if_expired(user)
    if user.locked_at:
        # While locked the password is never checked: every attempt, right or wrong, costs
        # the same hash, counts the same and gets the same answer, so none confirms a guess.
        check_password(password, _DUMMY_PASSWORD_HASH)
        sign_in_failure_count(user)
        return ACCOUNT_LOCKED
    password_ok = user.check_password(password)
    if not password_ok:
        sign_in_failure_count(user)
        return INVALID_CREDENTIALS
    if user.failed_sign_in_count:
        user.failed_sign_in_count = 0
        user.save(update_fields=["failed_sign_in_count"])
    return user


@transaction.atomic
def _sign_in_attempt(*, email: str, password: str) -> SignInResult | str:
    """A SignInResult, or the error message of a refused attempt (its counting is saved)."""
    user = _credentials_attempt(email=email, password=password)
    if isinstance(user, str):
        return user
    user.last_login = timezone.now()
    user.save(update_fields=["last_login"])
    raw, auth_token = auth_token_create(user)
    has_factor = user_has_mfa_factor(user=user)
    mfa_required = bool(user.mfa_phone) or has_factor
    mfa_requires_verification = not mfa_required and user_mfa_required(user=user)
    if user.mfa_phone and not has_factor:
        # With a stronger factor enrolled, a text is sent only when asked for ("send-otp").
        _otp_issue(user=user, purpose=OneTimeCode.Purpose.SIGN_IN, phone=user.mfa_phone)
    return SignInResult(
        token=raw,
        auth_token=auth_token,
        mfa_required=mfa_required,
        mfa_requires_verification=mfa_requires_verification,
    )


def auth_token_revoke(*, auth_token: AuthToken) -> None:
    auth_token.revoked_at = timezone.now()
    auth_token.save(update_fields=["revoked_at"])


def password_reset_request(*, email: str) -> None:
    """Queues the reset email. The request does the same work whether the email is known or
    not (the lookup happens in the task), so neither its answer nor its time tells them apart."""
    enqueue_on_commit(password_reset_email, email=email.strip())


@transaction.atomic
def password_reset_complete(*, token: str, password: str, password_confirmation: str) -> User:
    reset = (
        PasswordResetToken.objects.select_for_update()
        .select_related("user")
        .filter(token_hash=token_hash(token), used_at__isnull=True, expires_at__gt=timezone.now())
        .first()
    )
    if reset is None:
        raise ValidationFailed.for_field("reset_password_token", INVALID_RESET_TOKEN)
    if password != password_confirmation:
        raise ValidationFailed.for_field("password_confirmation", "Passwords do not match")
    user = reset.user
    if errors := _password_errors(password, user):
        raise ValidationFailed(errors[0], errors={"password": errors})
    user.set_password(password)
    user.locked_at = None
    user.failed_sign_in_count = 0
    user.unlock_token_hash = ""
    user.save()
    reset.used_at = timezone.now()
    reset.save(update_fields=["used_at"])
    user_sessions_revoke(user=user)
    # Links sent before this one die with it.
    user.password_resets.filter(used_at__isnull=True).update(used_at=reset.used_at)
    return user


def user_sessions_revoke(*, user: User) -> None:
    """Signs every session of `user` out, from their very next request."""
    user.auth_tokens.filter(revoked_at__isnull=True).update(revoked_at=timezone.now())


@transaction.atomic
def user_unlock(*, token: str) -> User:
    if not token:
        raise ValidationFailed.for_field("unlock_token", INVALID_UNLOCK_TOKEN)
    # The link lives as long as the lock it was sent for.
    lock_start = timezone.now() - timedelta(seconds=settings.LOCKOUT_SECONDS)
    user = (
        User.objects.select_for_update()
        .filter(unlock_token_hash=token_hash(token), locked_at__gt=lock_start)
        .first()
    )
    if user is None:
        raise ValidationFailed.for_field("unlock_token", INVALID_UNLOCK_TOKEN)
    user.locked_at = None
    user.failed_sign_in_count = 0
    user.unlock_token_hash = ""
    user.save(update_fields=["locked_at", "failed_sign_in_count", "unlock_token_hash"])
    return user


def _otp_issue(*, user: User, purpose: str, phone: str) -> OneTimeCode:
    code = digits_new(6)
    otp = OneTimeCode.objects.create(
        user=user,
        purpose=purpose,
        phone=phone,
        code_hash=token_hash(code),
        expires_at=timezone.now() + timedelta(seconds=settings.OTP_TTL_SECONDS),
    )
    sms_enqueue(
        to=phone,
        body=f"{code} is your {settings.PRODUCT_NAME} verification code. It expires in 10 minutes.",
    )
    return otp


def _otp_pending(user: User) -> OneTimeCode | None:
    return (
        OneTimeCode.objects.filter(user=user, used_at__isnull=True)
        .order_by("-created_at", "-id")
        .first()
    )


def otp_resend(*, user: User) -> None:
    """Sends a fresh code to the enrolled phone, or to the phone being enrolled."""
    if user.mfa_phone:
        _otp_issue(user=user, purpose=OneTimeCode.Purpose.SIGN_IN, phone=user.mfa_phone)
        return
    pending = _otp_pending(user)
    if pending is None or pending.purpose != OneTimeCode.Purpose.ENROLL:
        raise ApiError("Please enter your phone number first.", status_code=422)
    _otp_issue(user=user, purpose=OneTimeCode.Purpose.ENROLL, phone=pending.phone)


def mfa_enroll(*, user: User, phone_digits: str) -> None:
    _otp_issue(user=user, purpose=OneTimeCode.Purpose.ENROLL, phone=f"+1{phone_digits}")


def mfa_verify(*, auth_token: AuthToken, code: str) -> str:
    """Checks the latest code; on success marks this session verified and returns its MFA token."""
    outcome = _mfa_verify_attempt(auth_token=auth_token, code=code)
    if outcome.error == TOO_MANY_OTP_ATTEMPTS:
        raise ApiError(outcome.error, status_code=429)
    if outcome.error:
        # Raised only after the transaction committed, so wrong tries are counted.
        raise Unauthorized(outcome.error)
    return outcome.mfa_token


@dataclass(frozen=True)
class _MfaOutcome:
    mfa_token: str = ""
    error: str = ""


def mfa_failures_last_hour(user: User) -> int:
    """Wrong second-factor codes of `user` in the last hour: SMS codes and the other factors'
    (counted per session)."""
    since = timezone.now() - timedelta(hours=1)
    recent = OneTimeCode.objects.filter(user=user, created_at__gte=since)
    sms = recent.aggregate(total=Sum("failed_attempts"))["total"] or 0
    sessions = AuthToken.objects.filter(user=user, created_at__gte=since, mfa_failed_attempts__gt=0)
    return sms + (sessions.aggregate(total=Sum("mfa_failed_attempts"))["total"] or 0)


def _otp_check(user: User, code: str) -> str:
    """Checks `code` against the user's latest code (locked by the caller) and uses it up;
    returns an error message, or "" when it matched. Wrong tries count per code and, across
    resends, per account and hour."""
    otp = _otp_pending(user)
    if otp is None:
        return NO_PENDING_OTP
    if mfa_failures_last_hour(user) >= settings.OTP_MAX_ATTEMPTS_PER_HOUR:
        return TOO_MANY_OTP_ATTEMPTS
    if otp.expires_at <= timezone.now() or otp.failed_attempts >= settings.OTP_MAX_ATTEMPTS:
        return INVALID_OTP
    if not hashes_equal(otp.code_hash, token_hash(code)):
        otp.failed_attempts += 1
        otp.save(update_fields=["failed_attempts"])
        return INVALID_OTP
    otp.used_at = timezone.now()
    otp.save(update_fields=["used_at"])
    if otp.purpose == OneTimeCode.Purpose.ENROLL:
        user.mfa_phone = otp.phone
        user.save(update_fields=["mfa_phone"])
        factor_change_email(user=user, added=True, label="A phone number for text messages")
    return ""


def factor_change_email(*, user: User, added: bool, label: str) -> None:
    """Tells the account's owner that a sign-in method was added or removed (sent on commit)."""
    what = "added to" if added else "removed from"
    email_enqueue(
        to=user.email,
        subject=f"A sign-in method was {'added' if added else 'removed'}",
        body=(
            f"Hello {user.first_name},\n\n"
            f"{label} was {what} your account's two-step verification.\n"
            f"Review your sign-in methods here: {_link('/account')}\n\n"
            "If this wasn't you, reset your password now and contact support."
        ),
    )


@transaction.atomic
def _mfa_verify_attempt(*, auth_token: AuthToken, code: str) -> _MfaOutcome:
    user = User.objects.select_for_update().get(pk=auth_token.user_id)
    if error := _otp_check(user, code):
        return _MfaOutcome(error=error)
    return _MfaOutcome(mfa_token=auth_token_mfa_verified(auth_token=auth_token))


def auth_token_mfa_verified(*, auth_token: AuthToken) -> str:
    """Marks the session's MFA step as passed; returns its MFA token (the `mfa-token` header)."""
    raw, hashed = token_new()
    auth_token.mfa_token_hash = hashed
    auth_token.save(update_fields=["mfa_token_hash"])
    return raw


def _onboarding_errors(values: dict[int, Any]) -> dict[str, list[str]]:
    errors: dict[str, list[str]] = {}
    for answer_id in onboarding.YES_NO:
        if values.get(answer_id) is not None and not isinstance(values[answer_id], bool):
            errors[str(answer_id)] = ["Please answer yes or no"]
    phone = values.get(Answer.PHONE)
    if phone and not (
        isinstance(phone, str) and len(formatting.phone_digits(phone)) == formatting.PHONE_DIGITS
    ):
        errors[str(Answer.PHONE)] = ["Please enter a valid phone number"]
    email = values.get(Answer.PREFERRED_EMAIL)
    if email:
        try:
            if not isinstance(email, str):
                raise DjangoValidationError("not a string")
            validate_email(email)
        except DjangoValidationError:
            errors[str(Answer.PREFERRED_EMAIL)] = ["Please enter a valid email address"]
    address = values.get(Answer.ADDRESS)
    if address is not None and not isinstance(address, str):
        errors[str(Answer.ADDRESS)] = ["Please enter your address as text"]
    if any(_filled(values.get(answer_id)) for answer_id in onboarding.ADDRESS_PARTS):
        for answer_id, label in onboarding.ADDRESS_REQUIRED.items():
            if not _filled(values.get(answer_id)):
                errors[str(answer_id)] = [f"Please enter your {label}"]
    return errors


def _filled(value: Any) -> bool:
    return value is not None and str(value).strip() != ""


@transaction.atomic
def onboarding_answers_save(*, user: User, answers: list[dict[str, Any]]) -> None:
    """Stores onboarding answers by their spec §3 ids; the address is all-or-nothing."""
    unknown = sorted({a["answer_id"] for a in answers} - onboarding.ALL)
    if unknown:
        raise ValidationFailed.for_field(
            "answers", f"Unknown answer id: {', '.join(map(str, unknown))}"
        )
    values = {a["answer_id"]: a["value"] for a in answers}
    if errors := _onboarding_errors(values):
        raise ValidationFailed(next(iter(errors.values()))[0], errors=errors)
    for answer in answers:
        OnboardingAnswer.objects.update_or_create(
            user=user, answer_id=answer["answer_id"], defaults={"value": answer["value"]}
        )
    if user.onboarded_at is None:
        user.onboarded_at = timezone.now()
        user.save(update_fields=["onboarded_at"])


def user_request_count_add(*, user: User) -> None:
    """One more request for `user`: an F() update, so concurrent creates never lose one."""
    User.objects.filter(pk=user.pk).update(request_count=F("request_count") + 1)
