from django.apps import AppConfig


class CompanyReportsConfig(AppConfig):
    name = "concierge.company_reports"
    label = "company_reports"
    verbose_name = "Company reports"

    def ready(self) -> None:
        from concierge.company_reports import role_audit

        role_audit.connect()
