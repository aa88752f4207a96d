from django.apps import AppConfig


class NotificationSettingsConfig(AppConfig):
    name = "concierge.notification_settings"
    label = "notification_settings"
    verbose_name = "Notification settings"
