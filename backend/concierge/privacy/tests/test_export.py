"""Issue 27 'Download my data': the background task's zip holds what the API shows (request
names, answers, messages, attachment bytes), the link is emailed, works once, for its owner
only, and expires; a second request while one is being built is refused politely."""

from __future__ import annotations

import io
import json
import re
import zipfile
from datetime import timedelta
from urllib.parse import urlsplit

import pytest
from django.utils import timezone

from concierge.audit.models import AuditEvent
from concierge.privacy.models import DataExport
from concierge.privacy.services.export import ALREADY_RUNNING
from concierge.uploads.storage import upload_storage

pytestmark = pytest.mark.django_db


def _link(outbox, to: str) -> str:
    for email in outbox.emails(to):
        match = re.search(r"https?://\S+/account/data\S*", email.body)
        if match:
            return match.group(0)
    raise AssertionError("no data export link emailed")


def _link_token(outbox, to: str) -> str:
    return urlsplit(_link(outbox, to)).fragment


def _download(api, token: str):
    return api.post("users/data_export/download", {"token": token})


def _zip(response) -> zipfile.ZipFile:
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "application/zip"
    assert 'filename="my-data.zip"' in response["Content-Disposition"]
    return zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content)))


def test_issue27_export_zip_matches_what_the_api_shows(
    signed_in_api, user, person_data, outbox, tasks
):
    started = signed_in_api.post("users/data_export")
    assert started.status_code == 202, started.content
    assert started.json()["status"] == "pending"
    assert "email you a link" in started.json()["message"]

    token = _link_token(outbox, user.email)  # runs the build task, then the email's
    assert signed_in_api.get("users/data_export").json()["status"] == "ready"
    archive = _zip(_download(signed_in_api, token))
    data = json.loads(archive.read("data.json"))

    current = signed_in_api.get("users/current").json()
    assert data["profile"]["email"] == user.email
    assert data["profile"]["full_name"] == current["full_name"]
    onboarding = signed_in_api.get("users/onboarding").json()["answers"]
    exported_onboarding = sorted(data["onboarding_answers"], key=lambda a: a["answer_id"])
    assert [{"answer_id": a["answer_id"], "value": a["value"]} for a in exported_onboarding] == (
        sorted(onboarding, key=lambda a: a["answer_id"])
    )
    # Each says what it answers, in words (an export a person can read).
    assert {a["answer_id"]: a["question"] for a in exported_onboarding} == {
        104: "Phone",
        132: "Owns a home",
    }
    shown = signed_in_api.get(f"requests/{person_data.request.pk}").json()["request"]
    [exported] = data["requests"]
    assert exported["name"] == shown["name"]
    assert exported["status"] == shown["status"]
    assert [m["body_html"] for m in exported["messages"]] == [
        m["body_html"] for m in shown["messages"]
    ]
    assert exported["survey_answers"] == [
        {
            "survey": "Find a dog walker",
            "question": "When do you need walks?",
            "answer": "Mornings, call Ada on 555-0102",
            "value": "Mornings, call Ada on 555-0102",
            "file": None,
        }
    ]
    rating = signed_in_api.get(f"requests/{person_data.request.pk}/rating").json()
    assert exported["rating"]["score"] == 5 == rating["rating"]["score"]
    assert exported["rating"]["comment"] == "Thanks, Ada"
    # Every attachment of the thread, byte for byte, where data.json says.
    paths = [a["path"] for m in exported["messages"] for a in m["attachments"]]
    assert sorted(archive.read(path) for path in paths) == sorted(
        person_data.attachment_keys.values()
    )
    assert "Internal" not in json.dumps(data) and "prefers mornings" not in json.dumps(data)
    assert AuditEvent.objects.filter(action="data.exported", target_id=str(user.pk)).count() == 1


def test_issue27_export_link_works_once_for_its_owner_only(
    signed_in_api, make_api, user_factory, user, outbox
):
    assert signed_in_api.post("users/data_export").status_code == 202
    token = _link_token(outbox, user.email)

    other = user_factory(email="bob@example.com", first_name="Bob")
    other_api = make_api()
    assert other_api.sign_in(other.email).status_code == 200
    assert _download(other_api, token).status_code == 404  # someone else, signed in
    assert _download(make_api(), token).status_code == 401
    assert _download(signed_in_api, "not-a-token").status_code == 404
    assert _download(signed_in_api, "x" * 5000).status_code == 404

    _zip(_download(signed_in_api, token))
    again = _download(signed_in_api, token)
    assert again.status_code == 410
    assert again.json()["error"].startswith("This download link was already used")
    assert not DataExport.objects.get(user=user).file_key


def test_issue27_export_link_expires_after_seven_days(signed_in_api, user, outbox):
    assert signed_in_api.post("users/data_export").status_code == 202
    token = _link_token(outbox, user.email)
    DataExport.objects.filter(user=user).update(expires_at=timezone.now() - timedelta(seconds=1))
    expired = _download(signed_in_api, token)
    assert expired.status_code == 410
    assert "expired" in expired.json()["error"]


def test_issue27_a_second_request_while_one_is_being_built_is_a_polite_409(
    signed_in_api, user, tasks
):
    assert signed_in_api.post("users/data_export").status_code == 202
    again = signed_in_api.post("users/data_export")
    assert again.status_code == 409
    assert again.json()["error"] == ALREADY_RUNNING
    assert DataExport.objects.filter(user=user).count() == 1
    # The email leaves only once the request committed: the build task is enqueued once.
    assert len(tasks.results("concierge.privacy.tasks.data_export_build_task")) == 1
    tasks.run()
    assert signed_in_api.post("users/data_export").status_code == 202  # done: a new one


def test_issue27_a_build_that_lost_its_worker_does_not_block_for_ever(signed_in_api, user):
    assert signed_in_api.post("users/data_export").status_code == 202
    DataExport.objects.filter(user=user).update(created_at=timezone.now() - timedelta(hours=2))
    assert signed_in_api.post("users/data_export").status_code == 202
    assert list(DataExport.objects.filter(user=user).values_list("status", flat=True)) == [
        "pending",
        "failed",
    ]


def test_issue27_export_state_needs_sign_in(api):
    assert api.get("users/data_export").status_code == 401
    assert api.post("users/data_export").status_code == 401


def test_issue27_export_with_s3_storage(s3_storage, signed_in_api, user, person_data, outbox):
    """The zip is written to and read from the bucket, then deleted once downloaded."""
    assert signed_in_api.post("users/data_export").status_code == 202
    token = _link_token(outbox, user.email)
    key = DataExport.objects.get(user=user).file_key
    assert s3_storage.head_object(Bucket=s3_storage.bucket, Key=key)["ContentLength"] > 0
    archive = _zip(_download(signed_in_api, token))
    files = [name for name in archive.namelist() if name.startswith("attachments/")]
    assert sorted(archive.read(name) for name in files) == sorted(
        person_data.attachment_keys.values()
    )


def test_issue27_storage_down_at_download_is_a_503_and_the_link_still_works(
    signed_in_api, user, outbox, monkeypatch
):
    from concierge.privacy.services import export as export_services

    assert signed_in_api.post("users/data_export").status_code == 202
    token = _link_token(outbox, user.email)

    def unreachable(*, key: str):
        raise OSError("storage down")

    with monkeypatch.context() as patch:
        patch.setattr(export_services, "export_file_open", unreachable)
        down = _download(signed_in_api, token)
    assert down.status_code == 503
    assert down.json()["error"] == export_services.STORAGE_UNREACHABLE
    _zip(_download(signed_in_api, token))


def test_issue27_export_token_never_travels_in_an_address(signed_in_api, user, outbox):
    """The emailed link carries its token in the fragment (never sent to a server, so never
    in an access log or a Referer); the page posts it in the body. No address takes it."""
    assert signed_in_api.post("users/data_export").status_code == 202
    link = urlsplit(_link(outbox, user.email))
    assert (link.path, link.query) == ("/account/data", "")
    assert re.fullmatch(r"[A-Za-z0-9_\-]{40,}", link.fragment)
    by_address = signed_in_api.get("users/data_export/download", query={"token": link.fragment})
    assert by_address.status_code == 405
    assert DataExport.objects.get(user=user).downloaded_at is None
    _zip(_download(signed_in_api, link.fragment))


def test_issue27_a_link_emailed_before_the_token_moved_still_downloads(
    client, signed_in_api, user, outbox
):
    """A link of the old shape (`/account/data/<token>`, emailed before the upgrade) is sent on
    to the page with the token in the fragment, kept by no cache and passed on in no Referer;
    the token then downloads once as any link's. Other paths under it stay the app's."""
    assert signed_in_api.post("users/data_export").status_code == 202
    token = _link_token(outbox, user.email)
    moved = client.get(f"/account/data/{token}")
    assert (moved.status_code, moved["Location"]) == (302, f"/account/data#{token}")
    assert (moved["Cache-Control"], moved["Referrer-Policy"]) == ("no-store", "no-referrer")
    assert client.post(f"/account/data/{token}").status_code == 405
    assert client.get("/account/data/not-a-token").status_code != 302
    _zip(_download(signed_in_api, token))


def test_issue27_a_build_that_lost_its_worker_shows_as_failed(signed_in_api, user):
    """The Account page hides 'Download my data' while a build runs: one that lost its worker,
    or failed every retry, shows as failed once stale (as asking again treats it), so the
    person can ask again instead of seeing 'preparing' for ever."""
    assert signed_in_api.post("users/data_export").status_code == 202
    DataExport.objects.filter(user=user).update(
        status="running", created_at=timezone.now() - timedelta(hours=2)
    )
    assert signed_in_api.get("users/data_export").json()["status"] == "failed"


def test_issue27_a_person_erased_while_their_export_is_built_leaves_no_zip_and_no_link(
    signed_in_api, user, person_data, tasks, outbox, monkeypatch
):
    from concierge.privacy import export_build
    from concierge.privacy.services.erasure import person_erase

    build = export_build.zip_build

    def erased_meanwhile(*, user, product):
        content = build(user=user, product=product)
        person_erase(user=user)  # support erases the person while the zip is being written
        return content

    email = user.email
    assert signed_in_api.post("users/data_export").status_code == 202
    with monkeypatch.context() as patch:
        patch.setattr(export_build, "zip_build", erased_meanwhile)
        tasks.run()
    assert not any("ready to download" in e.subject for e in outbox.emails(email))
    storage = upload_storage()
    assert not storage.exists("exports") or storage.listdir("exports")[1] == []
