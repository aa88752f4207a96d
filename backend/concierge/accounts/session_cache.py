"""Signed-in sessions remembered between requests (common.read_cache), so the API's most
frequent reads skip the session query.

What a session's check reads (the token, its user, the user's companies' MFA rule, groups and
factors) is forgotten the moment any of it changes, whatever writes it (a service, the admin,
a cascade): the receivers below bump the session's version. They do nothing else.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from django.contrib.auth.models import Group
from django.db.models.signals import m2m_changed, post_delete, post_save, pre_delete
from django.utils import timezone

from concierge.accounts.models import AuthToken, Company, MfaFactor, User
from concierge.common import read_cache

# A backstop only: every change that matters forgets the session at once.
SESSION_TTL_SECONDS = 60


def session_entry_key(key_hash: str) -> str:
    return f"rc:session:{key_hash}"


def session_scope(key_hash: str) -> str:
    return f"rc:v:session:{key_hash}"


def session_read(key_hash: str, load: Callable[[], AuthToken | None]) -> AuthToken | None:
    return read_cache.read_through(  # type: ignore[no-any-return]
        session_entry_key(key_hash), [session_scope(key_hash)], SESSION_TTL_SECONDS, load
    )


def sessions_forget(*, user_ids: Iterable[int]) -> None:
    """Every live session of these users is read from the database again."""
    ids = set(user_ids)
    if not ids:
        return
    hashes = AuthToken.objects.filter(
        user_id__in=ids, revoked_at__isnull=True, expires_at__gt=timezone.now()
    ).values_list("key_hash", flat=True)
    read_cache.bump(session_scope(key_hash) for key_hash in hashes)


def _token_changed(sender: type, instance: AuthToken, **kwargs: Any) -> None:
    read_cache.bump([session_scope(instance.key_hash)])


def _user_changed(sender: type, instance: User, **kwargs: Any) -> None:
    sessions_forget(user_ids=[instance.pk])


def _members_changed(sender: type, instance: Company | Group, **kwargs: Any) -> None:
    # A company's MFA rule or a group's name: its members' sessions.
    members = instance.members if isinstance(instance, Company) else instance.user_set
    sessions_forget(user_ids=members.values_list("pk", flat=True))


def _factor_changed(sender: type, instance: MfaFactor, **kwargs: Any) -> None:
    sessions_forget(user_ids=[instance.user_id])


def _membership_changed(
    sender: type, instance: Any, action: str, reverse: bool, pk_set: set[int] | None, **kwargs: Any
) -> None:
    """A user joined or left a company or group, from either side."""
    if not reverse:
        if action.startswith("post_"):
            sessions_forget(user_ids=[instance.pk])
    elif action in ("post_add", "post_remove") and pk_set:
        sessions_forget(user_ids=pk_set)
    elif action == "pre_clear":
        _members_changed(sender, instance)


def connect_receivers() -> None:
    uid = "concierge.accounts.session_cache"
    for signal in (post_save, post_delete):
        signal.connect(_token_changed, sender=AuthToken, dispatch_uid=f"{uid}.token")
        signal.connect(_user_changed, sender=User, dispatch_uid=f"{uid}.user")
        signal.connect(_factor_changed, sender=MfaFactor, dispatch_uid=f"{uid}.factor")
    # Before a delete: afterwards the members can no longer be read.
    for signal in (post_save, pre_delete):
        signal.connect(_members_changed, sender=Company, dispatch_uid=f"{uid}.company")
        signal.connect(_members_changed, sender=Group, dispatch_uid=f"{uid}.group")
    for through in (User.companies.through, User.groups.through):
        m2m_changed.connect(
            _membership_changed, sender=through, dispatch_uid=f"{uid}.{through.__name__}"
        )
