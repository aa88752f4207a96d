from __future__ import annotations

import re
from datetime import datetime
from typing import Any, Literal
from uuid import UUID

from ninja import Schema
from pydantic import ConfigDict, Field, ValidationInfo, field_validator

from concierge.accounts.selectors.password_reset import INVALID_RESET_TOKEN
from concierge.common.openapi import document_required
from concierge.common.validation import require_email, require_password, require_text


class InputSchema(Schema):
    """Fields default to empty so that a missing field gets the spec's §5 message, not 'Field
    required': validators must then run on defaults too."""

    model_config = ConfigDict(validate_default=True)


# The longest address the user table holds (its EmailField's 254 characters): a longer one
# would pass the email check and then fail the insert, a 500 instead of the §5 message.
ACCOUNT_EMAIL_MAX = 254


def require_account_email(value: str) -> str:
    email = require_email(value)
    if len(email) > ACCOUNT_EMAIL_MAX:
        raise ValueError("Please enter a valid email address")
    return email


class SuccessOut(Schema):
    success: bool = True


class SignInUser(InputSchema):
    model_config = ConfigDict(json_schema_extra=document_required("email", "password"))

    email: str = ""
    password: str = ""

    _email = field_validator("email")(require_account_email)
    _password = field_validator("password")(require_password)


class SignInIn(Schema):
    user: SignInUser


class SignInOut(Schema):
    success: bool = True
    expires_at: datetime
    mfa_required: bool
    mfa_requires_verification: bool


def _sign_up_user_schema(schema: dict[str, Any]) -> None:
    document_required("email", "password", "name", "last_name", "company_slug")(schema)
    # Optional, without a default: only invite links carry one (spec §3's payload has none).
    schema["properties"]["invite"].pop("default", None)


class SignUpUser(InputSchema):
    model_config = ConfigDict(json_schema_extra=_sign_up_user_schema)

    email: str = ""
    password: str = ""
    name: str = ""
    last_name: str = ""
    terms_of_service: int = 1
    company_slug: str = ""
    # The token of an invite link (`/sign-up/<slug>?invite=...`), for invite-only companies.
    invite: str = Field(default="", max_length=200)

    _email = field_validator("email")(require_account_email)
    _password = field_validator("password")(require_password)

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return require_text(value, "Please enter your first name")

    @field_validator("last_name")
    @classmethod
    def _last_name(cls, value: str) -> str:
        return require_text(value, "Please enter your last name")

    @field_validator("terms_of_service")
    @classmethod
    def _terms(cls, value: int) -> int:
        if value != 1:
            raise ValueError("Please accept the terms of service")
        return value

    @field_validator("company_slug")
    @classmethod
    def _company(cls, value: str) -> str:
        return require_text(value, "Please use the sign-up link from your employer", max_length=50)


class SignUpIn(Schema):
    user: SignUpUser


class SignUpOut(Schema):
    success: bool = True
    data: str = Field(description="A JSON string carrying the new account's email.")


class SignUpCompanyOut(Schema):
    """What anyone with a company's sign-up link may see of the company."""

    name: str
    logo_url: str | None


RESET_TOKEN_MAX = 200


def reset_token_not_too_long(value: Any) -> Any:
    """Runs before the length limit: a link run on past any real token is an invalid link, in
    the words the reset page shows for one (it has no field the visitor could shorten)."""
    if isinstance(value, str) and len(value) > RESET_TOKEN_MAX:
        raise ValueError(INVALID_RESET_TOKEN)
    return value


class PasswordResetRequestUser(InputSchema):
    model_config = ConfigDict(json_schema_extra=document_required("email"))

    email: str = ""

    _email = field_validator("email")(require_account_email)


class PasswordResetRequestIn(Schema):
    user: PasswordResetRequestUser


class PasswordResetIn(InputSchema):
    model_config = ConfigDict(
        json_schema_extra=document_required(
            "reset_password_token", "password", "password_confirmation"
        )
    )

    reset_password_token: str = Field("", max_length=RESET_TOKEN_MAX)
    password: str = ""
    password_confirmation: str = ""

    _token = field_validator("reset_password_token", mode="before")(reset_token_not_too_long)

    @field_validator("password")
    @classmethod
    def _password(cls, value: str) -> str:
        return require_password(value, empty_message="Please enter a new password")

    @field_validator("password_confirmation")
    @classmethod
    def _confirmation(cls, value: str) -> str:
        return require_password(value, empty_message="Please confirm your new password")


class PasswordResetCheckIn(InputSchema):
    model_config = ConfigDict(json_schema_extra=document_required("reset_password_token"))

    reset_password_token: str = Field("", max_length=RESET_TOKEN_MAX)

    _token = field_validator("reset_password_token", mode="before")(reset_token_not_too_long)


class CompanyOut(Schema):
    id: int
    name: str
    image_url: str | None


class CurrentUserOut(Schema):
    external_id: UUID
    initials: str
    full_name: str
    first_name: str
    last_name: str
    email: str
    request_count: int
    companies: list[CompanyOut]
    is_internal: bool
    onboarding_required: bool
    mfa_enabled: bool
    mfa_required: bool
    mfa_enrollment_available: bool
    is_concierge: bool
    # A work-email company's content stays hidden until the emailed link is followed.
    email_verification_pending: bool
    pending_email: str | None = Field(
        None, description="A new address asked for, waiting for its emailed link to be opened."
    )


class EmailVerifyIn(InputSchema):
    model_config = ConfigDict(json_schema_extra=document_required("token"))

    token: str = Field(default="", max_length=1000)


def _otp_schema(schema: dict[str, Any]) -> None:
    document_required("otp")(schema)
    # Optional, without a default: the spec's payload (§7) is `otp` alone, an SMS code.
    schema["properties"]["method"].pop("default", None)


class OtpIn(InputSchema):
    """The MFA step. Without `method` it checks the SMS code (spec §7); `totp` an authenticator
    app's code, `recovery` a recovery code, `passkey` the `credential` from
    `navigator.credentials.get()` (options from `POST /mfa/passkey/options`)."""

    model_config = ConfigDict(json_schema_extra=_otp_schema)

    method: Literal["sms", "totp", "recovery", "passkey"] = "sms"
    otp: str = ""
    credential: dict[str, Any] | None = None

    @field_validator("otp")
    @classmethod
    def _otp(cls, value: str, info: ValidationInfo) -> str:
        method = info.data.get("method", "sms")
        value = (value or "").strip()
        if method == "passkey":
            return ""
        if method == "recovery":
            if not value:
                raise ValueError("Please enter one of your recovery codes")
            if len(value) > 20:
                raise ValueError("Please enter a valid recovery code")
            return value
        if not value:
            if method == "totp":
                raise ValueError("Please enter the code from your authenticator app")
            raise ValueError("Please enter the verification code sent to your phone number")
        if not re.fullmatch(r"\d{6}", value):
            raise ValueError("Please enter a valid verification code")
        return value


class MfaEnrollIn(InputSchema):
    model_config = ConfigDict(json_schema_extra=document_required("mfa_number"))

    mfa_number: str = ""

    @field_validator("mfa_number")
    @classmethod
    def _phone(cls, value: str) -> str:
        digits = re.sub(r"\D", "", value or "")
        if len(digits) == 11 and digits.startswith("1"):
            digits = digits[1:]
        if len(digits) != 10:
            raise ValueError("Please enter a valid phone number")
        return digits


class OnboardingAnswerIn(Schema):
    answer_id: int
    value: Any = None


class OnboardingAnswersIn(Schema):
    answers: list[OnboardingAnswerIn] = Field(max_length=50)


class OnboardingAnswersOut(Schema):
    answers: list[OnboardingAnswerIn]


class MfaMethodsOut(Schema):
    """The ways to pass the MFA step, strongest first: passkey, totp, sms; then recovery."""

    methods: list[str]
    phone_hint: str = Field(description="The enrolled phone's last digits, masked; or empty.")


class MfaFactorOut(Schema):
    id: str = Field(description='The factor\'s id, or "sms" for the phone.')
    kind: str = Field(description="passkey, totp or sms")
    name: str
    created_at: datetime | None
    last_used_at: datetime | None


class MfaFactorsOut(Schema):
    factors: list[MfaFactorOut]
    recovery_codes_left: int
    company_requires_mfa: bool
    add_needs_confirm: bool = Field(
        description="Whether adding a sign-in method needs `POST /mfa/confirm` first: the "
        "session proved its person (signed in, or confirmed) more than 15 minutes ago."
    )


class FreshCheckIn(Schema):
    """A fresh proof for a sensitive change: the password, or a code from another factor."""

    password: str = Field(default="", max_length=200)
    code: str = Field(default="", max_length=20)


class ProfileNameIn(InputSchema):
    model_config = ConfigDict(json_schema_extra=document_required("first_name", "last_name"))

    first_name: str = Field(default="", max_length=1000)
    last_name: str = Field(default="", max_length=1000)


class EmailChangeIn(FreshCheckIn):
    """A new email address, with a fresh proof (the password, or a code from another factor)."""

    model_config = ConfigDict(json_schema_extra=document_required("email"))

    email: str = Field(default="", max_length=1000)


class EmailChangeOut(Schema):
    pending_email: str = Field(description="Where the confirmation link was sent.")


class EmailChangeConfirmIn(InputSchema):
    model_config = ConfigDict(json_schema_extra=document_required("token"))

    token: str = Field(default="", max_length=1000)


class PasswordChangeIn(FreshCheckIn):
    """A new password, with the current one (`password`) or a code from another factor."""

    model_config = ConfigDict(
        json_schema_extra=document_required("new_password", "new_password_confirmation")
    )

    new_password: str = Field(default="", max_length=1000)
    new_password_confirmation: str = Field(default="", max_length=1000)


class FactorRenameIn(InputSchema):
    model_config = ConfigDict(json_schema_extra=document_required("name"))

    name: str = Field(default="", max_length=1000)


class TotpEnrolmentOut(Schema):
    factor_id: int
    secret: str
    otpauth_uri: str
    qr_data_uri: str = Field(description="The otpauth URI as a QR code: an SVG data URI.")


class TotpConfirmIn(InputSchema):
    model_config = ConfigDict(json_schema_extra=document_required("code"))

    code: str = ""
    name: str = Field(default="", max_length=100)

    @field_validator("code")
    @classmethod
    def _code(cls, value: str) -> str:
        value = (value or "").strip()
        if not value:
            raise ValueError("Please enter the code from your authenticator app")
        if not re.fullmatch(r"\d{6}", value):
            raise ValueError("Please enter a valid verification code")
        return value


class PasskeyRegisterIn(Schema):
    credential: dict[str, Any]
    name: str = Field(default="", max_length=100)


class PasskeySignInIn(Schema):
    credential: dict[str, Any]


class WebAuthnOptionsOut(Schema):
    options: dict[str, Any] = Field(description="PublicKeyCredential options, JSON-encoded.")


class RecoveryCodesOut(Schema):
    success: bool = True
    recovery_codes: list[str] | None = Field(
        description="Shown once: at the first enrolment of an app or passkey, or when renewed."
    )


class SignedInDeviceOut(Schema):
    id: int
    device: str = Field(
        description="What the browser that signed in is called: 'Chrome on Windows'."
    )
    signed_in_at: datetime
    current: bool = Field(description="The device asking: it signs out with Sign Out.")


class SignedInDevicesOut(Schema):
    devices: list[SignedInDeviceOut]


class DevicesSignedOutOut(Schema):
    signed_out: int = Field(description="How many other devices were signed out.")
