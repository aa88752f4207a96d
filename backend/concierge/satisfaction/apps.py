from django.apps import AppConfig


class SatisfactionConfig(AppConfig):
    name = "concierge.satisfaction"
    label = "satisfaction"
    verbose_name = "Satisfaction ratings"
