from django.apps import AppConfig


class ConciergeDeskConfig(AppConfig):
    name = "concierge.concierge_desk"
    label = "concierge_desk"
    verbose_name = "Concierge desk"

    def ready(self) -> None:
        from django.db.models.signals import post_migrate

        from concierge.concierge_desk.search_index import sqlite_triggers_ensure

        post_migrate.connect(sqlite_triggers_ensure, sender=self)
