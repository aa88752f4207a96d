from django.apps import AppConfig


class UploadsConfig(AppConfig):
    name = "concierge.uploads"
    label = "uploads"
    verbose_name = "Uploads"
