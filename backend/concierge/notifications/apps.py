from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "concierge.notifications"
    label = "notifications"
