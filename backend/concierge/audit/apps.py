from django.apps import AppConfig


class AuditConfig(AppConfig):
    name = "concierge.audit"
    label = "audit"
    verbose_name = "Audit trail"

    def ready(self) -> None:
        from concierge.audit import admin_changes

        admin_changes.install()
