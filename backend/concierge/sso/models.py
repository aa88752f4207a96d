"""Company sign-in: each company's identity provider (OIDC or SAML 2.0), the sign-ins under
way, the ids already used (so no assertion or nonce works twice) and the single-use codes that
hand a finished sign-in's session to the web app."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class IdentityProvider(models.Model):
    """A company's own sign-in. The client secret is stored encrypted (services.secrets)."""

    class Kind(models.TextChoices):
        OIDC = "oidc", "OpenID Connect"
        SAML = "saml", "SAML 2.0"

    company = models.OneToOneField(
        "accounts.Company", on_delete=models.CASCADE, related_name="identity_provider"
    )
    kind = models.CharField(max_length=4, choices=Kind.choices)
    enabled = models.BooleanField(
        default=True, help_text="Offer 'Continue with your company's sign-in' on the sign-in page."
    )
    # OpenID Connect: the endpoints come from <issuer>/.well-known/openid-configuration.
    oidc_issuer = models.URLField(blank=True, verbose_name="OIDC issuer")
    oidc_client_id = models.CharField(max_length=255, blank=True, verbose_name="OIDC client id")
    oidc_client_secret_encrypted = models.TextField(blank=True, editable=False)
    oidc_scopes = models.CharField(max_length=255, default="openid email profile")
    # SAML 2.0: the identity provider's metadata, pasted or fetched from its address.
    saml_metadata_xml = models.TextField(blank=True, verbose_name="SAML IdP metadata (XML)")
    saml_metadata_url = models.URLField(blank=True, verbose_name="SAML IdP metadata URL")
    # Attribute mapping: the claim (OIDC) or attribute (SAML) that carries each field.
    email_attribute = models.CharField(max_length=255, default="email")
    first_name_attribute = models.CharField(max_length=255, default="given_name")
    last_name_attribute = models.CharField(max_length=255, default="family_name")
    employee_id_attribute = models.CharField(max_length=255, blank=True, default="employee_id")
    create_accounts = models.BooleanField(
        default=False,
        verbose_name="create accounts at first sign-in",
        help_text="A person the provider signs in who has no account yet gets one (just in time).",
    )
    sso_required = models.BooleanField(
        default=False,
        verbose_name="SSO required",
        help_text="Members may not sign in with a password, except the break-glass account.",
    )
    break_glass_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text="The one account that may still sign in with its password when SSO is required.",
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    updated_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        verbose_name = "identity provider"

    def __str__(self) -> str:
        return f"{self.get_kind_display()} sign-in of {self.company}"


class SignInAttempt(models.Model):
    """A sign-in sent to the provider, found again by its `state` (OIDC) or RelayState (SAML)
    when the person comes back; usable once, for a few minutes."""

    class Purpose(models.TextChoices):
        SIGN_IN = "sign_in"
        TEST = "test"  # the company admin's "test sign-in": nobody is signed in

    provider = models.ForeignKey(IdentityProvider, on_delete=models.CASCADE)
    state_hash = models.CharField(max_length=64, unique=True)
    purpose = models.CharField(max_length=10, choices=Purpose.choices)
    nonce = models.CharField(max_length=100, blank=True)
    code_verifier = models.CharField(max_length=128, blank=True)
    saml_request_id = models.CharField(max_length=100, blank=True)
    # The hash of a secret in a cookie of the browser that started the sign-in: an OIDC
    # callback in another browser is refused (login CSRF).
    browser_hash = models.CharField(max_length=64, blank=True, db_default="")
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)


class UsedId(models.Model):
    """A SAML assertion id or OIDC nonce already accepted, kept until it could no longer be
    valid anyway: a second use is a replay."""

    key = models.CharField(max_length=300, unique=True)
    expires_at = models.DateTimeField(db_index=True)


class Handoff(models.Model):
    """A finished company sign-in waiting for the web app: a short-lived single-use code in the
    callback address's fragment (never the session token), exchanged by POST."""

    code_hash = models.CharField(max_length=64, unique=True)
    # The person signed in, or None for the company admin's test sign-in (see `test_result`).
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    # The provider said the person passed MFA: the session's MFA step is passed too.
    mfa_done = models.BooleanField(default=False)
    test_result = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
