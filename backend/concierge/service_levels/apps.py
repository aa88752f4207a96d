from django.apps import AppConfig


class ServiceLevelsConfig(AppConfig):
    name = "concierge.service_levels"
    label = "service_levels"
    verbose_name = "Reply-time promises"
