from django.apps import AppConfig


class InboundEmailConfig(AppConfig):
    name = "concierge.inbound_email"
    label = "inbound_email"
    verbose_name = "Reply by email"

    def ready(self) -> None:
        from concierge.inbound_email import webhook

        webhook.connect()
