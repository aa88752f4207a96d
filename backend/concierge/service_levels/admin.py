from django.contrib import admin

from concierge.common.admin import LabelledTabularInline
from concierge.service_levels.models import Holiday, ServiceLevel


class HolidayInline(LabelledTabularInline):
    model = Holiday
    extra = 1


@admin.register(ServiceLevel)
class ServiceLevelAdmin(admin.ModelAdmin):
    list_display = (
        "company",
        "first_response_minutes",
        "resolution_minutes",
        "time_zone",
        "weekdays",
        "opens",
        "closes",
    )
    list_select_related = ("company",)
    inlines = [HolidayInline]
