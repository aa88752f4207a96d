from django.apps import AppConfig


class SsoConfig(AppConfig):
    name = "concierge.sso"
    label = "sso"
    verbose_name = "Company sign-in (SSO)"

    def ready(self) -> None:
        from concierge.accounts.services.sign_in_checks import own_sign_in_check_register
        from concierge.sso.selectors import sso_required_refusal

        own_sign_in_check_register(sso_required_refusal)
