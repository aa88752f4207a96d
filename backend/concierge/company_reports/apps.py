from django.apps import AppConfig


class CompanyReportsConfig(AppConfig):
    name = "concierge.company_reports"
    label = "company_reports"
    verbose_name = "Company reports"
