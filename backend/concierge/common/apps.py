from django.apps import AppConfig


class CommonConfig(AppConfig):
    name = "concierge.common"
    label = "common"

    def ready(self) -> None:
        from concierge.common import api, readiness

        readiness.register("database", api.database_status, required=True)
        readiness.register("cache", api.cache_status, required=False)
