from django.contrib import admin

from concierge.uploads.models import Upload


@admin.register(Upload)
class UploadAdmin(admin.ModelAdmin):
    list_display = ("filename", "owner", "request", "content_type", "size", "status", "created_at")
    list_filter = ("status",)
    search_fields = ("key", "filename", "owner__email")
    list_select_related = ("owner", "request")
    raw_id_fields = ("owner", "request")
    readonly_fields = (
        "key",
        "filename",
        "content_type",
        "size",
        "status",
        "created_at",
        "uploaded_at",
    )
