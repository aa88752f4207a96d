from django.apps import AppConfig


class UploadsConfig(AppConfig):
    name = "concierge.uploads"
    label = "uploads"
    verbose_name = "Uploads"

    def ready(self) -> None:
        from concierge.common import readiness
        from concierge.uploads.storage import storage_probe

        # Required: without it no file can be uploaded or downloaded.
        readiness.register("storage", storage_probe, required=True, cached=True)
