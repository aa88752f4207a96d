from __future__ import annotations

import uuid

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, PermissionsMixin
from django.contrib.auth.models import UserManager as DjangoUserManager
from django.db import models
from django.utils import timezone

from concierge.common.file_types import PICTURE_VALIDATORS


class Company(models.Model):
    """An employer that sponsors access for its employees; visitors sign up under its slug."""

    slug = models.SlugField(unique=True)
    name = models.CharField(max_length=200)
    logo = models.FileField(upload_to="company-logos/", blank=True, validators=PICTURE_VALIDATORS)
    requires_mfa = models.BooleanField(
        default=False, help_text="Employees must enrol a phone for SMS codes."
    )

    class JoinPolicy(models.TextChoices):
        OPEN = "open", "Open: anyone with the sign-up link"
        EMAIL_DOMAIN = "email_domain", "Work email: allowed domains, email verified first"
        INVITE = "invite", "Invite links only"
        ROSTER = "roster", "Roster only: people on the company's roster (SCIM or CSV import)"

    join_policy = models.CharField(
        max_length=20,
        choices=JoinPolicy.choices,
        default=JoinPolicy.OPEN,
        help_text="How people join at /sign-up/<slug>. Work email: sign-up needs an address at "
        "an allowed domain, and company content shows once the address is verified. Invite "
        "links: create them under 'Company invites'.",
    )
    allowed_email_domains = models.TextField(
        blank=True,
        help_text="For 'Work email': one domain per line (e.g. acme.com); subdomains are not "
        "included unless listed.",
    )
    reply_by_email_enabled = models.BooleanField(
        "Reply by email",
        default=True,
        db_default=True,
        help_text="Employees may answer a notification email to write in their request's "
        "thread. Off: such replies are refused with a short note to the sender.",
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["name"]
        verbose_name_plural = "companies"

    def __str__(self) -> str:
        return self.name

    @property
    def is_internal(self) -> bool:
        return self.name in settings.INTERNAL_COMPANY_NAMES

    @property
    def email_domains(self) -> list[str]:
        """The allowed domains, lower-case, without '@' or blanks."""
        lines = self.allowed_email_domains.replace(",", "\n").splitlines()
        return [d.strip().lstrip("@").lower() for d in lines if d.strip().lstrip("@")]

    @property
    def requires_verified_email(self) -> bool:
        return self.join_policy == self.JoinPolicy.EMAIL_DOMAIN


class CompanyInvite(models.Model):
    """An invite link to join a company with the 'invite' policy. Only the token's SHA-256 is
    stored: the link is shown once, when the invite is created."""

    company = models.ForeignKey(Company, on_delete=models.CASCADE, related_name="invites")
    label = models.CharField(
        max_length=200, blank=True, help_text="Who it is for, e.g. 'Jane Doe' or 'Sales team'."
    )
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    max_uses = models.PositiveIntegerField(
        default=1,
        help_text="How many accounts may join with it: 1 for one person's invite, more for a "
        "link shared with a team.",
    )
    use_count = models.PositiveIntegerField(default=0, editable=False)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    expires_at = models.DateTimeField(help_text="The link stops working after this moment.")
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.company} invite {self.label or self.pk}"

    @property
    def is_usable(self) -> bool:
        return (
            self.revoked_at is None
            and self.use_count < self.max_uses
            and self.expires_at > timezone.now()
        )


class UserManager(DjangoUserManager["User"]):
    def _create_user(self, username, email, password, **extra_fields):  # type: ignore[override]
        email = self.normalize_email(email or username).lower()
        user = self.model(email=email, **extra_fields)
        user.set_password(password)
        user.save(using=self._db)
        return user

    def create_user(self, email=None, password=None, **extra_fields):  # type: ignore[override]
        extra_fields.setdefault("is_staff", False)
        extra_fields.setdefault("is_superuser", False)
        return self._create_user(email, email, password, **extra_fields)

    def create_superuser(self, email=None, password=None, **extra_fields):  # type: ignore[override]
        extra_fields.setdefault("is_staff", True)
        extra_fields.setdefault("is_superuser", True)
        return self._create_user(email, email, password, **extra_fields)


class User(AbstractBaseUser, PermissionsMixin):
    external_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    email = models.EmailField(unique=True)
    first_name = models.CharField(max_length=150)
    last_name = models.CharField(max_length=150, blank=True)
    companies = models.ManyToManyField(Company, related_name="members", blank=True)
    request_count = models.PositiveIntegerField(default=0)
    is_active = models.BooleanField(default=True)
    is_staff = models.BooleanField(default=False)
    date_joined = models.DateTimeField(default=timezone.now)
    onboarded_at = models.DateTimeField(null=True, blank=True)
    # Set by the link emailed at sign-up; companies with the work-email policy show their
    # content only to verified members.
    email_verified_at = models.DateTimeField(null=True, blank=True)
    # A new address asked for on the Account page: it replaces `email` once the link sent to
    # it is opened (only the latest asked-for address can be confirmed).
    pending_email = models.EmailField(blank=True)

    # Second factor: a verified phone number makes every sign-in ask for an SMS code.
    mfa_phone = models.CharField(max_length=20, blank=True)

    # Lockout after repeated failed sign-ins.
    failed_sign_in_count = models.PositiveIntegerField(default=0)
    locked_at = models.DateTimeField(null=True, blank=True)
    unlock_token_hash = models.CharField(max_length=64, blank=True, db_index=True)

    objects = UserManager()

    USERNAME_FIELD = "email"
    EMAIL_FIELD = "email"
    REQUIRED_FIELDS = ["first_name"]

    class Meta:
        ordering = ["email"]

    def __str__(self) -> str:
        return self.email

    @property
    def full_name(self) -> str:
        return " ".join(part for part in (self.first_name, self.last_name) if part)

    def get_full_name(self) -> str:
        return self.full_name

    def get_short_name(self) -> str:
        return self.first_name


class AuthToken(models.Model):
    """A signed-in session: an opaque bearer token, stored only as its SHA-256."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="auth_tokens")
    key_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    # What the Account page calls the device it was signed in from ("Chrome on Windows").
    device = models.CharField(max_length=100, blank=True, default="", db_default="")
    revoked_at = models.DateTimeField(null=True, blank=True)
    mfa_token_hash = models.CharField(max_length=64, blank=True)
    # When the person last proved themselves again in this session (password or code), for
    # changes that need a recent proof; signing in is one (created_at).
    confirmed_at = models.DateTimeField(null=True, blank=True)
    # Wrong authenticator-app or recovery codes in this session: too many void it.
    mfa_failed_attempts = models.PositiveSmallIntegerField(default=0)

    class Meta:
        indexes = [models.Index(fields=["user", "expires_at"])]


class OneTimeCode(models.Model):
    """A 6-digit SMS code for sign-in or for confirming a phone being enrolled."""

    class Purpose(models.TextChoices):
        SIGN_IN = "sign_in"
        ENROLL = "enroll"

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="one_time_codes")
    purpose = models.CharField(max_length=10, choices=Purpose.choices)
    phone = models.CharField(max_length=20)
    code_hash = models.CharField(max_length=64)
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    failed_attempts = models.PositiveSmallIntegerField(default=0)
    used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["user", "created_at"])]


class PasswordResetToken(models.Model):
    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="password_resets")
    token_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)


class OnboardingAnswer(models.Model):
    """One onboarding answer by its spec §3 answer id (132 home, 104 phone, ...)."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="onboarding_answers")
    answer_id = models.PositiveIntegerField()
    value = models.JSONField(null=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "answer_id"], name="one_answer_per_id")
        ]
        ordering = ["answer_id"]


class MfaFactor(models.Model):
    """A second factor beyond the SMS code (which stays `User.mfa_phone`): an authenticator
    app (TOTP, RFC 6238) or a passkey (WebAuthn)."""

    class Kind(models.TextChoices):
        TOTP = "totp", "Authenticator app"
        PASSKEY = "passkey", "Passkey"

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="mfa_factors")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    name = models.CharField(max_length=100)
    created_at = models.DateTimeField(default=timezone.now)
    # An authenticator app counts once its first code was checked; a passkey at once.
    confirmed_at = models.DateTimeField(null=True, blank=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    # TOTP: the shared secret, encrypted (see accounts.crypto), and the last time step used,
    # so that a code works once.
    totp_secret_encrypted = models.TextField(blank=True)
    totp_last_step = models.BigIntegerField(default=0)
    # Passkey: the credential as the authenticator registered it.
    credential_id = models.CharField(max_length=1400, blank=True)
    public_key = models.BinaryField(blank=True, default=b"")
    sign_count = models.BigIntegerField(default=0)
    transports = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["credential_id"],
                condition=~models.Q(credential_id=""),
                name="unique_passkey_credential",
            )
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} of {self.user}"


class RecoveryCode(models.Model):
    """A single-use code for signing in without the usual second factor (only its hash)."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="recovery_codes")
    code_hash = models.CharField(max_length=64)
    created_at = models.DateTimeField(default=timezone.now)
    used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["user", "code_hash"])]


class WebAuthnChallenge(models.Model):
    """A WebAuthn challenge handed to the browser, found again by its hash, usable once."""

    class Purpose(models.TextChoices):
        REGISTER = "register"
        MFA = "mfa"
        SIGN_IN = "sign_in"

    challenge_hash = models.CharField(max_length=64, unique=True)
    purpose = models.CharField(max_length=10, choices=Purpose.choices)
    user = models.ForeignKey(User, on_delete=models.CASCADE, null=True, blank=True)
    auth_token = models.ForeignKey(AuthToken, on_delete=models.CASCADE, null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)


class AccountEmail(models.Model):
    """An account email queued for a user, kept for an hour: its count per kind caps how many
    can be sent (`ACCOUNT_EMAILS_PER_HOUR`), whoever asks and from wherever."""

    class Kind(models.TextChoices):
        PASSWORD_RESET = "password_reset"
        UNLOCK = "unlock"
        EMAIL_VERIFICATION = "email_verification"
        SIGN_UP_NOTICE = "sign_up_notice"
        EMAIL_CHANGE = "email_change"

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="account_emails")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    queued_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["user", "kind", "queued_at"])]


class EmployeeRecord(models.Model):
    """The employer's record of one person: made when they join (sign-up, company sign-in),
    by SCIM provisioning or by a roster import, before or after they have an account.

    Access follows `User.companies` alone: a row there is an active membership. Deactivating
    a record removes that row (and the person's sessions, see services.memberships), so no
    query anywhere can grant a leaver access; the record keeps who they were for the
    employer, the report and a later reactivation."""

    class Source(models.TextChoices):
        SIGN_UP = "sign_up", "Sign-up"
        SSO = "sso", "Company sign-in"
        SCIM = "scim", "SCIM provisioning"
        ROSTER = "roster", "Roster import"
        ADMIN = "admin", "Admin"

    company = models.ForeignKey(Company, on_delete=models.CASCADE, related_name="employee_records")
    user = models.ForeignKey(
        User, on_delete=models.SET_NULL, null=True, blank=True, related_name="employee_records"
    )
    # Lower-case; the key that links a record to the account with that address.
    email = models.EmailField()
    employee_id = models.CharField(max_length=100, blank=True)
    first_name = models.CharField(max_length=150, blank=True)
    last_name = models.CharField(max_length=150, blank=True)
    # The identity provider's own id for the person (SCIM `externalId`).
    external_id = models.CharField(max_length=255, blank=True)
    active = models.BooleanField(default=True)
    source = models.CharField(max_length=10, choices=Source.choices)
    joined_at = models.DateTimeField(null=True, blank=True)
    deactivated_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["company", "email"]
        constraints = [
            models.UniqueConstraint(fields=["company", "email"], name="one_record_per_email")
        ]
        indexes = [models.Index(fields=["user", "company"])]

    def __str__(self) -> str:
        return f"{self.email} at {self.company}"
