from django.contrib import admin

from concierge.concierge_desk.models import InternalNote


@admin.register(InternalNote)
class InternalNoteAdmin(admin.ModelAdmin):
    list_display = ("request", "author", "created_at")
    search_fields = ("body", "request__name", "author__email")
    list_select_related = ("request", "author")
    raw_id_fields = ("request", "author")
    readonly_fields = ("created_at",)
    date_hierarchy = "created_at"
