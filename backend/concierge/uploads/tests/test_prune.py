"""Pruning abandoned uploads (issue 11 'Old task rows are pruned, and so are uploads that were
never completed'; issue 14 item 12 'Uploads never completed or never attached are never
removed'): `manage.py prune_uploads` deletes, after a day, the stored file and the row of an
upload that was never completed or never attached, and keeps everything else."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from concierge.servicerequests import services as request_services
from concierge.surveys.models import (
    Question,
    RequestSurvey,
    SurveyCategory,
    UserRequestAnswer,
    UserRequestSurvey,
)
from concierge.uploads import storage
from concierge.uploads.models import Upload
from concierge.uploads.tests.samples import pdf_bytes, presign, upload_via_api

pytestmark = pytest.mark.django_db


def _age(key: str, **delta) -> None:
    Upload.objects.filter(key=key).update(created_at=timezone.now() - timedelta(**delta))


def _prune() -> str:
    out = io.StringIO()
    call_command("prune_uploads", stdout=out)
    return out.getvalue()


def _survey_answer_with(user, key: str) -> None:
    category = SurveyCategory.objects.create(name="Errands")
    survey = RequestSurvey.objects.create(name="Passport", slug="passport", category=category)
    question = Question.objects.create(
        survey=survey, position=1, label="Scan", input_type=Question.InputType.SINGLE_UPLOAD
    )
    run = UserRequestSurvey.objects.create(user=user, survey=survey)
    UserRequestAnswer.objects.create(
        user_request_survey=run,
        question=question,
        value=key,
        upload=Upload.objects.get(key=key),
    )


def test_hardening_12_abandoned_uploads_are_pruned_after_a_day(signed_in_api, user):
    service_request = request_services.request_create(user=user, name="Renew my passport")
    never_completed = presign(signed_in_api, "lost.pdf", service_request.pk).json()["key"]
    never_attached = upload_via_api(
        signed_in_api, "draft.pdf", pdf_bytes(), service_request.pk, "application/pdf"
    )
    attached = upload_via_api(
        signed_in_api, "sent.pdf", pdf_bytes(), service_request.pk, "application/pdf"
    )
    sent = signed_in_api.post(
        f"requests/{service_request.pk}/messages",
        {"message": {"body": "See attached", "attachment_keys": [attached]}},
    )
    assert sent.status_code == 201, sent.content
    answered = upload_via_api(signed_in_api, "scan.pdf", pdf_bytes())
    _survey_answer_with(user, answered)
    recent = presign(signed_in_api, "in-flight.pdf").json()["key"]

    for key in (never_completed, never_attached, attached, answered):
        _age(key, hours=25)
    _age(recent, hours=23)

    assert _prune() == "Deleted 2 abandoned uploads.\n"
    remaining = set(Upload.objects.values_list("key", flat=True))
    assert remaining == {attached, answered, recent}
    assert not storage.upload_storage().exists(never_attached)  # the file went too
    assert storage.upload_storage().exists(attached)
    assert storage.upload_storage().exists(answered)

    assert _prune() == "Deleted 0 abandoned uploads.\n"


def test_prune_keeps_uploads_younger_than_the_given_age(signed_in_api):
    key = presign(signed_in_api, "lost.pdf").json()["key"]
    _age(key, hours=3)
    call_command("prune_uploads", "--min-age-hours", "4", stdout=io.StringIO())
    assert Upload.objects.filter(key=key).exists()
    call_command("prune_uploads", "--min-age-hours", "2", stdout=io.StringIO())
    assert not Upload.objects.filter(key=key).exists()
