from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.admin import widgets
from django.db import models

from concierge.sso.models import IdentityProvider
from concierge.sso.services import oidc, saml
from concierge.sso.services.settings import client_secret_set


def _https_by_default(field: models.Field, **kwargs: Any) -> forms.Field | None:
    """An address typed without its scheme (idp.example.com) is taken as https://, never
    http://: an identity provider's addresses are https."""
    if isinstance(field, models.URLField):
        kwargs.setdefault("assume_scheme", "https")
    return field.formfield(**kwargs)


class IdentityProviderForm(forms.ModelForm):
    oidc_client_secret = forms.CharField(
        required=False,
        widget=forms.PasswordInput(render_value=False),
        label="OIDC client secret",
        help_text="Stored encrypted; leave empty to keep the current one.",
    )

    class Meta:
        model = IdentityProvider
        formfield_callback = _https_by_default
        fields = [
            "company",
            "kind",
            "enabled",
            "oidc_issuer",
            "oidc_client_id",
            "oidc_scopes",
            "saml_metadata_xml",
            "saml_metadata_url",
            "email_attribute",
            "first_name_attribute",
            "last_name_attribute",
            "employee_id_attribute",
            "create_accounts",
            "sso_required",
            "break_glass_user",
        ]

    def clean(self) -> dict:
        """What the kind of sign-in needs, and a break-glass account of the company's members."""
        data = super().clean() or {}
        if data.get("kind") == IdentityProvider.Kind.OIDC:
            for name in ("oidc_issuer", "oidc_client_id"):
                if not data.get(name):
                    self.add_error(name, "Needed for OpenID Connect.")
            if (
                not data.get("oidc_client_secret")
                and not self.instance.oidc_client_secret_encrypted
            ):
                self.add_error("oidc_client_secret", "Needed for OpenID Connect.")
        elif data.get("kind") == IdentityProvider.Kind.SAML and not (
            data.get("saml_metadata_xml") or data.get("saml_metadata_url")
        ):
            self.add_error("saml_metadata_xml", "Paste the metadata or give its address.")
        glass, company = data.get("break_glass_user"), data.get("company")
        if glass and company and not glass.companies.filter(pk=company.pk).exists():
            self.add_error("break_glass_user", "The break-glass account must be a member.")
        return data

    def save(self, commit: bool = True) -> IdentityProvider:
        provider = super().save(commit=False)
        if secret := self.cleaned_data.get("oidc_client_secret"):
            client_secret_set(provider, secret)
        if commit:
            provider.save()
        return provider


@admin.register(IdentityProvider)
class IdentityProviderAdmin(admin.ModelAdmin):
    form = IdentityProviderForm
    formfield_overrides = {
        models.URLField: {"widget": widgets.AdminURLFieldWidget, "assume_scheme": "https"},
    }
    list_display = ("company", "kind", "enabled", "create_accounts", "sso_required")
    list_filter = ("kind", "enabled", "sso_required")
    search_fields = ("company__name", "company__slug")
    raw_id_fields = ("break_glass_user",)
    readonly_fields = ("our_addresses",)
    fieldsets = (
        (None, {"fields": ("company", "kind", "enabled", "our_addresses")}),
        (
            "OpenID Connect",
            {"fields": ("oidc_issuer", "oidc_client_id", "oidc_client_secret", "oidc_scopes")},
        ),
        ("SAML 2.0", {"fields": ("saml_metadata_xml", "saml_metadata_url")}),
        (
            "Attribute mapping",
            {
                "fields": (
                    "email_attribute",
                    "first_name_attribute",
                    "last_name_attribute",
                    "employee_id_attribute",
                )
            },
        ),
        ("Switches", {"fields": ("create_accounts", "sso_required", "break_glass_user")}),
    )

    @admin.display(description="Register at the identity provider")
    def our_addresses(self, obj: IdentityProvider) -> str:
        if obj.pk is None:
            return "Shown once saved."
        return (
            f"OIDC redirect URI: {oidc.redirect_uri()} · SAML SP metadata (entity id): "
            f"{saml.entity_id(obj)} · SAML ACS: {saml.acs_url(obj)}"
        )
