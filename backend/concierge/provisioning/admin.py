from django.contrib import admin

from concierge.provisioning.models import ScimToken


@admin.register(ScimToken)
class ScimTokenAdmin(admin.ModelAdmin):
    """Tokens are created by the company admin (members page); here they can be seen and
    revoked (deleted), never read."""

    list_display = ("company", "created_at", "created_by", "last_used_at")
    readonly_fields = ("company", "created_at", "created_by", "last_used_at")
    search_fields = ("company__name",)

    def has_add_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False
