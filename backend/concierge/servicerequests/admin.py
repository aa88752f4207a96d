from django.contrib import admin

from concierge.servicerequests.models import Message, ServiceRequest


class MessageInline(admin.TabularInline):
    """The thread, read-only: replies go through the services so they are sanitised."""

    model = Message
    extra = 0
    can_delete = False
    fields = (
        "external_created_at",
        "source",
        "source_name",
        "author",
        "body_html",
        "attachment_list",
    )
    readonly_fields = fields
    ordering = ("external_created_at", "id")

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .select_related("author")
            .prefetch_related("attachment_links__upload")
        )

    @admin.display(description="Attachments")
    def attachment_list(self, obj: Message) -> str:
        return ", ".join(link.upload.filename for link in obj.attachment_links.all()) or "—"


@admin.register(ServiceRequest)
class ServiceRequestAdmin(admin.ModelAdmin):
    list_display = ("name", "user", "status", "assignee", "issued_at", "last_message_at")
    list_filter = ("status", "survey_category")
    search_fields = ("name", "details", "user__email", "external_id")
    list_select_related = ("user", "assignee")
    raw_id_fields = ("user", "assignee")
    readonly_fields = ("external_id", "created_at", "updated_at", "last_message_at")
    date_hierarchy = "issued_at"
    inlines = [MessageInline]
