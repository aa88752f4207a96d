"""Building the zip of 'Download my data': `data.json` (the profile, onboarding answers,
signed-in devices, second factors, the employer's records, requests with their survey answers,
messages and rating) and every attachment as a file under `attachments/<request id>/`."""

from __future__ import annotations

import json
import tempfile
import zipfile
from typing import IO, Any

from django.utils import timezone

from concierge.accounts.personal_data import account_export
from concierge.inbound_email.personal_data import inbound_emails_export
from concierge.notification_settings.personal_data import notification_settings_export
from concierge.satisfaction.personal_data import ratings_export
from concierge.servicerequests.personal_data import requests_export
from concierge.surveys.personal_data import survey_answers_export
from concierge.uploads.personal_data import upload_bytes

README = """Your data, as {product} holds it on {date}.

data.json: your profile, your onboarding answers, the devices signed in to your account,
your second factors (by name), your employer's records of you, and your requests, each with
the answers you gave, its messages (yours and the concierge's) and your rating.
attachments/: the files of your requests' messages, one folder per request id.
"""


def _attachment_path(request_id: int, index: int, filename: str) -> str:
    safe = "".join(c if c.isalnum() or c in "._- " else "_" for c in filename).strip() or "file"
    return f"attachments/{request_id}/{index:03d}-{safe}"


def personal_data(*, user: Any) -> dict[str, Any]:
    """Everything the export holds, as JSON values (attachments by key)."""
    answers = survey_answers_export(user=user)
    ratings = ratings_export(user=user)
    requests = requests_export(user=user)
    for request in requests:
        request["survey_answers"] = answers.get(request["id"], [])
        request["rating"] = ratings.get(request["id"])
    return {
        **account_export(user=user),
        "requests": requests,
        "unsubmitted_survey_answers": answers.get(None, []),
        **inbound_emails_export(user=user),
        **notification_settings_export(user=user),
    }


def zip_build(*, user: Any, product: str) -> IO[bytes]:
    """The zip in a temporary file, rewound; each attachment's `key` in data.json is replaced
    by its `path` in the zip."""
    data = personal_data(user=user)
    spooled = tempfile.SpooledTemporaryFile(max_size=16 * 1024 * 1024)  # noqa: SIM115 (returned)
    with zipfile.ZipFile(spooled, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        index = 0
        for request in data["requests"]:
            for message in request["messages"]:
                for attachment in message["attachments"]:
                    index += 1
                    path = _attachment_path(request["id"], index, attachment["filename"])
                    try:
                        archive.writestr(path, upload_bytes(key=attachment.pop("key")))
                    except FileNotFoundError:  # its bytes were lost: said, not fatal
                        attachment["missing"] = True
                        continue
                    attachment["path"] = path
        for request in data["requests"]:
            for answer in request["survey_answers"]:
                key = answer.pop("upload_key", None)
                if key:
                    index += 1
                    path = _attachment_path(request["id"], index, answer["file"] or "file")
                    try:
                        archive.writestr(path, upload_bytes(key=key))
                        answer["path"] = path
                    except FileNotFoundError:
                        answer["missing"] = True
        for answer in data["unsubmitted_survey_answers"]:
            answer.pop("upload_key", None)
        archive.writestr("data.json", json.dumps(data, indent=2, ensure_ascii=False))
        archive.writestr(
            "README.txt", README.format(product=product, date=timezone.now().date().isoformat())
        )
    spooled.seek(0)
    return spooled  # type: ignore[return-value]
