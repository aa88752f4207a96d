from typing import Any

from django.apps import AppConfig
from django.db.models.signals import post_delete, post_save


def _category_changed(sender: type, **kwargs: Any) -> None:
    """Requests show their category's name, image and icon: cached reads of them are stale."""
    from concierge.common.read_cache import bump_shared

    bump_shared()


class SurveysConfig(AppConfig):
    name = "concierge.surveys"
    label = "surveys"
    verbose_name = "Surveys"

    def ready(self) -> None:
        category = self.get_model("SurveyCategory")
        for signal in (post_save, post_delete):
            signal.connect(_category_changed, sender=category, dispatch_uid="surveys.category")
