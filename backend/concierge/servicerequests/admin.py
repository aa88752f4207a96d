from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import path, reverse
from django.views.decorators.http import require_POST

from concierge.common.admin import LabelledTabularInline, breakable
from concierge.common.errors import ValidationFailed
from concierge.servicerequests import services
from concierge.servicerequests.models import Message, ServiceRequest

if TYPE_CHECKING:
    from concierge.accounts.models import User

# The status moves offered as buttons and list actions, and what each says once applied.
STATUS_BUTTONS = {"start": "Start", "complete": "Complete", "reopen": "Reopen"}
STATUS_DONE = {
    "start": "{count} started: In Progress.",
    "complete": "{count} completed: the rating email goes to the employee (unless already "
    "rated) and the reply-time clock stopped.",
    "reopen": "{count} reopened: back In Queue, on the reply-time clock again.",
}


class MessageInline(LabelledTabularInline):
    """The thread, read-only: replies go through the services so they are sanitised."""

    model = Message
    extra = 0
    can_delete = False
    fields = (
        "external_created_at",
        "source",
        "source_name",
        "author",
        "body_html",
        "attachment_list",
    )
    readonly_fields = fields
    ordering = ("external_created_at", "id")

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .select_related("author")
            .prefetch_related("attachment_links__upload")
        )

    @admin.display(description="Attachments")
    def attachment_list(self, obj: Message) -> str:
        return ", ".join(link.upload.filename for link in obj.attachment_links.all()) or "—"


class ServiceRequestForm(forms.ModelForm):
    def clean_assignee(self) -> User | None:
        assignee: User | None = self.cleaned_data.get("assignee")
        try:
            services.request_assignee_check(assignee=assignee)
        except ValidationFailed as exc:
            raise ValidationError(exc.message) from exc
        return assignee


@admin.register(ServiceRequest)
class ServiceRequestAdmin(admin.ModelAdmin):
    """Requests as the employees made them. The owner and the status are read-only: the status
    moves through the same service as the desk's (buttons on the page, actions on the list),
    so completing here emails the rating links, stops the reply-time clock and tells the open
    screens, as from the desk; an assignment goes through the desk's assignment rules."""

    form = ServiceRequestForm
    change_form_template = "admin/servicerequests/servicerequest/change_form.html"
    list_display = (
        "name",
        "user_email",
        "status",
        "assignee_email",
        "issued_at",
        "last_message_at",
    )
    list_filter = ("status", "survey_category")
    search_fields = ("name", "details", "user__email", "external_id")
    list_select_related = ("user", "assignee")
    raw_id_fields = ("assignee",)
    readonly_fields = (
        "user",
        "status",
        "completed_at",
        "external_id",
        "created_at",
        "updated_at",
        "last_message_at",
    )
    date_hierarchy = "issued_at"
    inlines = [MessageInline]
    actions = ["start_requests", "complete_requests", "reopen_requests"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # an employee makes a request (its clock, their request count)

    # The people by email, breakable at the "@" so the list fits beside the filters.
    @admin.display(description="User", ordering="user__email")
    def user_email(self, obj: ServiceRequest) -> str:
        return breakable(obj.user.email) if obj.user else self.get_empty_value_display()

    @admin.display(description="Assignee", ordering="assignee__email")
    def assignee_email(self, obj: ServiceRequest) -> str:
        return breakable(obj.assignee.email) if obj.assignee else self.get_empty_value_display()

    def save_model(
        self, request: HttpRequest, obj: ServiceRequest, form: forms.ModelForm, change: bool
    ) -> None:
        """Saves only the fields the form changed (never a status read before a concurrent
        move); a new assignee goes through the assignment service."""
        changed = [name for name in form.changed_data if name != "assignee"]
        if changed:
            obj.save(update_fields=[*changed, "updated_at"])
        if "assignee" in form.changed_data:
            services.request_assign(request=obj, assignee=form.cleaned_data["assignee"])

    # ------------------------------------------------------------------ status moves

    @admin.action(description="Start the selected requests (In Progress)", permissions=["change"])
    def start_requests(self, request: HttpRequest, queryset: QuerySet[ServiceRequest]) -> None:
        self._status_change(request, queryset, "start")

    @admin.action(
        description="Complete the selected requests (emails the rating links)",
        permissions=["change"],
    )
    def complete_requests(self, request: HttpRequest, queryset: QuerySet[ServiceRequest]) -> None:
        self._status_change(request, queryset, "complete")

    @admin.action(description="Reopen the selected requests (In Queue)", permissions=["change"])
    def reopen_requests(self, request: HttpRequest, queryset: QuerySet[ServiceRequest]) -> None:
        self._status_change(request, queryset, "reopen")

    def _status_change(
        self, request: HttpRequest, service_requests: Iterable[ServiceRequest], action: str
    ) -> None:
        done = 0
        for service_request in service_requests:
            try:
                services.request_status_change(request=service_request, action=action)
            except ValidationFailed as exc:
                self.message_user(request, f"“{service_request}”: {exc.message}", messages.WARNING)
            else:
                done += 1
        if done:
            count = f"{done} request{'' if done == 1 else 's'}"
            self.message_user(request, STATUS_DONE[action].format(count=count), messages.SUCCESS)

    def get_urls(self):  # type: ignore[no-untyped-def]
        status = path(
            "<path:object_id>/status/<str:action>/",
            self.admin_site.admin_view(require_POST(self.status_view)),
            name="servicerequests_servicerequest_status",
        )
        return [status, *super().get_urls()]

    def status_view(self, request: HttpRequest, object_id: str, action: str) -> HttpResponse:
        """A status button of the request's page: the move, then back to the page."""
        service_request = self.get_object(request, unquote(object_id))
        if service_request is None or action not in services.STATUS_ACTIONS:
            raise Http404
        if not self.has_change_permission(request, service_request):
            raise PermissionDenied
        self._status_change(request, [service_request], action)
        change_url = "admin:servicerequests_servicerequest_change"
        return HttpResponseRedirect(reverse(change_url, args=[service_request.pk]))

    def render_change_form(  # type: ignore[no-untyped-def]
        self, request, context, add=False, change=False, form_url="", obj=None
    ):
        if obj is not None and self.has_change_permission(request, obj):
            context["status_buttons"] = [
                (action, label)
                for action, label in STATUS_BUTTONS.items()
                if obj.status in services.STATUS_ACTIONS[action][0]
            ]
        return super().render_change_form(request, context, add, change, form_url, obj)
