from django.apps import AppConfig


class PrivacyConfig(AppConfig):
    name = "concierge.privacy"
    label = "privacy"
    verbose_name = "Privacy (exports, erasure, retention)"
