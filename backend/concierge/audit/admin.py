"""The audit trail in Django admin: superusers only, read-only, filtered by person, object,
kind and time, and exported as CSV. An entry names its actor by id only (no foreign key, so it
outlives the account unchanged); the list and the entry's page show who that is, read in the
same query as the entries."""

from __future__ import annotations

import csv
from typing import Any

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.db.models import OuterRef, QuerySet, Subquery
from django.http import HttpRequest, HttpResponse
from django.urls import NoReverseMatch, reverse
from django.utils.html import format_html

from concierge.audit.models import AuditEvent
from concierge.audit.selectors import ENTRY_FIELDS
from concierge.common.admin import breakable


class NoneNamedFilter(admin.AllValuesFieldListFilter):
    """A filter by a field's values where an entry without one (no target) is offered as
    "None" rather than as a link without text (axe: 'Links must have discernible text')."""

    def choices(self, changelist: Any) -> Any:
        for choice in super().choices(changelist):
            yield {**choice, "display": choice["display"] or "None"}


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
        "action_name",
        "actor",
        "target",
        "company_id",
        "client_address",
    )
    list_filter = (
        "action",
        ("actor_role", NoneNamedFilter),
        ("target_type", NoneNamedFilter),
        ("occurred_at", admin.DateFieldListFilter),
    )
    search_fields = ("=actor_id", "=target_id", "=company_id", "action", "client_ip")
    date_hierarchy = "occurred_at"
    actions = (export_csv,)
    # The entry's own fields as they are kept (and hashed), and who the actor is beside its id.
    readonly_fields = (*ENTRY_FIELDS[: ENTRY_FIELDS.index("actor_id") + 1], "actor",
                       *ENTRY_FIELDS[ENTRY_FIELDS.index("actor_id") + 1 :])  # fmt: skip
    list_per_page = 100
    show_full_result_count = False

    def get_queryset(self, request: HttpRequest) -> QuerySet[AuditEvent]:
        """Each entry with its actor's email, read in the entries' query (a subquery by id, not
        a query a row); an account deleted since leaves it empty. Annotations only: nothing of
        the entry is changed, and the CSV export reads the entry's own fields."""
        people = get_user_model()._default_manager.filter(pk=OuterRef("actor_id"))
        return (
            super().get_queryset(request).annotate(actor_email=Subquery(people.values("email")[:1]))
        )

    @admin.display(description="Actor")
    def actor(self, event: AuditEvent) -> str:
        """Who acted: their email, linked to their account, and the role they acted in;
        "system" for no one."""
        role = format_html('<br><span class="quiet">{}</span>', event.actor_role)
        if event.actor_id is None:
            return format_html("system{}", role if event.actor_role != "system" else "")
        email = getattr(event, "actor_email", None)
        if not email:
            return format_html("Deleted account #{}{}", event.actor_id, role)
        opts = get_user_model()._meta
        try:
            url = reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[event.actor_id])
        except NoReverseMatch:
            return format_html("{}{}", breakable(email), role)
        return format_html('<a href="{}">{}</a>{}', url, breakable(email), role)

    @admin.display(description="Action", ordering="action")
    def action_name(self, event: AuditEvent) -> str:
        return breakable(event.action, ".", before=False)

    @admin.display(description="Target", ordering="target_type")
    def target(self, event: AuditEvent) -> str:
        return " ".join(part for part in (event.target_type, event.target_id) if part) or "-"

    @admin.display(description="Client IP", ordering="client_ip")
    def client_address(self, event: AuditEvent) -> str:
        return breakable(event.client_ip, ":", before=False) if event.client_ip else "-"

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
