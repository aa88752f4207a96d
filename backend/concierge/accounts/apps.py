from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "concierge.accounts"
    label = "accounts"
    verbose_name = "Accounts"
