from django.apps import AppConfig


class SurveysConfig(AppConfig):
    name = "concierge.surveys"
    label = "surveys"
    verbose_name = "Surveys"
