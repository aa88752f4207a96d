"""The audit trail in Django admin: superusers only, read-only, filtered by person, object,
kind and time, and exported as CSV."""

from __future__ import annotations

import csv
from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse

from concierge.audit.models import AuditEvent
from concierge.audit.selectors import ENTRY_FIELDS


@admin.action(description="Export the selected events as CSV")
def export_csv(
    modeladmin: AuditEventAdmin, request: HttpRequest, queryset: QuerySet[AuditEvent]
) -> HttpResponse:
    response = HttpResponse(content_type="text/csv")
    response["Content-Disposition"] = 'attachment; filename="audit-events.csv"'
    writer = csv.writer(response)
    writer.writerow(ENTRY_FIELDS)
    for row in queryset.order_by("id").values_list(*ENTRY_FIELDS).iterator(chunk_size=2000):
        writer.writerow(row)
    return response


@admin.register(AuditEvent)
class AuditEventAdmin(admin.ModelAdmin):
    list_display = (
        "occurred_at",
        "action",
        "actor_id",
        "actor_role",
        "target_type",
        "target_id",
        "company_id",
        "client_ip",
    )
    list_filter = (
        "action",
        "actor_role",
        "target_type",
        ("occurred_at", admin.DateFieldListFilter),
    )
    search_fields = ("=actor_id", "=target_id", "=company_id", "action", "client_ip")
    date_hierarchy = "occurred_at"
    actions = (export_csv,)
    readonly_fields = ENTRY_FIELDS
    list_per_page = 100
    show_full_result_count = False

    def has_module_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_active and request.user.is_superuser)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_active and request.user.is_superuser)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
