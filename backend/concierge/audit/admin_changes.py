"""Every Django admin's additions, changes and deletions in the audit trail: who, what, and
before/after of the fields changed, never secret ones (passwords, tokens, hashes, codes) nor
message text.

Connected in AuditConfig.ready() on django.contrib.admin's ModelAdmin itself, so every admin
of every app records, without each one opting in."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import admin
from django.db import models
from django.forms import BaseForm
from django.http import HttpRequest

from concierge.audit import actions
from concierge.audit.services import (
    SECRET_KEY_PARTS,
    audit_record_for_request,
    audit_record_opening,
    role_of,
)

_CHANGES = "_audit_admin_changes"


def _upload_opening(upload: Any) -> tuple[str, str, Any, dict[str, Any]]:
    """An attachment opened in the admin is an opening of its request (as in the desk, so the
    employee sees it); a file of no request (a survey answer's) is its owner's data."""
    if upload.request_id is not None:
        return actions.ATTACHMENT_OPENED, "request", upload.request_id, {"attachment_id": upload.pk}
    return actions.ATTACHMENT_OPENED, "user", upload.owner_id, {"attachment_id": upload.pk}


# Opening one of these in the admin is an opening of an employee's data (model label: the
# action, target type, target id and details the desk records for the same object).
ADMIN_OPENINGS: dict[str, Callable[[Any], tuple[str, str, Any, dict[str, Any]]]] = {
    "servicerequests.servicerequest": lambda obj: (actions.REQUEST_OPENED, "request", obj.pk, {}),
    "accounts.user": lambda obj: (actions.PROFILE_OPENED, "user", obj.pk, {}),
    "uploads.upload": _upload_opening,
}
MAX_VALUE_CHARS = 200


def _shown(value: Any) -> Any:
    if isinstance(value, models.Model):
        return value.pk
    if isinstance(value, (list, tuple, set, models.QuerySet)):
        return sorted(str(_shown(item)) for item in value)
    if value is None or isinstance(value, (bool, int, float)):
        return value
    return str(value)[:MAX_VALUE_CHARS]


def form_changes(form: BaseForm) -> dict[str, dict[str, Any]]:
    """{field: {"before": ..., "after": ...}} for the form's changed, non-secret fields."""
    changes = {}
    for name in form.changed_data:
        if any(part in name.lower() for part in SECRET_KEY_PARTS):
            changes[name] = {"changed": True}
            continue
        changes[name] = {
            "before": _shown(form.initial.get(name)),
            "after": _shown(form.cleaned_data.get(name)),
        }
    return changes


COMPANY_MODEL = "accounts.company"


def _target(obj: models.Model) -> tuple[str, str]:
    return obj._meta.label_lower, str(obj.pk)


def _record(request: HttpRequest, action: str, obj: models.Model, details: dict[str, Any]) -> None:
    target_type, target_id = _target(obj)
    audit_record_for_request(
        request, action=action, target_type=target_type, target_id=target_id, details=details
    )


def _opening_record(model_admin: admin.ModelAdmin, request: HttpRequest, response: Any) -> None:
    opening = ADMIN_OPENINGS.get(model_admin.model._meta.label_lower)
    shown = (getattr(response, "context_data", None) or {}).get("original")
    if opening is None or request.method != "GET" or shown is None:
        return
    action, target_type, target_id, details = opening(shown)
    if target_id is None:
        return
    audit_record_opening(
        request,
        action=action,
        actor_role=role_of(request.user),
        target_type=target_type,
        target_id=target_id,
        details={**details, "via": "admin"},
    )


def install() -> None:
    """Wraps django.contrib.admin's ModelAdmin's change_view (an opening of a request, an
    account or an attachment, on GET), construct_change_message (to keep the form's before/after) and its
    log_addition / log_change / log_deletions (to record)."""
    model_admin = admin.ModelAdmin
    construct = model_admin.construct_change_message
    log_addition = model_admin.log_addition
    log_change = model_admin.log_change
    log_deletions = model_admin.log_deletions
    change_view = model_admin.change_view

    def audited_change_view(self, request, object_id, form_url="", extra_context=None):  # type: ignore[no-untyped-def]
        response = change_view(self, request, object_id, form_url, extra_context)
        if getattr(response, "status_code", 0) == 200:
            _opening_record(self, request, response)
        return response

    def construct_change_message(self, request, form, formsets, add=False):  # type: ignore[no-untyped-def]
        setattr(request, _CHANGES, form_changes(form))
        return construct(self, request, form, formsets, add)

    def audited_addition(self, request, obj, message):  # type: ignore[no-untyped-def]
        entry = log_addition(self, request, obj, message)
        _record(request, actions.ADMIN_ADDED, obj, {"fields": getattr(request, _CHANGES, {})})
        return entry

    def audited_change(self, request, obj, message):  # type: ignore[no-untyped-def]
        entry = log_change(self, request, obj, message)
        changes = getattr(request, _CHANGES, None)
        details = {"fields": changes} if changes is not None else {"message": str(message)[:200]}
        _record(request, actions.ADMIN_CHANGED, obj, details)
        if obj._meta.label_lower == COMPANY_MODEL:
            # The company's own administration: its company admins see it in their log.
            audit_record_for_request(
                request,
                action=actions.COMPANY_SETTINGS_CHANGED,
                target_type="company",
                target_id=obj.pk,
                company_id=obj.pk,
                details=details,
            )
        return entry

    def audited_deletions(self, request, queryset):  # type: ignore[no-untyped-def]
        objects = list(queryset)
        entries = log_deletions(self, request, objects)  # type: ignore[arg-type]
        for obj in objects:
            _record(request, actions.ADMIN_DELETED, obj, {})
        return entries

    model_admin.change_view = audited_change_view  # type: ignore[method-assign]
    model_admin.construct_change_message = construct_change_message  # type: ignore[method-assign]
    model_admin.log_addition = audited_addition  # type: ignore[method-assign]
    model_admin.log_change = audited_change  # type: ignore[method-assign]
    model_admin.log_deletions = audited_deletions  # type: ignore[method-assign]
