"""Identity: signing up under a company's join policy (a work email or an invite), signing in
with email and password, and the counters kept on the user."""

from __future__ import annotations

import json
from dataclasses import dataclass

from django.contrib.auth.hashers import check_password, make_password
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from concierge.accounts.account_emails import account_email_reserve
from concierge.accounts.models import (
    AccountEmail,
    AuthToken,
    Company,
    CompanyInvite,
    EmployeeRecord,
    OneTimeCode,
    User,
)
from concierge.accounts.selectors.companies import UNKNOWN_COMPANY, company_by_sign_up_slug
from concierge.accounts.selectors.mfa import user_has_mfa_factor
from concierge.accounts.selectors.sessions import user_mfa_required
from concierge.accounts.services.email_verification import email_verification_send
from concierge.accounts.services.links import account_link
from concierge.accounts.services.lockout import (
    ACCOUNT_LOCKED,
    lock_lift_if_expired,
    sign_in_failure_count,
)
from concierge.accounts.services.memberships import membership_join, sign_in_membership_check
from concierge.accounts.services.mfa.sms import otp_issue
from concierge.accounts.services.sign_in_checks import own_sign_in_refusal
from concierge.accounts.services.tokens import auth_token_create
from concierge.audit import actions as audit_actions
from concierge.audit.services import audit_record
from concierge.common.errors import ApiError, Unauthorized, ValidationFailed
from concierge.common.tokens import token_hash
from concierge.notifications.services import email_enqueue

INVALID_CREDENTIALS = "Invalid email or password."
INVALID_INVITE = (
    "This invite link is invalid, used up or expired. Please ask your employer for a new one."
)
# A precomputed hash so that an unknown email costs as much time as a wrong password.
_DUMMY_PASSWORD_HASH = make_password("not-a-real-password")


@dataclass(frozen=True)
class SignInResult:
    token: str
    auth_token: AuthToken
    mfa_required: bool
    mfa_requires_verification: bool


def password_errors(password: str, user: User | None = None) -> list[str]:
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
    that already has an account gets the same answer, in the same time (so sign-up tells no
    one which accounts exist), and its owner an email."""
    company = company_by_sign_up_slug(slug=company_slug)
    if company is None:
        raise ValidationFailed.for_field("company_slug", UNKNOWN_COMPANY)
    email = email.strip().lower()
    email_domain_check(company, email)
    roster_check(company, email)
    candidate = User(email=email, first_name=first_name.strip(), last_name=last_name.strip())
    if errors := password_errors(password, candidate):
        raise ValidationFailed(errors[0], errors={"password": errors})
    invite_hash = _invite_hash(company, invite)
    if not _user_create(candidate, password=password, company=company, invite_hash=invite_hash):
        _email_taken_notify(email)
    return email


def email_domain_check(company: Company, email: str) -> None:
    """A company with the work-email policy takes only addresses at its domains."""
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


def roster_check(company: Company, email: str) -> None:
    """A company with the 'roster only' policy takes only people its roster (SCIM or a CSV
    import) lists as active. Admission only: access itself follows the membership row."""
    if company.join_policy != Company.JoinPolicy.ROSTER:
        return
    if not EmployeeRecord.objects.filter(company=company, email=email, active=True).exists():
        raise ValidationFailed.for_field(
            "email",
            f"{company.name} accounts are for people on its staff list. Please sign up with "
            "the work email your employer has on file, or ask your HR team to add you.",
        )


def _invite_hash(company: Company, invite: str) -> str | None:
    """The hash of the sign-up's invite token: one the company needs, or one it was given
    anyway (counted, as the members page shows); None without one."""
    needed = company.join_policy == Company.JoinPolicy.INVITE
    if needed and not invite.strip():
        raise ValidationFailed.for_field(
            "invite", f"Joining {company.name} needs the invite link from your employer."
        )
    return token_hash(invite.strip()) if invite.strip() else None


def _invite_use(company: Company, invite_hash: str) -> None:
    """Counts one use of the company's invite (locked); refuses the sign-up when the company
    needs an invite and this one is unknown, used up or expired (otherwise it changes nothing)."""
    invite = (
        CompanyInvite.objects.select_for_update()
        .filter(company=company, token_hash=invite_hash)
        .first()
    )
    if invite is None or not invite.is_usable:
        if company.join_policy == Company.JoinPolicy.INVITE:
            raise ValidationFailed.for_field("invite", INVALID_INVITE)
        return
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
    membership_join(user=user, company=company, source=EmployeeRecord.Source.SIGN_UP)
    if company.requires_verified_email:
        email_verification_send(user=user)
    return True


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
            f"{account_link('/sign-in')}\n"
            f"Forgot your password? Choose a new one here: {account_link('/forgot-password')}\n\n"
            "If it wasn't you, you can ignore this email: your account has not changed."
        ),
    )


def sign_up_response_data(email: str) -> str:
    """The spec's sign-up `data` field: a JSON string that carries the email."""
    return json.dumps({"email": email})


def user_sign_in(*, email: str, password: str) -> SignInResult:
    outcome = _sign_in_attempt(email=email, password=password)
    if isinstance(outcome, str):
        # Raised only after the transaction committed, so failed attempts and locks are kept.
        raise Unauthorized(outcome)
    if isinstance(outcome, ApiError):
        raise outcome
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
        # Never the address typed: an unknown one may be someone's password typed in the wrong box.
        audit_record(
            action=audit_actions.SIGN_IN_FAILED,
            actor=user,
            details={"reason": "unknown or inactive account"},
        )
        return INVALID_CREDENTIALS
    if refusal := own_sign_in_refusal(user):
        # E.g. the company signs its people in through its own provider ("SSO required"):
        # refused before the password is checked (the same hash's time), so none is confirmed.
        check_password(password, _DUMMY_PASSWORD_HASH)
        audit_record(action=audit_actions.SIGN_IN_FAILED, actor=user, details={"reason": "refused"})
        return refusal
    lock_lift_if_expired(user)
    if user.locked_at:
        # While locked the password is never checked: every attempt, right or wrong, costs
        # the same hash, counts the same and gets the same answer, so none confirms a guess.
        check_password(password, _DUMMY_PASSWORD_HASH)
        sign_in_failure_count(user)
        audit_record(action=audit_actions.SIGN_IN_FAILED, actor=user, details={"reason": "locked"})
        return ACCOUNT_LOCKED
    password_ok = user.check_password(password)
    if not password_ok:
        sign_in_failure_count(user)
        audit_record(
            action=audit_actions.SIGN_IN_FAILED, actor=user, details={"reason": "wrong password"}
        )
        return INVALID_CREDENTIALS
    if user.failed_sign_in_count:
        user.failed_sign_in_count = 0
        user.save(update_fields=["failed_sign_in_count"])
    audit_record(action=audit_actions.SIGN_IN_SUCCEEDED, actor=user, details={"method": "password"})
    return user


@transaction.atomic
def _sign_in_attempt(*, email: str, password: str) -> SignInResult | str | ApiError:
    """A SignInResult, or the error message of a refused attempt (its counting is saved), or
    the refusal of someone whose employer ended their access (right password: no count)."""
    user = _credentials_attempt(email=email, password=password)
    if isinstance(user, str):
        return user
    try:
        sign_in_membership_check(user=user)
    except ApiError as exc:
        return exc
    user.last_login = timezone.now()
    user.save(update_fields=["last_login"])
    raw, auth_token = auth_token_create(user)
    has_factor = user_has_mfa_factor(user=user)
    mfa_required = bool(user.mfa_phone) or has_factor
    mfa_requires_verification = not mfa_required and user_mfa_required(user=user)
    if user.mfa_phone and not has_factor:
        # With a stronger factor enrolled, a text is sent only when asked for ("send-otp").
        otp_issue(user=user, purpose=OneTimeCode.Purpose.SIGN_IN, phone=user.mfa_phone)
    return SignInResult(
        token=raw,
        auth_token=auth_token,
        mfa_required=mfa_required,
        mfa_requires_verification=mfa_requires_verification,
    )


def user_request_count_add(*, user: User) -> None:
    """One more request for `user`: an F() update, so concurrent creates never lose one."""
    User.objects.filter(pk=user.pk).update(request_count=F("request_count") + 1)
