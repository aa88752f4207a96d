from django.apps import AppConfig


class CommonConfig(AppConfig):
    name = "concierge.common"
    label = "common"
