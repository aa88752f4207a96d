from django.apps import AppConfig


class LiveConfig(AppConfig):
    name = "concierge.live"
    label = "live"

    def ready(self) -> None:
        from concierge.accounts.signals import sessions_revoked
        from concierge.live.sessions import sessions_revoked_publish

        sessions_revoked.connect(sessions_revoked_publish, dispatch_uid="live.sessions_revoked")
