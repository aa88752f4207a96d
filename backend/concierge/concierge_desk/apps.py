from django.apps import AppConfig


class ConciergeDeskConfig(AppConfig):
    name = "concierge.concierge_desk"
    label = "concierge_desk"
    verbose_name = "Concierge desk"
