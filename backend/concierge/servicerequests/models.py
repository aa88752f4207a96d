"""Requests an employee hands to the concierge, and the messages of their threads (spec §3)."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.db.models import F
from django.db.models.functions import Coalesce
from django.db.models.lookups import IsNull
from django.utils import timezone

from concierge.servicerequests.choices import MessageSource, RequestStatus

# The desk's 'due soonest' order: requests with a running clock by deadline, then the others
# oldest first. Non-null keys, so a page's position is one row comparison an index can seek to.
DUE_ORDER_KEYS = (
    IsNull(F("due_at"), True),
    Coalesce(F("due_at"), F("issued_at")),
    F("issued_at"),
    F("id"),
)


class ServiceRequest(models.Model):
    """A task handed to the concierge."""

    Status = RequestStatus

    external_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="service_requests"
    )
    name = models.CharField(max_length=200)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.OPEN)
    details = models.TextField(blank=True)
    survey_category = models.ForeignKey(
        "surveys.SurveyCategory",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="service_requests",
    )
    assignee = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="assigned_service_requests",
        help_text="The concierge working this request.",
    )
    issued_at = models.DateTimeField(default=timezone.now)
    last_message_at = models.DateTimeField(null=True, blank=True)
    seen_by_employee_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the employee last opened the thread (replies before it are seen).",
    )
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)
    completed_at = models.DateTimeField(
        null=True, blank=True, help_text="When a concierge last completed it (null while open)."
    )
    # Nullable so that SQLite adds the column in place (a rebuilt table would lose the
    # triggers on it); null while not completed.
    completed_from = models.CharField(  # noqa: DJ001
        max_length=20,
        choices=Status.choices,
        null=True,
        blank=True,
        editable=False,
        help_text="The status it had when it was last completed: what undoing that completion "
        "restores (null while not completed).",
    )
    due_at = models.DateTimeField(
        null=True,
        blank=True,
        editable=False,
        help_text="The reply-time clock's next deadline while it runs (null while paused or "
        "stopped): the clock's own, copied by a database trigger for the desk's order.",
    )
    last_message = models.ForeignKey(
        "Message",
        null=True,
        blank=True,
        editable=False,
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        db_index=False,
        related_name="+",
        help_text="The newest message of the thread, kept by a database trigger (the desk's "
        "queue shows it).",
    )
    last_reply_at = models.DateTimeField(
        null=True,
        blank=True,
        editable=False,
        help_text="When the newest message not the employee's was written, kept by a database "
        "trigger (the unread marks compare it with seen_by_employee_at).",
    )

    class Meta:
        ordering = ["-issued_at", "-id"]
        verbose_name = "request"
        indexes = [
            models.Index(fields=["user", "status", "-issued_at"], name="request_user_status_idx"),
            models.Index(fields=["status", "issued_at", "id"], name="request_status_issued_idx"),
            # The desk's orders and tab counts (servicerequests.selectors, the desk).
            models.Index(F("status"), *DUE_ORDER_KEYS, name="request_desk_due_idx"),
            models.Index(
                F("assignee"), F("status"), *DUE_ORDER_KEYS, name="request_desk_assignee_due_idx"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Message(models.Model):
    """One message of a request's thread. `body_html` is built from the sender's plain text and
    sanitised (see `concierge.servicerequests.html`); it is safe to render as HTML."""

    Source = MessageSource

    request = models.ForeignKey(ServiceRequest, on_delete=models.CASCADE, related_name="messages")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="service_request_messages",
    )
    source = models.CharField(max_length=30, choices=Source.choices, default=Source.USER)
    source_name = models.CharField(max_length=200, blank=True)
    body_html = models.TextField()
    external_created_at = models.DateTimeField(default=timezone.now)
    idempotency_key = models.CharField(max_length=200, blank=True, default="")
    employee_notified_at = models.DateTimeField(
        null=True, blank=True, help_text="When the employee was emailed about this reply."
    )
    reopened_request = models.BooleanField(
        default=False,
        help_text="The employee sent this to a Completed request and so reopened it.",
    )
    by_email = models.BooleanField(
        db_default=False,
        help_text="The employee wrote this by replying to a notification email (reply by email).",
    )
    attachments = models.ManyToManyField(
        "uploads.Upload", through="MessageAttachment", related_name="messages", blank=True
    )

    class Meta:
        ordering = ["external_created_at", "id"]
        indexes = [
            models.Index(fields=["request", "external_created_at"]),
            # The concierge's replies alone: a request's newest one is one probe (the trigger
            # that keeps ServiceRequest.last_reply_at, migration 0013).
            models.Index(
                fields=["request", "external_created_at"],
                condition=~models.Q(source=MessageSource.USER),
                name="message_concierge_reply_idx",
            ),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["author", "idempotency_key"],
                condition=~models.Q(idempotency_key=""),
                name="one_message_per_idempotency_key",
            )
        ]

    def __str__(self) -> str:
        return f"{self.source_name or self.source} on {self.request_id}"


class MessageAttachment(models.Model):
    """A file attached to a message; an upload is attached to one message at most."""

    message = models.ForeignKey(Message, on_delete=models.CASCADE, related_name="attachment_links")
    upload = models.OneToOneField(
        "uploads.Upload", on_delete=models.CASCADE, related_name="message_link"
    )
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["position", "id"]
