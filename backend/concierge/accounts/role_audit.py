"""Role changes in the audit trail, however they are made (the admin, a command, a service):
the concierge group (any group), and the staff and superuser flags. The one who made the
change is the person signed in on the request being answered, if any."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import Group
from django.db.models.signals import m2m_changed, post_init, post_save

from concierge.accounts.models import User
from concierge.audit import actions
from concierge.audit.middleware import request_actor
from concierge.audit.services import audit_record

_FLAGS = ("is_staff", "is_superuser")


def role_change_record(
    *, user_id: int, role: str, change: str, company_id: int | None = None
) -> None:
    audit_record(
        action=actions.ROLE_CHANGED,
        actor=request_actor(),
        target_type="user",
        target_id=user_id,
        company_id=company_id,
        details={"role": role, "change": change},
    )


def _flags_loaded(instance: User) -> tuple[bool | None, ...]:
    """The flags as loaded; None for one not loaded (reading a deferred field would load the
    row again, and with it this receiver)."""
    return tuple(instance.__dict__.get(flag) for flag in _FLAGS)


def _flags_remember(sender: type[User], instance: User, **kwargs: Any) -> None:
    instance._audit_flags = _flags_loaded(instance)  # type: ignore[attr-defined]


def _flags_compare(sender: type[User], instance: User, created: bool, **kwargs: Any) -> None:
    before = getattr(instance, "_audit_flags", (None, None))
    after = _flags_loaded(instance)
    for flag, was, now in zip(_FLAGS, before, after, strict=True):
        if now is None or (was is None and not created) or bool(was) == now:
            continue
        if not (created and not now):
            role_change_record(
                user_id=instance.pk,
                role=flag.removeprefix("is_"),
                change="granted" if now else "removed",
            )
    instance._audit_flags = after  # type: ignore[attr-defined]


def _groups_changed(
    sender: Any, instance: Any, action: str, reverse: bool, pk_set: set[int] | None, **kwargs: Any
) -> None:
    if action not in ("post_add", "post_remove") or not pk_set:
        return
    change = "granted" if action == "post_add" else "removed"
    if reverse:  # group.user_set.add(users...)
        for user_id in pk_set:
            role_change_record(user_id=user_id, role=f"group {instance.name}", change=change)
        return
    for name in Group.objects.filter(pk__in=pk_set).values_list("name", flat=True):
        role_change_record(user_id=instance.pk, role=f"group {name}", change=change)


def connect() -> None:
    post_init.connect(_flags_remember, sender=User, dispatch_uid="audit_user_flags_init")
    post_save.connect(_flags_compare, sender=User, dispatch_uid="audit_user_flags_save")
    m2m_changed.connect(_groups_changed, sender=User.groups.through, dispatch_uid="audit_groups")
