from django.apps import AppConfig


class ServiceRequestsConfig(AppConfig):
    name = "concierge.servicerequests"
    label = "servicerequests"
    verbose_name = "Service requests"

    def ready(self) -> None:
        from concierge.notification_settings.services import push_subject_reader_register
        from concierge.servicerequests.selectors import request_attachable
        from concierge.servicerequests.services import push_subject_read
        from concierge.uploads.selectors import request_attachable_register

        request_attachable_register(request_attachable)
        push_subject_reader_register(push_subject_read)
