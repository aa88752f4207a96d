from django.apps import AppConfig


class SatisfactionConfig(AppConfig):
    name = "concierge.satisfaction"
    label = "satisfaction"
    verbose_name = "Satisfaction ratings"

    def ready(self) -> None:
        from concierge.satisfaction.services import rating_invite_send
        from concierge.servicerequests.services import request_completion_follow_up_register

        request_completion_follow_up_register(rating_invite_send)
