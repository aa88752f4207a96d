from django.contrib import admin

from concierge.satisfaction.models import Rating


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ("request", "score", "concierge", "company", "via", "created_at")
    list_filter = ("score", "via", "company")
    list_select_related = ("request", "concierge", "company")
    raw_id_fields = ("request", "employee", "concierge")
    readonly_fields = ("comment_key_hash", "created_at")
    date_hierarchy = "created_at"
