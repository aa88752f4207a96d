from __future__ import annotations

from django.contrib import admin
from django.db.models import Count

from concierge.common.admin import LabelledTabularInline
from concierge.offerings.models import Offering, OfferingCategory, Section, SectionItem


@admin.register(OfferingCategory)
class OfferingCategoryAdmin(admin.ModelAdmin):
    list_display = ["name", "external_id", "position", "offering_count"]
    list_editable = ["position"]
    search_fields = ["name", "external_id"]
    prepopulated_fields = {"external_id": ["name"]}

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(offering_total=Count("offerings"))

    @admin.display(description="Offerings", ordering="offering_total")
    def offering_count(self, obj: OfferingCategory) -> int:
        return obj.offering_total  # type: ignore[attr-defined,no-any-return]


class SectionInline(admin.StackedInline):
    model = Section
    fields = [("section_type", "position"), "heading", ("cta_text", "cta_url")]
    extra = 0
    show_change_link = True
    ordering = ["position", "id"]


@admin.register(Offering)
class OfferingAdmin(admin.ModelAdmin):
    list_display = [
        "heading",
        "provider_name",
        "type",
        "featured",
        "position",
        "audience",
        "request_survey",
    ]
    list_editable = ["featured", "position"]
    list_filter = ["type", "featured", "categories", "companies"]
    search_fields = ["heading", "subheading", "name", "provider_name", "slug"]
    list_select_related = ["request_survey"]
    prepopulated_fields = {"slug": ["provider_name", "heading"]}
    filter_horizontal = ["categories", "companies"]
    raw_id_fields = ["request_survey"]
    fieldsets = [
        (None, {"fields": ["type", "slug", "featured", "position"]}),
        (
            "Card",
            {
                "fields": [
                    "provider_name",
                    "provider_logo",
                    "provider_logo_url",
                    "heading",
                    "subheading",
                    "name",
                    "categories",
                ]
            },
        ),
        ("Who sees it", {"fields": ["companies"]}),
        (
            "Get help",
            {"fields": ["request_survey", "request_survey_cta", "request_survey_answer"]},
        ),
    ]
    inlines = [SectionInline]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("companies")

    def get_form(self, request, obj=None, change=False, **kwargs):
        """The pre-selected answer is picked among the saved survey's choice options, each
        named with its question."""
        form = super().get_form(request, obj, change=change, **kwargs)
        field = form.base_fields.get("request_survey_answer")
        if field is not None:
            survey_id = obj.request_survey_id if obj else None
            field.queryset = field.queryset.filter(  # type: ignore[attr-defined]
                question__survey_id=survey_id
            ).select_related("question")
            field.label_from_instance = (  # type: ignore[attr-defined]
                lambda option: f"{option.question.label} → {option.label}"
            )
            if survey_id is None:
                field.help_text = (
                    "Save the offering with its request survey first, then pick one of its "
                    "answers here."
                )
        return form

    @admin.display(description="Who sees it")
    def audience(self, obj: Offering) -> str:
        names = [c.name for c in obj.companies.all()]
        if names:
            return ", ".join(names)
        return "Everyone" if obj.type == Offering.Type.PRODUCT else "Nobody (pick companies)"


class SectionItemInline(LabelledTabularInline):
    model = SectionItem
    fields = ["position", "key", "value", "external_url"]
    extra = 0
    ordering = ["position", "id"]


@admin.register(Section)
class SectionAdmin(admin.ModelAdmin):
    list_display = ["__str__", "offering", "section_type", "position"]
    list_filter = ["section_type", "offering__type"]
    search_fields = ["heading", "offering__heading", "offering__provider_name"]
    list_select_related = ["offering"]
    raw_id_fields = ["offering"]
    inlines = [SectionItemInline]
