"""Email verification: a signed link that confirms the account's address, which a work-email
company needs before it shows its content."""

from __future__ import annotations

from django.conf import settings
from django.core import signing
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import transaction
from django.utils import timezone

from concierge.accounts.account_emails import account_email_reserve
from concierge.accounts.models import AccountEmail, User
from concierge.accounts.services.links import account_link, signed_claims
from concierge.common.errors import ApiError, ValidationFailed
from concierge.notifications.services import email_enqueue

INVALID_EMAIL_VERIFICATION = (
    "This confirmation link is invalid, already used or expired. "
    "Sign in to send yourself a new one."
)
EMAIL_ALREADY_VERIFIED = "Your email address is already confirmed."
_EMAIL_VERIFICATION_SALT = "concierge.accounts.email-verification"


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
    link = account_link(f"/verify-email/{email_verification_token(user=user)}")
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


@transaction.atomic
def email_verify(*, token: str) -> User:
    """Marks the address verified by a link from `email_verification_send`."""
    claims = signed_claims(token, salt=_EMAIL_VERIFICATION_SALT, keys=("user", "email"))
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
