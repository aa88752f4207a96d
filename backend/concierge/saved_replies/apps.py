from django.apps import AppConfig


class SavedRepliesConfig(AppConfig):
    name = "concierge.saved_replies"
    label = "saved_replies"
    verbose_name = "Saved replies"
