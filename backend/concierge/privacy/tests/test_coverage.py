"""Issue 27 erasure: every model that points at a person is either erased by the privacy app
or kept for a stated reason; a new one fails here until someone decides (ARCHITECTURE §10)."""

from __future__ import annotations

from django.apps import apps
from django.contrib.auth import get_user_model

ERASED = {
    "accounts.AuthToken.user", "accounts.OneTimeCode.user", "accounts.PasswordResetToken.user",
    "accounts.OnboardingAnswer.user", "accounts.MfaFactor.user", "accounts.RecoveryCode.user",
    "accounts.WebAuthnChallenge.user", "accounts.AccountEmail.user",
    "accounts.EmployeeRecord.user",  # personal fields blanked, the record kept for the employer
    "admin.LogEntry.user",  # an admin's own entries; the person's own lines are renamed
    "surveys.UserRequestSurvey.user",  # answers deleted, submitted runs kept empty
    "servicerequests.ServiceRequest.user",  # content erased, an anonymous row for the report
    "servicerequests.Message.author",  # the employee's: body erased, author cleared
    "uploads.Upload.owner",  # rows and stored bytes deleted
    "satisfaction.Rating.employee",  # cleared with the comment; the score stays
    "company_reports.CompanyAdmin.user", "sso.Handoff.user", "privacy.DataExport.user",
    "inbound_email.InboundEmail.user",  # deleted, with those sent from their addresses
    "notification_settings.NotificationPreference.user",  # deleted
    "notification_settings.PushSubscription.user",  # deleted: no push reaches them again
}  # fmt: skip
STAFF_ONLY = {  # staff and concierge accounts are not erased by this action
    "servicerequests.ServiceRequest.assignee", "satisfaction.Rating.concierge",
    "saved_replies.SavedReply.created_by", "saved_replies.SavedReply.updated_by",
    "sso.IdentityProvider.break_glass_user", "provisioning.ScimToken.created_by",
    "concierge_desk.InternalNote.author",
}  # fmt: skip


def test_issue27_every_model_pointing_at_a_person_is_covered_by_erasure() -> None:
    user_model = get_user_model()
    pointing = {
        f"{model._meta.label}.{field.name}"
        for model in apps.get_models()
        for field in model._meta.get_fields()
        if field.is_relation and field.concrete and field.related_model is user_model
    }
    assert pointing - ERASED - STAFF_ONLY == set()
