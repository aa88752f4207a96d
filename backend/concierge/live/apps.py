from django.apps import AppConfig


class LiveConfig(AppConfig):
    name = "concierge.live"
    label = "live"
