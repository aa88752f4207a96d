from django.apps import AppConfig


class ServiceRequestsConfig(AppConfig):
    name = "concierge.servicerequests"
    label = "servicerequests"
    verbose_name = "Service requests"

    def ready(self) -> None:
        from concierge.servicerequests.selectors import request_attachable
        from concierge.uploads.selectors import request_attachable_register

        request_attachable_register(request_attachable)
