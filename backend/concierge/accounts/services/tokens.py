"""Sessions: the API's bearer tokens, created at sign-in, marked once the MFA step is passed,
revoked at sign-out or all at once."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone

from concierge.accounts.devices import device_label
from concierge.accounts.models import AuthToken, User
from concierge.accounts.services.links import account_link
from concierge.accounts.signals import sessions_revoked
from concierge.audit import actions as audit_actions
from concierge.audit.middleware import request_user_agent
from concierge.audit.services import audit_record
from concierge.common.errors import NotFound
from concierge.common.tokens import token_new
from concierge.common.validation import is_database_id
from concierge.notifications.services import email_enqueue


def auth_token_create(user: User) -> tuple[str, AuthToken]:
    """A new session of `user`, named after the browser of the request signing in; a device
    the account has not signed in from before is told to its address (`new_device_notice`)."""
    device = device_label(request_user_agent())
    first_time_here = _device_is_new(user=user, device=device)
    raw, hashed = token_new()
    auth_token = AuthToken.objects.create(
        user=user,
        key_hash=hashed,
        expires_at=timezone.now() + timedelta(seconds=settings.AUTH_TOKEN_TTL_SECONDS),
        device=device,
    )
    if first_time_here:
        new_device_notice(user=user, device=device)
    return raw, auth_token


def _device_is_new(*, user: User, device: str) -> bool:
    """Whether the account has signed in before, from named devices, but never from this one.
    A first sign-in is no news, and sessions from before devices were named (device '') say
    nothing either way."""
    seen = (
        AuthToken.objects.filter(user=user)
        .exclude(device="")
        .aggregate(named=Count("pk"), this_one=Count("pk", filter=Q(device=device)))
    )
    return bool(seen["named"]) and not seen["this_one"]


def new_device_notice(*, user: User, device: str) -> None:
    """Tells the account's address that a device it has not seen signed in (the password step
    passed, whether or not a second step follows), so that someone who did not do it can sign
    it out from the Account page; sent once the sign-in commits."""
    email_enqueue(
        to=user.email,
        subject=f"New sign-in to your {settings.PRODUCT_NAME} account",
        body=(
            f"Hello {user.first_name},\n\n"
            f"Your {settings.PRODUCT_NAME} account was just signed in to from a device it has "
            f"not been signed in from before: {device}.\n\n"
            "If this was you, there is nothing to do. If it wasn't, sign that device out under "
            f"Signed-in devices on your Account page: {account_link('/account')}\n"
            f"then change your password and contact support: {settings.SUPPORT_EMAIL}"
        ),
    )


def auth_token_revoke(*, auth_token: AuthToken) -> None:
    auth_token.revoked_at = timezone.now()
    auth_token.save(update_fields=["revoked_at"])


_THEMSELVES = object()


def user_sessions_revoke(*, user: User, actor: object = _THEMSELVES) -> None:
    """Signs every session of `user` out, from their very next request; their open event
    streams end once the transaction commits (`sessions_revoked_announce`). The audit trail
    names `actor` as who did it: the person themselves unless given (None: the system)."""
    revoked = user.auth_tokens.filter(revoked_at__isnull=True).update(revoked_at=timezone.now())
    sessions_revoked_announce(user_id=user.pk)
    audit_record(
        action=audit_actions.SESSIONS_REVOKED,
        actor=user if actor is _THEMSELVES else actor,
        target_type="user",
        target_id=user.pk,
        details={"sessions": revoked},
    )


SESSION_NOT_FOUND = "This device is already signed out."


def user_session_sign_out(*, auth_token: AuthToken, session_id: int) -> None:
    """Signs one other device of the person signed in with `auth_token` out (the Account page's
    signed-in devices); their open event streams end once it commits. A session of someone
    else, or one already signed out or expired, is a 404."""
    if not is_database_id(session_id):
        raise NotFound(SESSION_NOT_FOUND)
    with transaction.atomic():
        revoked = AuthToken.objects.filter(
            pk=session_id,
            user_id=auth_token.user_id,
            revoked_at__isnull=True,
            expires_at__gt=timezone.now(),
        ).update(revoked_at=timezone.now())
        if not revoked:
            raise NotFound(SESSION_NOT_FOUND)
        sessions_revoked_announce(user_id=auth_token.user_id)
        _signed_out_audit(auth_token=auth_token, sessions=revoked)


def user_other_sessions_sign_out(*, auth_token: AuthToken) -> int:
    """Signs every device of the person but this one (`auth_token`) out; how many there were."""
    with transaction.atomic():
        revoked = other_sessions_revoke(auth_token=auth_token)
        if revoked:
            _signed_out_audit(auth_token=auth_token, sessions=revoked)
    return revoked


def other_sessions_revoke(*, auth_token: AuthToken) -> int:
    """Signs every session of `auth_token`'s person but it out (their streams end once the
    transaction commits); how many there were. The caller records why in the audit trail."""
    revoked = (
        AuthToken.objects.filter(user_id=auth_token.user_id, revoked_at__isnull=True)
        .exclude(pk=auth_token.pk)
        .update(revoked_at=timezone.now())
    )
    if revoked:
        sessions_revoked_announce(user_id=auth_token.user_id)
    return revoked


def _signed_out_audit(*, auth_token: AuthToken, sessions: int) -> None:
    audit_record(
        action=audit_actions.SESSIONS_REVOKED,
        actor=auth_token.user,
        target_type="user",
        target_id=auth_token.user_id,
        details={"sessions": sessions, "this_device_kept": True},
    )


def sessions_revoked_announce(*, user_id: int) -> None:
    """Tells the layers above (the live streams) that sessions of `user_id` were signed out,
    once the current transaction commits (at once outside one); nothing for a rollback."""
    transaction.on_commit(
        lambda: sessions_revoked.send_robust(sender=User, user_id=user_id), robust=True
    )


def auth_token_mfa_verified(*, auth_token: AuthToken) -> str:
    """Marks the session's MFA step as passed; returns its MFA token (the `mfa-token` header)."""
    raw, hashed = token_new()
    auth_token.mfa_token_hash = hashed
    auth_token.save(update_fields=["mfa_token_hash"])
    return raw
