from django.apps import AppConfig


class OfferingsConfig(AppConfig):
    name = "concierge.offerings"
    label = "offerings"
    verbose_name = "Benefits & offers"
