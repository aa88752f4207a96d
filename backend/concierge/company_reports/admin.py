from django.contrib import admin

from concierge.company_reports.models import CompanyAdmin


@admin.register(CompanyAdmin)
class CompanyAdminAdmin(admin.ModelAdmin):
    list_display = ("user", "company", "created_at")
    list_filter = ("company",)
    search_fields = ("user__email", "company__name")
    raw_id_fields = ("user",)
    list_select_related = ("user", "company")
    readonly_fields = ("created_at",)
