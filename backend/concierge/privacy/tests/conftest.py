"""Fixtures for issue 27's employee data: a person with data in every app (through the real
API where the product writes it), local and S3 (moto) storage."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from django.utils import timezone

from concierge.servicerequests.models import ServiceRequest
from concierge.surveys.models import (
    Question,
    RequestSurvey,
    SurveyCategory,
    UserRequestAnswer,
    UserRequestSurvey,
)
from concierge.uploads.tests.conftest import moto_endpoint, s3_storage  # noqa: F401
from concierge.uploads.tests.samples import pdf_bytes, png_bytes, presign, put_file
from concierge.uploads.tests.test_uploads_s3 import http

EMPLOYEE_PNG = png_bytes(rgb=(10, 20, 30))
CONCIERGE_PDF = pdf_bytes()


@pytest.fixture(autouse=True)
def _media_root(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


def upload_via_api(api, filename: str, data: bytes, request_id: int, content_type: str) -> str:
    """Presign and PUT a file as the browser does, to our own endpoint or to the bucket."""
    presigned = presign(api, filename, request_id)
    assert presigned.status_code == 200, presigned.content
    url = presigned.json()["presigned_url"]
    if url.startswith("http://127.0.0.1") and "X-Amz-Signature=" in url:
        assert http("PUT", url, data, content_type)[0] == 200
    else:
        assert put_file(api, url, data, content_type).status_code == 200
    return presigned.json()["key"]


@dataclass
class PersonData:
    request: ServiceRequest
    attachment_keys: dict[str, bytes] = field(default_factory=dict)


def _survey_answers(user, service_request) -> None:
    category = SurveyCategory.objects.create(name="Pet", icon="pet")
    survey = RequestSurvey.objects.create(
        name="Find a dog walker", slug="walker", category=category
    )
    question = Question.objects.create(
        survey=survey, position=1, label="When do you need walks?", input_type="TextInput"
    )
    run = UserRequestSurvey.objects.create(
        user=user, survey=survey, submitted_at=timezone.now(), service_request=service_request
    )
    UserRequestAnswer.objects.create(
        user_request_survey=run, question=question, value="Mornings, call Ada on 555-0102"
    )


@pytest.fixture
def person_data(signed_in_api, concierge_api, user, make_request) -> PersonData:
    """Ada's data everywhere: onboarding answers, a request with survey answers, her message
    with a picture, the concierge's reply (naming her) with a PDF, an internal note, the
    completion and her rated comment."""
    assert (
        signed_in_api.post(
            "users/onboarding",
            {
                "answers": [
                    {"answer_id": 104, "value": "5550102030"},
                    {"answer_id": 132, "value": True},
                ]
            },
        ).status_code
        == 200
    )
    service_request = make_request(user, name="Find a dog walker")
    _survey_answers(user, service_request)
    own_key = upload_via_api(
        signed_in_api, "rex.png", EMPLOYEE_PNG, request_id=service_request.pk,
        content_type="image/png",
    )  # fmt: skip
    sent = signed_in_api.post(
        f"requests/{service_request.pk}/messages",
        {
            "message": {
                "body": "Hi, Ada Lovelace here: ada@example.com",
                "attachment_keys": [own_key],
            }
        },
    )
    assert sent.status_code == 201, sent.content
    reply_key = upload_via_api(
        concierge_api, "quote.pdf", CONCIERGE_PDF, request_id=service_request.pk,
        content_type="application/pdf",
    )  # fmt: skip
    replied = concierge_api.post(
        f"concierge/requests/{service_request.pk}/messages",
        {"message": {"body": "Hello Ada, three walkers near you.", "attachment_keys": [reply_key]}},
    )
    assert replied.status_code == 201, replied.content
    note = concierge_api.post(
        f"concierge/requests/{service_request.pk}/notes", {"body": "Ada Lovelace prefers mornings"}
    )
    assert note.status_code == 201, note.content
    completed = concierge_api.post(
        f"concierge/requests/{service_request.pk}/status", {"action": "complete"}
    )
    assert completed.status_code == 200, completed.content
    rated = signed_in_api.post(f"requests/{service_request.pk}/rating", {"score": 5})
    assert rated.status_code in (200, 201), rated.content
    commented = signed_in_api.patch(
        f"requests/{service_request.pk}/rating", {"comment": "Thanks, Ada"}
    )
    assert commented.status_code == 200, commented.content
    service_request.refresh_from_db()
    return PersonData(
        request=service_request, attachment_keys={own_key: EMPLOYEE_PNG, reply_key: CONCIERGE_PDF}
    )
