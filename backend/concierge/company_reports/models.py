"""The company admin role: a member of a company who sees its aggregate report at /company."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone


class CompanyAdmin(models.Model):
    """A company membership with the company admin role: aggregates only, never a request's
    name, answers or messages."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="company_admin_roles"
    )
    company = models.ForeignKey("accounts.Company", on_delete=models.CASCADE, related_name="admins")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = "company admin"
        constraints = [
            models.UniqueConstraint(fields=["user", "company"], name="one_admin_role_per_member")
        ]

    def __str__(self) -> str:
        return f"{self.user} admin of {self.company}"

    def clean(self) -> None:
        if (
            self.user_id
            and self.company_id
            and not self.user.companies.filter(pk=self.company_id).exists()
        ):
            raise ValidationError("Only a member of the company can be its admin.")
