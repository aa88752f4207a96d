"""Django admin for companies and the email-based users (ARCHITECTURE.md §6)."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.contrib.auth import admin as auth_admin
from django.contrib.auth import forms as auth_forms
from django.db.models import QuerySet
from django.http import HttpRequest

from concierge.accounts.models import Company, OnboardingAnswer, User


@admin.register(Company)
class CompanyAdmin(admin.ModelAdmin):
    list_display = ["slug", "name", "requires_mfa", "internal"]
    list_filter = ["requires_mfa"]
    search_fields = ["slug", "name"]
    prepopulated_fields = {"slug": ["name"]}
    ordering = ["name"]

    @admin.display(boolean=True, description="Internal (INTERNAL_COMPANY_NAMES)")
    def internal(self, company: Company) -> bool:
        return company.is_internal


class _EmailMixin(forms.ModelForm):
    def clean_email(self) -> str:
        email = self.cleaned_data["email"].strip().lower()
        others = User.objects.filter(email__iexact=email)
        if self.instance.pk:
            others = others.exclude(pk=self.instance.pk)
        if others.exists():
            raise forms.ValidationError("A user with this email address already exists.")
        return email


class UserCreationForm(_EmailMixin, auth_forms.AdminUserCreationForm):
    """Email, name and password (or an unusable password, for people invited to reset it)."""

    class Meta:
        model = User
        fields = ("email", "first_name", "last_name")


class UserChangeForm(_EmailMixin, auth_forms.UserChangeForm):
    class Meta:
        model = User
        fields = (
            "email",
            "password",
            "first_name",
            "last_name",
            "companies",
            "onboarded_at",
            "mfa_phone",
            "failed_sign_in_count",
            "locked_at",
            "is_active",
            "is_staff",
            "is_superuser",
            "groups",
            "user_permissions",
        )


class OnboardingAnswerInline(admin.TabularInline):
    model = OnboardingAnswer
    fields = ["answer_id", "value", "updated_at"]
    readonly_fields = ["updated_at"]
    extra = 0


@admin.register(User)
class UserAdmin(auth_admin.UserAdmin):
    form = UserChangeForm
    add_form = UserCreationForm
    list_display = ["email", "full_name", "is_staff", "is_locked", "date_joined"]
    list_filter = ["companies", "is_staff", "is_superuser", "is_active", "groups"]
    search_fields = ["email", "first_name", "last_name"]
    ordering = ["email"]
    filter_horizontal = ["companies", "groups", "user_permissions"]
    readonly_fields = ["external_id", "request_count", "last_login", "date_joined"]
    inlines = [OnboardingAnswerInline]
    actions = ["unlock_accounts"]
    fieldsets = (
        (None, {"fields": ("email", "password")}),
        ("Personal info", {"fields": ("first_name", "last_name", "external_id")}),
        ("Companies", {"fields": ("companies",)}),
        ("Activity", {"fields": ("request_count", "onboarded_at", "last_login", "date_joined")}),
        (
            "Two-factor authentication",
            {
                "fields": ("mfa_phone",),
                "description": "An enrolled phone (+1 and 10 digits) makes every sign-in "
                "ask for an SMS code. Clear it to let the user enrol again.",
            },
        ),
        (
            "Lockout",
            {
                "fields": ("failed_sign_in_count", "locked_at"),
                "description": "Clear 'locked at' (or use the 'Unlock' action) to unlock.",
            },
        ),
        (
            "Permissions",
            {"fields": ("is_active", "is_staff", "is_superuser", "groups", "user_permissions")},
        ),
    )
    add_fieldsets = (
        (
            None,
            {
                "classes": ("wide",),
                "fields": (
                    "email",
                    "first_name",
                    "last_name",
                    "usable_password",
                    "password1",
                    "password2",
                ),
            },
        ),
    )

    @admin.display(description="Full name", ordering="first_name")
    def full_name(self, obj: User) -> str:
        return obj.full_name

    @admin.display(description="Locked", boolean=True, ordering="locked_at")
    def is_locked(self, obj: User) -> bool:
        return obj.locked_at is not None

    def get_inlines(self, request: HttpRequest, obj: User | None = None):  # type: ignore[override]
        return self.inlines if obj else []

    @admin.action(description="Unlock selected accounts")
    def unlock_accounts(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        count = queryset.update(locked_at=None, failed_sign_in_count=0, unlock_token_hash="")
        self.message_user(request, f"Unlocked {count} account(s).", messages.SUCCESS)
