"""Django admin for companies and the email-based users (ARCHITECTURE.md §6)."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.contrib.auth import admin as auth_admin
from django.contrib.auth import forms as auth_forms
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import format_html

from concierge.accounts.models import (
    Company,
    CompanyInvite,
    EmployeeRecord,
    OnboardingAnswer,
    User,
)
from concierge.accounts.services.memberships import (
    member_deactivate,
    member_reactivate,
    user_companies_set,
)
from concierge.common.admin import LabelledTabularInline, breakable
from concierge.common.tokens import token_new

_DOMAIN = re.compile(r"^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$")
INVITE_DAYS = 14


class CompanyForm(forms.ModelForm):
    class Meta:
        model = Company
        fields = [
            "slug",
            "name",
            "logo",
            "requires_mfa",
            "join_policy",
            "allowed_email_domains",
        ]

    def clean_allowed_email_domains(self) -> str:
        domains = Company(allowed_email_domains=self.cleaned_data["allowed_email_domains"])
        if bad := [d for d in domains.email_domains if not _DOMAIN.match(d)]:
            raise forms.ValidationError(f"Not a domain: {', '.join(bad)}")
        return "\n".join(domains.email_domains)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        needs_domains = cleaned.get("join_policy") == Company.JoinPolicy.EMAIL_DOMAIN
        if needs_domains and cleaned.get("allowed_email_domains") == "":
            self.add_error("allowed_email_domains", "List at least one domain for 'Work email'.")
        return cleaned


@admin.register(Company)
class CompanyAdmin(admin.ModelAdmin):
    form = CompanyForm
    list_display = ["slug", "name", "join_policy", "requires_mfa", "internal"]
    list_filter = ["join_policy", "requires_mfa"]
    search_fields = ["slug", "name"]
    prepopulated_fields = {"slug": ["name"]}
    readonly_fields = ["created_at"]
    ordering = ["name"]

    @admin.display(boolean=True, description="Internal (INTERNAL_COMPANY_NAMES)")
    def internal(self, company: Company) -> bool:
        return company.is_internal


def _invite_expiry_default():  # type: ignore[no-untyped-def]
    return timezone.now() + timedelta(days=INVITE_DAYS)


class CompanyInviteForm(forms.ModelForm):
    class Meta:
        model = CompanyInvite
        fields = ["company", "label", "max_uses", "expires_at", "revoked_at"]

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        if not self.instance.pk:
            self.fields["expires_at"].initial = _invite_expiry_default
        if isinstance(company := self.fields.get("company"), forms.ModelChoiceField):
            company.queryset = Company.objects.filter(join_policy=Company.JoinPolicy.INVITE)
            company.help_text = "Companies with the 'Invite links only' policy."

    def clean_max_uses(self) -> int:
        max_uses = self.cleaned_data["max_uses"]
        if max_uses < 1:
            raise forms.ValidationError("An invite is for at least one person.")
        return max_uses


@admin.register(CompanyInvite)
class CompanyInviteAdmin(admin.ModelAdmin):
    """Invite links: the link is shown once, right after the invite is created (only a hash of
    its token is kept). Revoke an invite by setting 'revoked at'."""

    form = CompanyInviteForm
    list_display = ["company", "label", "use_count", "max_uses", "expires_at", "usable"]
    list_filter = ["company"]
    search_fields = ["label", "company__name"]
    readonly_fields = ["use_count", "created_at"]
    actions = ["revoke_invites"]

    def get_readonly_fields(self, request: HttpRequest, obj: CompanyInvite | None = None):  # type: ignore[override]
        return [*self.readonly_fields, "company"] if obj else self.readonly_fields

    @admin.display(boolean=True, description="Usable")
    def usable(self, invite: CompanyInvite) -> bool:
        return invite.is_usable

    def save_model(self, request: HttpRequest, obj: CompanyInvite, form, change: bool) -> None:  # type: ignore[no-untyped-def]
        if change:
            super().save_model(request, obj, form, change)
            return
        raw, obj.token_hash = token_new()
        super().save_model(request, obj, form, change)
        link = f"{settings.PUBLIC_URL}/sign-up/{obj.company.slug}?invite={raw}"
        self.message_user(
            request,
            f"Invite link (copy it now, it is not shown again): {link}",
            messages.WARNING,
        )

    @admin.action(description="Revoke selected invites")
    def revoke_invites(self, request: HttpRequest, queryset: QuerySet[CompanyInvite]) -> None:
        count = queryset.filter(revoked_at__isnull=True).update(revoked_at=timezone.now())
        self.message_user(request, f"Revoked {count} invite(s).", messages.SUCCESS)


@admin.register(EmployeeRecord)
class EmployeeRecordAdmin(admin.ModelAdmin):
    """The employers' records of their people (made at joining, by SCIM or a roster import).
    Access changes only through the actions, which end or restore the membership as the
    company admin's members page does (a leaver is signed out everywhere)."""

    list_display = ("email_address", "company", "employee_id", "source", "joined_at", "status")
    list_filter = ("company", "active", "source")
    search_fields = ("email", "employee_id", "first_name", "last_name", "external_id")
    list_select_related = ("company",)
    raw_id_fields = ("user",)
    readonly_fields = (
        "company", "user", "email", "active", "source", "joined_at", "deactivated_at",
        "created_at", "updated_at",
    )  # fmt: skip
    fields = ("company", "user", "email", "employee_id", "first_name", "last_name",
              "external_id", "active", "source", "joined_at", "deactivated_at", "created_at",
              "updated_at")  # fmt: skip
    actions = ["deactivate_members", "reactivate_members"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.display(description="Email", ordering="email")
    def email_address(self, record: EmployeeRecord) -> str:
        return breakable(record.email)

    @admin.display(description="Status", ordering="active")
    def status(self, record: EmployeeRecord) -> str:
        """Active, or deactivated and since when (one column for the two fields)."""
        if record.active:
            return "Active"
        if record.deactivated_at is None:
            return "Deactivated"
        since = date_format(timezone.localtime(record.deactivated_at), "DATE_FORMAT")
        return format_html('Deactivated<br><span class="quiet">{}</span>', since)

    @admin.action(description="Deactivate selected people (ends their access and sessions)")
    def deactivate_members(self, request: HttpRequest, queryset: QuerySet[EmployeeRecord]) -> None:
        for record in queryset:
            member_deactivate(record=record)
        self.message_user(request, f"Deactivated {queryset.count()} record(s).", messages.SUCCESS)

    @admin.action(description="Reactivate selected people")
    def reactivate_members(self, request: HttpRequest, queryset: QuerySet[EmployeeRecord]) -> None:
        for record in queryset:
            member_reactivate(record=record)
        self.message_user(request, f"Reactivated {queryset.count()} record(s).", messages.SUCCESS)


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
            "email_verified_at",
            "mfa_phone",
            "failed_sign_in_count",
            "locked_at",
            "is_active",
            "is_staff",
            "is_superuser",
            "groups",
            "user_permissions",
        )


class OnboardingAnswerInline(LabelledTabularInline):
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

    def save_related(self, request: HttpRequest, form, formsets, change: bool) -> None:
        """Companies change through the membership services (records kept, leavers signed
        out), not as a bare many-to-many write."""
        companies = form.cleaned_data.pop("companies", None)
        super().save_related(request, form, formsets, change)
        if companies is not None:
            user_companies_set(user=form.instance, companies=companies)

    fieldsets = (
        (None, {"fields": ("email", "email_verified_at", "password")}),
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
