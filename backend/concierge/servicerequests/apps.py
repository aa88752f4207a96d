from django.apps import AppConfig


class ServiceRequestsConfig(AppConfig):
    name = "concierge.servicerequests"
    label = "servicerequests"
    verbose_name = "Service requests"
