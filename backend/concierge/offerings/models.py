"""Benefits (offered by the user's employer) and partner offers ('products'), spec §3."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models

from concierge.common.file_types import PICTURE_VALIDATORS


class OfferingCategory(models.Model):
    external_id = models.SlugField(max_length=100, unique=True)
    name = models.CharField(max_length=120)
    image = models.FileField(
        upload_to="offering-categories/",
        blank=True,
        validators=PICTURE_VALIDATORS,
    )
    position = models.PositiveIntegerField(default=0, help_text="Lower comes first.")

    class Meta:
        ordering = ["position", "id"]
        verbose_name_plural = "offering categories"

    def __str__(self) -> str:
        return self.name


class Offering(models.Model):
    class Type(models.TextChoices):
        BENEFIT = "benefit", "Benefit"
        PRODUCT = "product", "Partner offer"

    slug = models.SlugField(max_length=120, unique=True)
    type = models.CharField(max_length=10, choices=Type.choices)
    provider_name = models.CharField(max_length=200)
    provider_logo = models.FileField(
        upload_to="offering-logos/",
        blank=True,
        validators=PICTURE_VALIDATORS,
    )
    provider_logo_url = models.CharField(
        max_length=500,
        blank=True,
        help_text="Used when no logo file is uploaded. Leave both empty to show initials.",
    )
    heading = models.CharField(max_length=200)
    subheading = models.CharField(max_length=300, blank=True)
    name = models.CharField(max_length=200, help_text="The plan or product name.")
    featured = models.BooleanField(
        default=False, help_text="Shown on the Benefits & Offers landing page."
    )
    position = models.PositiveIntegerField(default=0, help_text="Lower comes first.")
    categories = models.ManyToManyField(OfferingCategory, related_name="offerings", blank=True)
    companies = models.ManyToManyField(
        "accounts.Company",
        related_name="offerings",
        blank=True,
        help_text=(
            "Benefit: the companies whose employees have it. "
            "Partner offer: leave empty for everyone, or pick the companies it targets."
        ),
    )
    request_survey = models.ForeignKey(
        "surveys.RequestSurvey",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="offerings",
        help_text="The request survey the 'Get help' button starts.",
    )
    request_survey_cta = models.CharField(
        max_length=100, blank=True, help_text="The 'Get help' button label, e.g. 'Help me enroll'."
    )
    request_survey_answer = models.ForeignKey(
        "surveys.SelectOption",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="pre-selected answer",
        help_text=(
            "The answer 'Get help' starts the survey with, which the employee can still change: "
            "an option of one of its questions, e.g. 'Medical insurance' for 'Which benefit do "
            "you need help with?'."
        ),
    )

    class Meta:
        ordering = ["position", "id"]
        indexes = [models.Index(fields=["type", "featured"])]

    def __str__(self) -> str:
        return f"{self.provider_name}: {self.heading}"

    @property
    def offers_get_help(self) -> bool:
        """Whether the details show a 'Get help' block: it needs a survey and a button label."""
        return self.request_survey_id is not None and bool(self.request_survey_cta.strip())

    def clean(self) -> None:
        if self.request_survey_id and not self.request_survey_cta.strip():
            raise ValidationError(
                {"request_survey_cta": "Add the button label: 'Get help' shows only with one."}
            )
        option = self.request_survey_answer if self.request_survey_answer_id else None
        if option is None:
            return
        if not self.request_survey_id:
            raise ValidationError(
                {"request_survey_answer": "Pick the request survey first, then one of its answers."}
            )
        if option.question.survey_id != self.request_survey_id:
            raise ValidationError(
                {"request_survey_answer": "Pick an answer of this offering's request survey."}
            )


class Section(models.Model):
    class SectionType(models.TextChoices):
        NUMBERED = "numbered", "Numbered list"
        KEY_VALUE = "key_value", "Key / value rows"
        TEXT = "text", "Text"

    offering = models.ForeignKey(Offering, on_delete=models.CASCADE, related_name="sections")
    section_type = models.CharField(max_length=10, choices=SectionType.choices)
    heading = models.CharField(max_length=200, blank=True)
    cta_url = models.CharField("call-to-action URL", max_length=500, blank=True)
    cta_text = models.CharField("call-to-action text", max_length=100, blank=True)
    position = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["offering", "position", "id"]

    def __str__(self) -> str:
        return self.heading or self.get_section_type_display()


class SectionItem(models.Model):
    """A row of a section.

    key_value rows whose key is phone, email, download or link render as links (spec §2);
    any other key is shown as a label. A text section shows its first item's value.
    """

    LINK_KEYS = ("phone", "email", "download", "link")

    section = models.ForeignKey(Section, on_delete=models.CASCADE, related_name="items")
    key = models.CharField(
        max_length=100,
        blank=True,
        help_text="key_value sections: phone, email, download, link, or any label.",
    )
    value = models.TextField()
    external_url = models.CharField(max_length=500, blank=True)
    position = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["section", "position", "id"]

    def __str__(self) -> str:
        return f"{self.key}: {self.value}" if self.key else self.value[:80]
