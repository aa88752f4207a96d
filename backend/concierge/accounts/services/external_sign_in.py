"""Signing in through an employer's identity provider (company sign-in, the `sso` app): the
person the provider vouched for, found or created just in time, made a member of the company,
given a session like a password sign-in's."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from concierge.accounts.models import Company, EmployeeRecord, OneTimeCode, User
from concierge.accounts.selectors.memberships import company_may_claim_account
from concierge.accounts.selectors.mfa import user_has_mfa_factor
from concierge.accounts.selectors.sessions import user_mfa_required
from concierge.accounts.services.identity import SignInResult
from concierge.accounts.services.memberships import membership_join, sign_in_membership_check
from concierge.accounts.services.mfa.sms import otp_issue
from concierge.accounts.services.tokens import auth_token_create, auth_token_mfa_verified
from concierge.audit import actions as audit_actions
from concierge.audit.services import audit_record
from concierge.common.errors import PermissionDenied, Unauthorized

SSO_SOURCE = EmployeeRecord.Source.SSO.value
UNKNOWN_PERSON = (
    "{company} has no account for {email} yet. Please ask your employer to add you, then try again."
)
NOT_A_MEMBER = (
    "The account {email} is not part of {company}. Please sign in with your email and password."
)
ADMIN_ACCOUNT = "Administrator accounts sign in with their password and second factor."


@dataclass(frozen=True)
class ExternalIdentity:
    """What the identity provider said about the person (after the attribute mapping)."""

    email: str
    first_name: str = ""
    last_name: str = ""
    employee_id: str = ""


@transaction.atomic
def external_person_join(
    *, company: Company, identity: ExternalIdentity, create_accounts: bool
) -> tuple[User, bool]:
    """The person `company`'s identity provider vouched for, made (or kept) an active member;
    and whether their account was created now. Refused (and nothing created) for an unknown
    person when `create_accounts` is off, for an account of another company whose address is
    not at `company`'s own domains, for an administrator, and for a person whose record the
    employer deactivated (MembershipEnded)."""
    user, created = _person(company, identity, create_accounts)
    membership_join(user=user, company=company, source=SSO_SOURCE, employee_id=identity.employee_id)
    return user, created


@dataclass(frozen=True)
class ExternalSession:
    """A new session; `mfa_token` when the identity provider's MFA passed the session's step."""

    result: SignInResult
    mfa_token: str | None


@transaction.atomic
def external_session_start(*, user: User, mfa_done: bool) -> ExternalSession:
    """A session for a person signed in by their company's provider, as a password sign-in
    makes one: the product's own second factor still applies unless the provider did MFA.
    Refused (MembershipEnded) if the employer ended the person's access meanwhile."""
    sign_in_membership_check(user=user)
    user.last_login = timezone.now()
    user.save(update_fields=["last_login"])
    raw, auth_token = auth_token_create(user)
    audit_record(
        action=audit_actions.SIGN_IN_SUCCEEDED,
        actor=user,
        details={"method": "company sign-in", "provider_mfa": mfa_done},
    )
    if mfa_done:
        mfa_token = auth_token_mfa_verified(auth_token=auth_token)
        return ExternalSession(SignInResult(raw, auth_token, False, False), mfa_token)
    has_factor = user_has_mfa_factor(user=user)
    mfa_required = bool(user.mfa_phone) or has_factor
    if user.mfa_phone and not has_factor:
        otp_issue(user=user, purpose=OneTimeCode.Purpose.SIGN_IN, phone=user.mfa_phone)
    requires_verification = not mfa_required and user_mfa_required(user=user)
    return ExternalSession(SignInResult(raw, auth_token, mfa_required, requires_verification), None)


def _person(company: Company, identity: ExternalIdentity, create: bool) -> tuple[User, bool]:
    email = identity.email.strip().lower()
    user = User.objects.select_for_update().filter(email__iexact=email).first()
    if user is None:
        if not create:
            raise Unauthorized(UNKNOWN_PERSON.format(company=company.name, email=email))
        user = User.objects.create_user(
            email=email,
            password=None,  # an unusable password: this person signs in through the company
            first_name=identity.first_name.strip()[:150] or email.partition("@")[0][:150],
            last_name=identity.last_name.strip()[:150],
            email_verified_at=timezone.now(),  # the company's provider vouches for the address
        )
        return user, True
    if not user.is_active:
        raise Unauthorized(UNKNOWN_PERSON.format(company=company.name, email=email))
    if user.is_superuser:
        raise PermissionDenied(ADMIN_ACCOUNT)
    if not _belongs_to(user, company, create):
        raise PermissionDenied(NOT_A_MEMBER.format(company=company.name, email=email))
    return user, False


def _belongs_to(user: User, company: Company, create: bool) -> bool:
    """Whether the company's provider may sign this existing account in: a member, a person
    the company's records already link to (a deactivated one is then refused by
    membership_join), or, with accounts made at first sign-in, an address at the company's
    own domains. A provider never takes over an account of another company."""
    return company_may_claim_account(company=company, user=user, by_domain=create)
