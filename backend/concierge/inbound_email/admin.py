from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from concierge.common.admin import breakable
from concierge.inbound_email.models import InboundEmail


@admin.register(InboundEmail)
class InboundEmailAdmin(admin.ModelAdmin):
    """Every email received for reply by email, read only: what was taken, refused (and why)
    and dropped, replays included."""

    # The path (webhook or SMTP receiver) is a filter and on the email's page: the list fits.
    list_display = ["received_at", "outcome", "reason", "sender_email", "user_email", "request"]
    list_select_related = ["user", "request"]
    list_filter = ["outcome", "reason", "path"]
    search_fields = ["sender", "email_message_id"]
    date_hierarchy = "received_at"
    raw_id_fields = ["user", "request", "thread_message"]

    # The addresses breakable at the "@", so the list fits beside the filters.
    @admin.display(description="Sender", ordering="sender")
    def sender_email(self, obj: InboundEmail) -> str:
        return breakable(obj.sender) if obj.sender else self.get_empty_value_display()

    @admin.display(description="User", ordering="user__email")
    def user_email(self, obj: InboundEmail) -> str:
        return breakable(obj.user.email) if obj.user else self.get_empty_value_display()

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
