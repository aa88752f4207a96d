"""The employee's own account details, changed from the Account page: their name, their email
address (confirmed by a link sent to the new one, the old one told), and their password (other
sessions signed out). The phone and address are onboarding answers (`services.onboarding`)."""

from __future__ import annotations

from django.conf import settings
from django.core import signing
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from concierge.accounts.account_emails import account_email_reserve
from concierge.accounts.models import AccountEmail, AuthToken, Company, User
from concierge.accounts.selectors.memberships import account_is_only_companys
from concierge.accounts.services.identity import email_domain_check, password_errors
from concierge.accounts.services.links import account_link, signed_claims
from concierge.accounts.services.mfa.fresh_check import FreshCheckFailed, fresh_check_passed
from concierge.accounts.services.tokens import other_sessions_revoke
from concierge.audit import actions as audit_actions
from concierge.audit.services import audit_record
from concierge.common.errors import ValidationFailed
from concierge.common.validation import require_email, require_password, require_text
from concierge.notifications.services import email_enqueue

FIRST_NAME_REQUIRED = "Please enter your first name"
LAST_NAME_REQUIRED = "Please enter your last name"
EMAIL_UNCHANGED = "This is already your email address."
NEW_PASSWORD_REQUIRED = "Please enter a new password"
CONFIRM_PASSWORD_REQUIRED = "Please confirm your new password"
PASSWORDS_DO_NOT_MATCH = "Passwords do not match"
INVALID_EMAIL_CHANGE = (
    "This confirmation link is invalid, already used or expired. "
    "Ask for a new one on your Account page."
)
EMAIL_TAKEN = "This email address is already used by another account."
_EMAIL_CHANGE_SALT = "concierge.accounts.email-change"


# ----------------------------------------------------------------------------- name


@transaction.atomic
def profile_name_update(*, user: User, first_name: str, last_name: str) -> User:
    """Renames the account. Messages already sent keep the name they were sent under."""
    names: dict[str, str] = {}
    errors: dict[str, list[str]] = {}
    for field, value, required in (
        ("first_name", first_name, FIRST_NAME_REQUIRED),
        ("last_name", last_name, LAST_NAME_REQUIRED),
    ):
        try:
            names[field] = require_text(value, required)
        except ValueError as exc:
            errors[field] = [str(exc)]
    if errors:
        raise ValidationFailed(next(iter(errors.values()))[0], errors=errors)
    user.first_name, user.last_name = names["first_name"], names["last_name"]
    user.save(update_fields=["first_name", "last_name"])
    return user


# ----------------------------------------------------------------------------- email


def _new_email_clean(user: User, email: str) -> str:
    try:
        email = require_email(email)
    except ValueError as exc:
        raise ValidationFailed.for_field("email", str(exc)) from None
    if email == user.email.lower():
        raise ValidationFailed.for_field("email", EMAIL_UNCHANGED)
    for company in user.companies.all():
        email_domain_check(company, email)
    return email


def email_change_token(*, user: User, new_email: str) -> str:
    """A signed link token: valid while the account still has the address it was asked from
    and the new address is still the latest one asked for."""
    return signing.dumps(
        {"user": str(user.external_id), "from": user.email, "to": new_email},
        salt=_EMAIL_CHANGE_SALT,
    )


def email_change_request(*, user: User, email: str, password: str = "", code: str = "") -> str:
    """After a fresh check, emails a confirmation link to the new address (queued, sent on
    commit) and returns that address; the account's email changes once it is opened. An
    address another account has gets the same answer (nothing tells which addresses are
    taken): its owner is told instead."""
    new_email = _new_email_clean(user, email)
    if not _email_change_request(
        user_id=user.pk, new_email=new_email, password=password, code=code
    ):
        # Raised only after the transaction committed, so the failed check is counted.
        raise FreshCheckFailed
    return new_email


@transaction.atomic
def _email_change_request(*, user_id: int, new_email: str, password: str, code: str) -> bool:
    user = User.objects.select_for_update().get(pk=user_id)
    if not fresh_check_passed(user, password=password, code=code):
        return False
    user.pending_email = new_email
    user.save(update_fields=["pending_email"])
    if account_email_reserve(user=user, kind=AccountEmail.Kind.EMAIL_CHANGE) is None:
        return True  # the hour's cap: the latest address still counts, nothing is sent
    if User.objects.filter(email__iexact=new_email).exclude(pk=user.pk).exists():
        _email_taken_tell(new_email)
        return True
    link = account_link(f"/change-email/{email_change_token(user=user, new_email=new_email)}")
    days = settings.EMAIL_VERIFICATION_TTL_SECONDS // 86400
    email_enqueue(
        to=new_email,
        subject="Confirm your new email address",
        body=(
            f"Hello {user.first_name},\n\n"
            f"Please confirm that you want to use this address for your {settings.PRODUCT_NAME} "
            f"account instead of {user.email}:\n{link}\n\n"
            f"The link works once and expires in {days} days. If you didn't ask for this, you "
            "can ignore this email: nothing changes until the link is opened."
        ),
    )
    return True


def _email_taken_tell(email: str) -> None:
    email_enqueue(
        to=email,
        subject="Someone asked to use your email address",
        body=(
            "Hello,\n\n"
            f"Someone asked to move another {settings.PRODUCT_NAME} account to this email "
            "address, which already has an account. Nothing has changed.\n"
            f"If it was you, sign in with this address here: {account_link('/sign-in')}"
        ),
    )


def email_change_cancel(*, user: User) -> None:
    """Forgets the address asked for: its link stops working."""
    User.objects.filter(pk=user.pk).update(pending_email="")


@transaction.atomic
def email_change_confirm(*, token: str) -> User:
    """Changes the account's email to the address the link was sent to; the link proves it,
    so the address counts as verified. The old address is told."""
    claims = signed_claims(token, salt=_EMAIL_CHANGE_SALT, keys=("user", "from", "to"))
    user = None
    if claims is not None:
        try:
            user = (
                User.objects.select_for_update()
                .filter(
                    external_id=claims["user"],
                    email=claims["from"],
                    pending_email=claims["to"],
                    is_active=True,
                )
                .first()
            )
        except DjangoValidationError:  # not a UUID
            user = None
    if user is None:
        raise ValidationFailed.for_field("token", INVALID_EMAIL_CHANGE)
    if User.objects.filter(email__iexact=user.pending_email).exclude(pk=user.pk).exists():
        raise ValidationFailed.for_field("token", EMAIL_TAKEN)
    _email_switch(user, user.pending_email)
    return user


def _email_switch(user: User, new_email: str, *, changed_by: str = "") -> None:
    """Moves the locked account to a proven address (forgetting any other one asked for) and
    tells the old address."""
    old_email = user.email
    user.email = new_email
    user.pending_email = ""
    user.email_verified_at = timezone.now()
    user.save(update_fields=["email", "pending_email", "email_verified_at"])
    password_resets_void(user)  # links sent to the old address
    by = f" by {changed_by}" if changed_by else ""
    email_enqueue(
        to=old_email,
        subject="Your email address was changed",
        body=(
            f"Hello {user.first_name},\n\n"
            f"The email address of your {settings.PRODUCT_NAME} account was changed{by} from "
            f"{old_email} to {user.email}. Sign in with the new address from now on.\n\n"
            f"If this wasn't you, contact support now: {settings.SUPPORT_EMAIL}"
        ),
    )


# ----------------------------------------------------------------------------- employer's email

EMPLOYER_EMAIL_SHARED = (
    "{email} is also known to another company or is a staff account, so {company} cannot "
    "change its address; the person can change it on their Account page."
)
EMPLOYER_EMAIL_OUTSIDE = "{email} is not an address of {company} ({domains})."
EMPLOYER_EMAIL_TAKEN = "{email} is already the address of another account."


class EmployerEmailRefused(Exception):
    """Why a company's directory may not move an account to a new address: the address is
    outside the company's domains (OUTSIDE), another account's (TAKEN), or the account is not
    the company's alone (SHARED)."""

    OUTSIDE, TAKEN, SHARED = "outside", "taken", "shared"

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message


@transaction.atomic
def email_change_by_employer(*, user: User, company: Company, email: str) -> None:
    """The address `company`'s identity provider now gives the person (a SCIM userName
    change) becomes the account's, as a confirmed change does: the provider vouches for it
    and the old address is told. Only for an account that is `company`'s alone (no other
    company's membership or record, not staff), at the company's own domains and free;
    anything else is EmployerEmailRefused, and nothing changes."""
    user = User.objects.select_for_update().get(pk=user.pk)
    if email == user.email.lower():
        return
    domains = company.email_domains
    if domains and email.rpartition("@")[2] not in domains:
        listed = ", ".join(f"@{d}" for d in domains)
        message = EMPLOYER_EMAIL_OUTSIDE.format(email=email, company=company.name, domains=listed)
        raise EmployerEmailRefused(EmployerEmailRefused.OUTSIDE, message)
    if not account_is_only_companys(user=user, company=company):
        message = EMPLOYER_EMAIL_SHARED.format(email=user.email, company=company.name)
        raise EmployerEmailRefused(EmployerEmailRefused.SHARED, message)
    taken = EmployerEmailRefused(
        EmployerEmailRefused.TAKEN, EMPLOYER_EMAIL_TAKEN.format(email=email)
    )
    if User.objects.filter(email__iexact=email).exclude(pk=user.pk).exists():
        raise taken
    try:
        with transaction.atomic():
            _email_switch(user, email, changed_by=f"{company.name}'s staff directory")
    except IntegrityError:
        raise taken from None


# ----------------------------------------------------------------------------- password


def password_change(
    *,
    auth_token: AuthToken,
    new_password: str,
    new_password_confirmation: str,
    password: str = "",
    code: str = "",
) -> None:
    """After a fresh check, sets the new password and signs out every other session of the
    account (this one stays); the account's address is told."""
    user = auth_token.user
    errors: dict[str, list[str]] = {}
    try:
        require_password(new_password, empty_message=NEW_PASSWORD_REQUIRED)
    except ValueError as exc:
        errors["new_password"] = [str(exc)]
    else:
        if found := password_errors(new_password, user):
            errors["new_password"] = found
    if not new_password_confirmation:
        errors["new_password_confirmation"] = [CONFIRM_PASSWORD_REQUIRED]
    elif new_password and new_password != new_password_confirmation:
        errors["new_password_confirmation"] = [PASSWORDS_DO_NOT_MATCH]
    if errors:
        raise ValidationFailed(next(iter(errors.values()))[0], errors=errors)
    if not _password_change(
        auth_token=auth_token, new_password=new_password, password=password, code=code
    ):
        # Raised only after the transaction committed, so the failed check is counted.
        raise FreshCheckFailed


@transaction.atomic
def _password_change(*, auth_token: AuthToken, new_password: str, password: str, code: str) -> bool:
    user = User.objects.select_for_update().get(pk=auth_token.user_id)
    if not fresh_check_passed(user, password=password, code=code):
        return False
    user.set_password(new_password)
    user.save(update_fields=["password"])
    password_resets_void(user)
    revoked = other_sessions_revoke(auth_token=auth_token)
    audit_record(
        action=audit_actions.PASSWORD_CHANGED,
        actor=user,
        target_type="user",
        target_id=user.pk,
        details={"other_sessions_revoked": revoked},
    )
    password_changed_notice(user=user)
    return True


def password_resets_void(user: User) -> None:
    """The reset links sent before stop working: they were sent for the old password, or to
    an address the account no longer has."""
    user.password_resets.filter(used_at__isnull=True).update(used_at=timezone.now())


def password_changed_notice(*, user: User, how: str = "") -> None:
    """Tells the account's address that its password changed (in the app, or by a reset
    link: `how`), so that someone who did not do it notices; sent once the change commits."""
    changed = f"was changed ({how})" if how else "was changed"
    email_enqueue(
        to=user.email,
        subject="Your password was changed",
        body=(
            f"Hello {user.first_name},\n\n"
            f"The password of your {settings.PRODUCT_NAME} account {changed}, and every "
            "other device signed in to it was signed out.\n\n"
            "If this wasn't you, choose a new password now: "
            f"{account_link('/forgot-password')}\nand contact support: {settings.SUPPORT_EMAIL}"
        ),
    )
