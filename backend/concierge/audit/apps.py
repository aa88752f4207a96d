from django.apps import AppConfig


class AuditConfig(AppConfig):
    name = "concierge.audit"
    label = "audit"
    verbose_name = "Audit trail"
