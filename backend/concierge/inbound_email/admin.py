from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from concierge.inbound_email.models import InboundEmail


@admin.register(InboundEmail)
class InboundEmailAdmin(admin.ModelAdmin):
    """Every email received for reply by email, read only: what was taken, refused (and why)
    and dropped, replays included."""

    list_display = ["received_at", "outcome", "reason", "sender", "user", "request", "path"]
    list_filter = ["outcome", "reason", "path"]
    search_fields = ["sender", "email_message_id"]
    date_hierarchy = "received_at"
    raw_id_fields = ["user", "request", "thread_message"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
