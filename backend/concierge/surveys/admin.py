from __future__ import annotations

from django.contrib import admin
from django.db.models import Count

from concierge.common.admin import LabelledTabularInline
from concierge.surveys.models import (
    Question,
    RequestSurvey,
    SelectOption,
    SurveyCategory,
    UserRequestAnswer,
    UserRequestSurvey,
)


class RequestSurveyInline(LabelledTabularInline):
    model = RequestSurvey
    fields = ["name", "slug", "for_alpha", "position"]
    extra = 0
    show_change_link = True
    prepopulated_fields = {"slug": ["name"]}


@admin.register(SurveyCategory)
class SurveyCategoryAdmin(admin.ModelAdmin):
    list_display = ["name", "icon", "position", "recommended", "survey_count"]
    list_editable = ["position", "recommended"]
    list_filter = ["icon", "recommended"]
    search_fields = ["name"]
    inlines = [RequestSurveyInline]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(survey_total=Count("request_surveys"))

    @admin.display(description="Surveys", ordering="survey_total")
    def survey_count(self, obj: SurveyCategory) -> int:
        return obj.survey_total  # type: ignore[attr-defined,no-any-return]


class QuestionInline(LabelledTabularInline):
    model = Question
    fields = [
        "position",
        "label",
        "input_type",
        "optional",
        "universal_answer",
        "show_if_question",
        "show_if_value",
    ]
    extra = 0
    show_change_link = True
    ordering = ["position", "id"]

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "show_if_question":
            survey_id = request.resolver_match.kwargs.get("object_id")
            kwargs["queryset"] = Question.objects.filter(survey_id=survey_id or 0)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


@admin.register(RequestSurvey)
class RequestSurveyAdmin(admin.ModelAdmin):
    list_display = ["name", "id", "slug", "category", "for_alpha", "position", "question_count"]
    list_filter = ["for_alpha", "category"]
    search_fields = ["name", "slug", "description", "=id"]
    list_select_related = ["category"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [QuestionInline]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(question_total=Count("questions"))

    @admin.display(description="Questions", ordering="question_total")
    def question_count(self, obj: RequestSurvey) -> int:
        return obj.question_total  # type: ignore[attr-defined,no-any-return]


class SelectOptionInline(LabelledTabularInline):
    model = SelectOption
    fields = ["position", "label", "value"]
    extra = 0
    ordering = ["position", "id"]


@admin.register(Question)
class QuestionAdmin(admin.ModelAdmin):
    list_display = ["label", "survey", "position", "input_type", "optional", "universal_answer"]
    list_filter = ["input_type", "optional", "universal_answer", "survey__category", "survey"]
    search_fields = ["label", "survey__name"]
    list_select_related = ["survey"]
    fieldsets = [
        (None, {"fields": ["survey", "position", "label", "input_type", "optional"]}),
        ("Pre-fill", {"fields": ["universal_answer"]}),
        (
            "Branching",
            {
                "fields": ["show_if_question", "show_if_value"],
                "description": "Ask this question only when an earlier one got a given answer.",
            },
        ),
    ]
    inlines = [SelectOptionInline]

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "show_if_question":
            object_id = request.resolver_match.kwargs.get("object_id")
            question = Question.objects.filter(pk=object_id).first() if object_id else None
            queryset = Question.objects.select_related("survey")
            if question is not None:
                queryset = queryset.filter(survey_id=question.survey_id).exclude(pk=question.pk)
            kwargs["queryset"] = queryset
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


class UserRequestAnswerInline(LabelledTabularInline):
    model = UserRequestAnswer
    fields = ["question", "value", "answered_at"]
    readonly_fields = ["question", "value", "answered_at"]
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(UserRequestSurvey)
class UserRequestSurveyAdmin(admin.ModelAdmin):
    list_display = ["id", "survey", "user", "created_at", "submitted_at"]
    list_filter = ["survey__category", "survey", ("submitted_at", admin.EmptyFieldListFilter)]
    search_fields = ["user__email", "survey__name"]
    list_select_related = ["survey", "user"]
    readonly_fields = [
        "user",
        "survey",
        "offering_id",
        "created_at",
        "submitted_at",
        "service_request",
    ]
    date_hierarchy = "created_at"
    inlines = [UserRequestAnswerInline]

    def has_add_permission(self, request) -> bool:
        return False
