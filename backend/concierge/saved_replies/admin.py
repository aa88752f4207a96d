from django.contrib import admin

from concierge.saved_replies.models import SavedReply


@admin.register(SavedReply)
class SavedReplyAdmin(admin.ModelAdmin):
    list_display = ("title", "updated_by", "updated_at")
    search_fields = ("title", "body")
    raw_id_fields = ("created_by", "updated_by")
    readonly_fields = ("created_at", "updated_at")
