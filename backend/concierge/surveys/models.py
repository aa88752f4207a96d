"""Survey categories, request surveys and their questions, and a user's answers (spec §3, §4)."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.functions import Coalesce
from django.utils import timezone

from concierge.accounts import onboarding
from concierge.common.file_types import PICTURE_VALIDATORS


class SurveyCategory(models.Model):
    """A group of request surveys, shown with one icon of the spec §9 category icon set."""

    class Icon(models.TextChoices):
        CAR = "car", "Car"
        FAMILY = "family", "Family"
        FINANCES = "finances", "Finances"
        HOME = "home", "Home"
        HOME_MOVING = "home_moving", "Home / moving"
        MEDICAL = "medical", "Medical / employer benefits"
        PET = "pet", "Pet"
        TRAVEL = "travel", "Travel"
        WILDCARD = "wildcard", "Wildcard (fallback)"

    name = models.CharField(max_length=120)
    icon = models.CharField(max_length=20, choices=Icon.choices, default=Icon.WILDCARD)
    image = models.FileField(
        upload_to="survey-categories/",
        blank=True,
        validators=PICTURE_VALIDATORS,
        help_text="Optional picture; the app shows the icon when there is none.",
    )
    position = models.PositiveIntegerField(default=0, help_text="Lower comes first.")
    recommended = models.BooleanField(
        default=False, help_text="Suggested on the Dashboard as a request idea."
    )

    class Meta:
        ordering = ["position", "id"]
        verbose_name_plural = "survey categories"

    def __str__(self) -> str:
        return self.name


class RequestSurvey(models.Model):
    """A guided question flow that becomes a request. Ids are stable: 720 and 603 are fixed (§9).

    An explicit id may be given when creating one (the seed does); the rest get the next id.
    """

    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=100, unique=True)
    for_alpha = models.BooleanField(
        default=True, help_text="Offered in the guided request flow of the web app."
    )
    category = models.ForeignKey(
        SurveyCategory, on_delete=models.PROTECT, related_name="request_surveys"
    )
    description = models.TextField(blank=True)
    position = models.PositiveIntegerField(default=0, help_text="Lower comes first.")

    class Meta:
        ordering = ["position", "id"]

    def __str__(self) -> str:
        return self.name


class Question(models.Model):
    class InputType(models.TextChoices):
        TEXT = "TextInput", "Text"
        MULTILINE_TEXT = "MultilineTextInput", "Multi-line text"
        PHONE_NUMBER = "PhoneNumberInput", "Phone number"
        MANAGED_EMAIL = "ManagedEmailInput", "Email"
        SINGLE_SELECT = "SingleSelectInput", "Single choice"
        SINGLE_UPLOAD = "SingleUploadInput", "File upload"

    # The onboarding answers (spec §3) a question can be pre-filled from.
    UNIVERSAL_ANSWERS = [(a.value, f"{a.label} ({a.value})") for a in onboarding.TEXT]

    survey = models.ForeignKey(RequestSurvey, on_delete=models.CASCADE, related_name="questions")
    position = models.PositiveIntegerField(
        default=0, help_text="Questions are asked in this order."
    )
    label = models.CharField(max_length=500)
    input_type = models.CharField(max_length=30, choices=InputType.choices)
    optional = models.BooleanField(default=False, help_text="The user may skip it.")
    universal_answer = models.PositiveIntegerField(
        null=True,
        blank=True,
        choices=UNIVERSAL_ANSWERS,
        help_text="Pre-fill the answer from this onboarding answer.",
    )
    show_if_question = models.ForeignKey(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="dependent_questions",
        help_text="Ask this question only when that earlier question was answered…",
    )
    show_if_value = models.CharField(
        max_length=200, blank=True, help_text="…with this value (a select option's value)."
    )

    class Meta:
        ordering = ["survey", "position", "id"]

    def __str__(self) -> str:
        return self.label

    def clean(self) -> None:
        errors: dict[str, str] = {}
        other = self.show_if_question if self.show_if_question_id else None
        if other is not None:
            if self.pk and other.pk == self.pk:
                errors["show_if_question"] = "A question cannot depend on itself."
            elif other.survey_id != self.survey_id:
                errors["show_if_question"] = "Pick a question of the same survey."
            elif other.position >= self.position:
                errors["show_if_question"] = "Pick a question asked before this one."
            if not self.show_if_value:
                errors["show_if_value"] = "Give the answer that makes this question appear."
        elif self.show_if_value:
            errors["show_if_question"] = "Pick the question whose answer this depends on."
        if errors:
            raise ValidationError(errors)


class SelectOption(models.Model):
    question = models.ForeignKey(Question, on_delete=models.CASCADE, related_name="select_options")
    label = models.CharField(max_length=200)
    value = models.CharField(max_length=200)
    position = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["question", "position", "id"]
        constraints = [
            models.UniqueConstraint(fields=["question", "value"], name="one_option_per_value")
        ]

    def __str__(self) -> str:
        return self.label


class UserRequestSurvey(models.Model):
    """One user's run through a request survey; submitted once every question is answered."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="request_surveys"
    )
    survey = models.ForeignKey(
        RequestSurvey, on_delete=models.PROTECT, related_name="user_request_surveys"
    )
    offering_id = models.PositiveBigIntegerField(
        null=True,
        blank=True,
        help_text="The offering whose 'Get help' began this run; empty when begun elsewhere.",
    )
    created_at = models.DateTimeField(default=timezone.now)
    submitted_at = models.DateTimeField(null=True, blank=True)
    service_request = models.OneToOneField(
        "servicerequests.ServiceRequest",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="user_request_survey",
        help_text="The request created when the survey was submitted.",
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["user", "created_at"])]
        constraints = [
            # At most one run in progress per user, survey and offering (none counts as one):
            # beginning again from the same place resumes it; another offering's answers are
            # never carried over.
            # "No offering" counts as one value (0), on PostgreSQL and SQLite alike.
            models.UniqueConstraint(
                "user",
                "survey",
                Coalesce("offering_id", 0),
                condition=models.Q(submitted_at__isnull=True),
                name="one_open_run_per_user_survey_and_offering",
            )
        ]

    def __str__(self) -> str:
        return f"{self.survey} ({self.user})"


class UserRequestAnswer(models.Model):
    """An answer as given; `value` null means the (optional) question was skipped."""

    user_request_survey = models.ForeignKey(
        UserRequestSurvey, on_delete=models.CASCADE, related_name="answers"
    )
    question = models.ForeignKey(Question, on_delete=models.PROTECT, related_name="answers")
    value = models.JSONField(null=True, blank=True)
    upload = models.ForeignKey(
        "uploads.Upload",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="survey_answers",
        help_text="For a file answer: the upload whose key is the value.",
    )
    answered_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["user_request_survey", "question__position", "question_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["user_request_survey", "question"], name="one_answer_per_question"
            )
        ]

    def __str__(self) -> str:
        return f"{self.question}: {self.value!r}"
