"""The closed sets of the requests domain, shared by its models and the desk's schemas."""

from __future__ import annotations

from django.db import models


class RequestStatus(models.TextChoices):
    """A request's status; the labels are spec §4 'Request status'."""

    OPEN = "open", "In Queue"
    IN_PROGRESS = "in_progress", "In Progress"
    CLOSED = "closed", "Completed"


class MessageSource(models.TextChoices):
    """Who wrote a message: the employee, or a concierge."""

    USER = "user", "Employee"
    LIFE_CONCIERGE = "life_concierge", "Concierge"
