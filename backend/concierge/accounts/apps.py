from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps


class AccountsConfig(AppConfig):
    name = "concierge.accounts"
    label = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        from concierge.accounts import role_audit
        from concierge.accounts.selectors.concierges import audit_role
        from concierge.audit.services import role_resolver_set

        role_audit.connect()
        role_resolver_set(audit_role)


class ConciergeAdminConfig(admin_apps.AdminConfig):
    """The Django admin with sign-in through the API's lockout, rate limit and MFA."""

    default = False
    default_site = "concierge.accounts.admin_site.ConciergeAdminSite"
