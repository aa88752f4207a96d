"""Django admin: retention windows per company, the exports (read-only), and the 'Erase the
person's data' action on people, with its confirmation page."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.defaultfilters import pluralize
from django.template.response import TemplateResponse

from concierge.common.errors import ApiError
from concierge.common.ratelimit import client_ip
from concierge.privacy.models import DataExport, ErasedRequest, RetentionPolicy
from concierge.privacy.services.erasure import (
    WHAT_IS_ERASED,
    WHAT_STAYS,
    erasable_problem,
    person_erase,
)
from concierge.servicerequests.personal_data import request_ids_for_user


@admin.register(RetentionPolicy)
class RetentionPolicyAdmin(admin.ModelAdmin):
    list_display = ("company", "erase_completed_after_days", "updated_at")
    search_fields = ("company__name", "company__slug")
    autocomplete_fields = ("company",)


@admin.register(DataExport)
class DataExportAdmin(admin.ModelAdmin):
    list_display = ("id", "user", "status", "created_at", "finished_at", "downloaded_at")
    list_filter = ("status",)
    readonly_fields = (
        "user", "status", "size", "created_at", "finished_at", "expires_at", "downloaded_at",
    )  # fmt: skip
    exclude = ("file_key", "token_hash")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(ErasedRequest)
class ErasedRequestAdmin(admin.ModelAdmin):
    list_display = ("request_id", "reason", "erased_at")
    list_filter = ("reason",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{pluralize(number)}"


@admin.action(description="Erase the selected people's data (asks for confirmation)")
def erase_people(modeladmin: Any, request: HttpRequest, queryset: QuerySet) -> Any:
    if not request.user.is_superuser:  # type: ignore[union-attr]
        modeladmin.message_user(request, "Only superusers erase people.", messages.ERROR)
        return None
    people = list(queryset)
    problems = {person.pk: erasable_problem(user=person) for person in people}
    if request.POST.get("confirm") == "yes" and not any(problems.values()):
        for person in people:
            try:
                counts = person_erase(user=person, actor=request.user, client_ip=client_ip(request))
            except ApiError as error:
                modeladmin.message_user(request, error.message, messages.ERROR)
                continue
            modeladmin.message_user(
                request,
                f"Erased person #{person.pk}: {_count(counts['requests'], 'request')} kept, "
                f"anonymised; {_count(counts['files'], 'file')} and "
                f"{_count(counts['survey_answers'], 'answer')} deleted.",
                messages.SUCCESS,
            )
        return None
    context = {
        **modeladmin.admin_site.each_context(request),
        "title": "Erase a person's data",
        "opts": modeladmin.model._meta,
        "people": [
            {
                "user": person,
                "requests": len(request_ids_for_user(user=person)),
                "problem": problems[person.pk],
            }
            for person in people
        ],
        "blocked": any(problems.values()),
        "what_is_erased": WHAT_IS_ERASED,
        "what_stays": WHAT_STAYS,
        "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
    }
    return TemplateResponse(request, "admin/privacy/erase_confirmation.html", context)


def _add_erase_action() -> None:
    """The action sits on the people list (accounts' admin), added from here: accounts may
    not know the privacy app."""
    user_admin = admin.site._registry.get(get_user_model())
    if user_admin is not None and erase_people not in (user_admin.actions or []):
        user_admin.actions = [*(user_admin.actions or []), erase_people]


_add_erase_action()
