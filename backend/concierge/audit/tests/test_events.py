"""Issue 27, the audit trail: each event kind is recorded where it happens (through the real
API, the services and the Django admin), once, in the right transaction, without secrets."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import Group
from django.db import transaction
from django.test import Client

from concierge.accounts.models import EmployeeRecord
from concierge.accounts.services.memberships import membership_join
from concierge.accounts.services.tokens import user_sessions_revoke
from concierge.audit import actions
from concierge.audit.models import AuditEvent
from concierge.company_reports.models import CompanyAdmin
from concierge.provisioning.services.tokens import scim_token_rotate
from conftest import DEFAULT_PASSWORD, ApiClient

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "a much longer new passphrase 42"
NOTE = "Employee mentioned a hospital stay"
REPLY = "We found three dog walkers near you"


def events(action: str) -> list[AuditEvent]:
    return list(AuditEvent.objects.filter(action=action).order_by("id"))


def only(action: str, *secrets: str) -> AuditEvent:
    """The one event of `action`, with none of `secrets` anywhere in it."""
    found = events(action)
    assert len(found) == 1, [e.action for e in AuditEvent.objects.all()]
    written = json.dumps(found[0].details) + found[0].target_id
    for secret in (DEFAULT_PASSWORD, NEW_PASSWORD, *secrets):
        assert secret not in written
    return found[0]


@pytest.fixture
def root(django_user_model):
    """A superuser, as support signs in to Django admin."""
    return django_user_model.objects.create_superuser(
        email="root@example.com", password=DEFAULT_PASSWORD, first_name="Root"
    )


@pytest.fixture
def admin_client(root) -> Client:
    """A browser signed in to Django admin as `root`."""
    client = Client()
    client.force_login(root)
    return client


def test_sign_in_success_and_failure(user):
    """issue 27 audit trail: sign-in success and failure (who, from where, never the password)."""
    api = ApiClient()
    assert api.sign_in(user.email, "wrong password here").status_code == 401
    assert api.sign_in("nobody@example.com", "another-guess").status_code == 401
    assert api.sign_in(user.email).status_code == 200
    failed = events(actions.SIGN_IN_FAILED)
    assert [(e.actor_id, e.details["reason"]) for e in failed] == [
        (user.pk, "wrong password"),
        (None, "unknown or inactive account"),
    ]
    assert all("nobody@example.com" not in json.dumps(e.details) for e in failed)
    succeeded = only(actions.SIGN_IN_SUCCEEDED)
    assert (succeeded.actor_id, succeeded.client_ip) == (user.pk, "127.0.0.1")


def test_account_events_name_the_actors_role(user, concierge):
    """issue 27 audit trail: who (user id and role): an employee's sign-in is a member's, a
    concierge's is a concierge's (a group of accounts', named through accounts)."""
    assert ApiClient().sign_in(user.email).status_code == 200
    assert ApiClient().sign_in(concierge.email).status_code == 200
    roles = {e.actor_id: e.actor_role for e in events(actions.SIGN_IN_SUCCEEDED)}
    assert roles == {user.pk: "member", concierge.pk: "concierge"}


def test_lockout_and_unlock(user, settings, outbox):
    """issue 27 audit trail: lockout and unlock (by the emailed link)."""
    settings.LOCKOUT_MAX_ATTEMPTS = 2
    api = ApiClient()
    for _ in range(3):
        api.sign_in(user.email, "wrong password here")
    locked = only(actions.ACCOUNT_LOCKED)
    assert locked.actor_id == user.pk
    token = outbox.link_token("unlock", to=user.email)
    assert api.get("users/unlock", query={"unlock_token": token}).status_code == 200
    unlocked = only(actions.ACCOUNT_UNLOCKED, token)
    assert unlocked.details == {"how": "emailed link"}


def test_second_factor_added_and_removed(signed_in_api, user):
    """issue 27 audit trail: second factors added and removed."""
    from concierge.accounts.tests.test_mfa_factors import _totp_enrol

    factor_id, secret, _ = _totp_enrol(signed_in_api)
    added = only(actions.MFA_FACTOR_ADDED, secret)
    assert added.actor_id == user.pk and added.details == {"factor": "An authenticator app"}
    removed = signed_in_api.post(f"mfa/factors/{factor_id}/remove", {"password": DEFAULT_PASSWORD})
    assert removed.status_code in (200, 204), removed.content
    only(actions.MFA_FACTOR_REMOVED, secret)


def test_password_change(signed_in_api, user):
    """issue 27 audit trail: password changes."""
    response = signed_in_api.post(
        "users/password/change",
        {
            "password": DEFAULT_PASSWORD,
            "new_password": NEW_PASSWORD,
            "new_password_confirmation": NEW_PASSWORD,
        },
    )
    assert response.status_code == 200, response.content
    assert only(actions.PASSWORD_CHANGED).actor_id == user.pk


def test_password_reset(user, outbox):
    """issue 27 audit trail: password resets (never the reset token)."""
    api = ApiClient()
    api.post("users/password", {"user": {"email": user.email}})
    token = outbox.link_token("reset-password", to=user.email)
    response = api.put(
        "users/password",
        {
            "reset_password_token": token,
            "password": NEW_PASSWORD,
            "password_confirmation": NEW_PASSWORD,
        },
    )
    assert response.status_code in (200, 204), response.content
    assert only(actions.PASSWORD_RESET, token).actor_id == user.pk


def test_sessions_revoked_and_rolled_back(user):
    """issue 27 audit trail: sessions revoked; an event of work rolled back does not stay."""
    with pytest.raises(RuntimeError), transaction.atomic():
        user_sessions_revoke(user=user)
        raise RuntimeError("rolled back")
    assert not events(actions.SESSIONS_REVOKED)
    user_sessions_revoke(user=user)
    assert only(actions.SESSIONS_REVOKED).target_id == str(user.pk)


@pytest.fixture
def desk(make_api, concierge):
    api = make_api()
    assert api.sign_in(concierge.email).status_code == 200
    return api


def test_openings_by_the_concierge_once_per_window(desk, concierge, user, make_request):
    """issue 27 audit trail: a concierge opening a request, its thread and the employee's
    profile: one event per opening, not per poll."""
    service_request = make_request(user)
    for _ in range(3):
        assert desk.get(f"concierge/requests/{service_request.pk}").status_code == 200
        assert desk.get(f"concierge/requests/{service_request.pk}/messages").status_code == 200
    opened = only(actions.REQUEST_OPENED)
    assert (opened.actor_id, opened.actor_role, opened.target_id) == (
        concierge.pk,
        "concierge",
        str(service_request.pk),
    )
    assert only(actions.THREAD_OPENED).target_id == str(service_request.pk)
    assert only(actions.PROFILE_OPENED).target_id == str(user.pk)


def test_the_employee_opening_their_own_request_is_no_opening(signed_in_api, user, make_request):
    """issue 27 audit trail: only the concierge side's openings are recorded."""
    service_request = make_request(user)
    assert signed_in_api.get(f"requests/{service_request.pk}").status_code == 200
    assert not AuditEvent.objects.filter(action__in=actions.OPENINGS).exists()


def test_reply_note_status_and_assignment(desk, concierge, user, make_request):
    """issue 27 audit trail: replies, notes, status changes and assignments (never the text)."""
    service_request = make_request(user)
    base = f"concierge/requests/{service_request.pk}"
    assert desk.post(f"{base}/claim").status_code == 200
    assert desk.post(f"{base}/messages", {"message": {"body": REPLY}}).status_code == 201
    assert desk.post(f"{base}/notes", {"body": NOTE}).status_code == 201
    assert desk.post(f"{base}/status", {"action": "complete"}).status_code == 200
    assignment = only(actions.ASSIGNMENT_CHANGED)
    assert assignment.details == {"from": None, "to": concierge.pk}
    only(actions.REPLY_SENT, REPLY)
    only(actions.NOTE_ADDED, NOTE)
    status = only(actions.STATUS_CHANGED)
    assert status.details["action"] == "complete" and status.actor_role == "concierge"


def test_attachment_opened_by_a_concierge(
    desk, concierge, signed_in_api, user, make_request, settings, tmp_path
):
    """issue 27 audit trail: a concierge opening a request's attachment (its address, from the
    API the thread's pictures and PDFs use): once per window, never the employee's own."""
    from concierge.uploads.models import Upload
    from concierge.uploads.tests.samples import png_bytes, upload_via_api

    settings.MEDIA_ROOT = tmp_path / "media"
    service_request = make_request(user)
    key = upload_via_api(
        signed_in_api, "receipt.png", png_bytes(), service_request.pk, content_type="image/png"
    )
    sent = signed_in_api.post(
        f"requests/{service_request.pk}/messages",
        {"message": {"body": "The receipt", "attachment_keys": [key]}},
    )
    assert sent.status_code == 201, sent.content
    assert signed_in_api.get("uploads/expiring_url", query={"key": key}).status_code == 200
    assert not events(actions.ATTACHMENT_OPENED)  # the employee's own file
    for _ in range(2):
        assert desk.get("uploads/expiring_url", query={"key": key}).status_code == 200
    event = only(actions.ATTACHMENT_OPENED, key)
    assert (event.actor_id, event.actor_role, event.target_type, event.target_id) == (
        concierge.pk,
        "concierge",
        "request",
        str(service_request.pk),
    )
    assert event.details == {"attachment_id": Upload.objects.get(key=key).pk}


def test_report_views_and_csv_exports(hr_api, hr, company):
    """issue 27 audit trail: company report views and CSV exports."""
    assert hr_api.get("company/report").status_code == 200
    assert hr_api.get("company/report.csv").status_code == 200
    viewed = only(actions.REPORT_VIEWED)
    assert (viewed.actor_id, viewed.company_id, viewed.actor_role) == (
        hr.pk,
        company.pk,
        "company admin",
    )
    assert only(actions.REPORT_EXPORTED).details["format"] == "csv"


def test_members_page_actions(hr_api, hr, user, company):
    """issue 27 audit trail: members page actions (deactivate, reactivate, invites)."""
    record = membership_join(user=user, company=company, source=EmployeeRecord.Source.SIGN_UP)
    base = f"company/{company.pk}"
    assert hr_api.post(f"{base}/members/{record.pk}/deactivate").status_code == 200
    assert hr_api.post(f"{base}/members/{record.pk}/reactivate").status_code == 200
    created = hr_api.post(f"{base}/invites", {"label": "Spring", "max_uses": 5, "valid_days": 7})
    assert created.status_code == 201, created.content
    invite_id = created.json()["invite"]["id"]
    assert hr_api.post(f"{base}/invites/{invite_id}/revoke").status_code == 200
    for action in (actions.MEMBER_DEACTIVATED, actions.MEMBER_REACTIVATED):
        event = only(action)
        assert (event.actor_id, event.actor_role, event.company_id, event.target_id) == (
            hr.pk,
            "company admin",
            company.pk,
            str(record.pk),
        )
    # The deactivated person's sessions were ended by the company admin, not by themselves.
    revoked = only(actions.SESSIONS_REVOKED)
    assert (revoked.actor_id, revoked.actor_role, revoked.target_id) == (
        hr.pk,
        "company admin",
        str(user.pk),
    )
    only(actions.INVITE_SENT, created.json()["link"])
    only(actions.INVITE_REVOKED)


def test_scim_token_created_then_rotated_never_the_token(hr_api, hr, company):
    """issue 27 audit trail: the SCIM token's creation, rotation and revocation by the company
    admin (in that role), never the token."""
    tokens = [hr_api.post(f"company/{company.pk}/scim").json()["token"] for _ in range(2)]
    assert hr_api.delete(f"company/{company.pk}/scim").status_code == 204
    changes = events(actions.SCIM_TOKEN_CHANGED)
    assert [e.details["change"] for e in changes] == ["created", "rotated", "revoked"]
    for event in changes:
        assert (event.actor_id, event.actor_role, event.company_id) == (
            hr.pk,
            "company admin",
            company.pk,
        )
        assert not any(token in json.dumps(event.details) for token in tokens)


def test_scim_deactivation_and_reactivation_are_the_company_scim_clients(company, user):
    """issue 27 audit trail: a membership ended and restored by the company's SCIM client is
    in the company's log as the system's, through SCIM; the sessions it ended too (never as
    the employee's own doing)."""
    from concierge.provisioning.tests.conftest import ScimClient, new_user

    raw, _ = scim_token_rotate(company=company, created_by=None)
    scim = ScimClient(raw)
    created = new_user(scim, user.email)
    patch = {"Operations": [{"op": "replace", "path": "active", "value": False}]}
    assert scim.patch(f"Users/{created['id']}", patch).status_code == 200
    patch["Operations"][0]["value"] = True
    assert scim.patch(f"Users/{created['id']}", patch).status_code == 200
    for action in (
        actions.MEMBER_DEACTIVATED,
        actions.SESSIONS_REVOKED,
        actions.MEMBER_REACTIVATED,
    ):
        event = only(action)
        assert (event.actor_id, event.actor_role, event.details.get("via")) == (
            None,
            "system",
            "scim",
        ), action
    assert only(actions.MEMBER_DEACTIVATED).company_id == company.pk
    assert only(actions.MEMBER_DEACTIVATED).target_id == created["id"]


def test_role_changes(user, company):
    """issue 27 audit trail: role changes (concierge group, company admin, staff/superuser)."""
    group, _ = Group.objects.get_or_create(name="Concierges")
    user.groups.add(group)
    CompanyAdmin.objects.create(user=user, company=company)
    user.is_staff = True
    user.save()
    user.save()  # saved again unchanged: nothing more
    roles = [(e.details["role"], e.details["change"]) for e in events(actions.ROLE_CHANGED)]
    assert roles == [
        ("group Concierges", "granted"),
        ("company admin", "granted"),
        ("staff", "granted"),
    ]


def test_django_admin_changes_with_before_and_after(root, admin_client):
    """issue 27 audit trail: Django admin changes (every admin): who, what, before/after."""
    group = Group.objects.create(name="Helpers")
    response = admin_client.post(f"/admin/auth/group/{group.pk}/change/", {"name": "Assistants"})
    assert response.status_code == 302
    changed = only(actions.ADMIN_CHANGED)
    assert (changed.actor_id, changed.target_type, changed.target_id) == (
        root.pk,
        "auth.group",
        str(group.pk),
    )
    assert changed.details["fields"]["name"] == {"before": "Helpers", "after": "Assistants"}
    response = admin_client.post(f"/admin/auth/group/{group.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert only(actions.ADMIN_DELETED).target_id == str(group.pk)


def test_company_settings_changed_in_the_admin_show_in_the_company_log(
    root, admin_client, company, hr_api
):
    """issue 27 audit trail: support changing a company's settings in Django admin is also the
    company's own administration (before/after), which its company admin sees in their log."""
    from django import forms

    from concierge.accounts.admin import CompanyForm

    form = CompanyForm(instance=company)
    data = {}
    for name, field in form.fields.items():
        if isinstance(field, forms.FileField):
            continue  # no logo: left as it is
        value = form[name].value()
        if isinstance(field, forms.BooleanField):
            if value:
                data[name] = "on"
        elif isinstance(field, forms.DateTimeField):  # the admin's date and time boxes
            data[f"{name}_0"], data[f"{name}_1"] = f"{value:%Y-%m-%d}", f"{value:%H:%M:%S}"
        elif value is not None:
            data[name] = value
    data["name"] = "Acme Corporation"
    response = admin_client.post(f"/admin/accounts/company/{company.pk}/change/", data)
    assert response.status_code == 302, response.content

    changed = only(actions.COMPANY_SETTINGS_CHANGED)
    assert (changed.actor_id, changed.company_id) == (root.pk, company.pk)
    assert changed.details["fields"]["name"] == {"before": "Acme Corp", "after": "Acme Corporation"}
    shown = hr_api.get(f"company/{company.pk}/audit").json()["events"]
    assert actions.COMPANY_SETTINGS_CHANGED in [e["action"] for e in shown]


def test_django_admin_never_records_a_secret():
    """issue 27 audit trail: a secret field changed in the admin is named, never its value."""
    from django import forms

    from concierge.audit.admin_changes import form_changes

    class SecretForm(forms.Form):
        name = forms.CharField()
        client_secret = forms.CharField()

    form = SecretForm(
        data={"name": "b", "client_secret": "s3cr3t-value"},
        initial={"name": "a", "client_secret": "old-s3cr3t"},
    )
    assert form.is_valid()
    assert form_changes(form) == {
        "name": {"before": "a", "after": "b"},
        "client_secret": {"changed": True},
    }


def test_a_superuser_opening_a_request_in_the_admin(root, admin_client, user, make_request):
    """issue 27 audit trail: an admin opening a request or an employee's account in Django
    admin is an opening (once per window), which the employee sees."""
    service_request = make_request(user)
    for _ in range(2):
        page = admin_client.get(
            f"/admin/servicerequests/servicerequest/{service_request.pk}/change/"
        )
        assert page.status_code == 200
    assert admin_client.get(f"/admin/accounts/user/{user.pk}/change/").status_code == 200
    opened = only(actions.REQUEST_OPENED)
    assert (opened.actor_id, opened.actor_role, opened.target_id) == (
        root.pk,
        "superuser",
        str(service_request.pk),
    )
    assert only(actions.PROFILE_OPENED).target_id == str(user.pk)


def test_a_superuser_opening_an_attachment_in_the_admin(
    root, admin_client, signed_in_api, user, make_request
):
    """issue 27 audit trail: an admin opening a request's attachment in Django admin (the
    Upload's change page) is an opening of that request, once per window, which the employee
    sees; a file of no request is an opening of its owner's data."""
    from concierge.uploads.models import Upload

    service_request = make_request(user)
    attachment = Upload.objects.create(
        owner=user, key="attachments/x/scan.pdf", filename="scan.pdf", request=service_request
    )
    answer_file = Upload.objects.create(owner=user, key="answers/x/id.png", filename="id.png")
    for _ in range(2):
        page = admin_client.get(f"/admin/uploads/upload/{attachment.pk}/change/")
        assert page.status_code == 200
    assert admin_client.get(f"/admin/uploads/upload/{answer_file.pk}/change/").status_code == 200
    # A file that is not there: the admin goes back to the list, and nothing was opened.
    missing = admin_client.get("/admin/uploads/upload/999999/change/")
    assert (missing.status_code, missing["Location"]) == (302, "/admin/")

    opened = events(actions.ATTACHMENT_OPENED)
    assert [(e.actor_id, e.actor_role, e.target_type, e.target_id, e.details) for e in opened] == [
        (root.pk, "superuser", "request", str(service_request.pk),
         {"attachment_id": attachment.pk, "via": "admin"}),
        (root.pk, "superuser", "user", str(user.pk),
         {"attachment_id": answer_file.pk, "via": "admin"}),
    ]  # fmt: skip
    seen = signed_in_api.get(f"requests/{service_request.pk}/seen_by").json()["seen_by"]
    assert [(s["name"], s["role"]) for s in seen] == [("Root", "superuser")]


def test_company_sign_in_settings_without_the_client_secret(hr_api, hr, company):
    """issue 27 audit trail: the company's sign-in (SSO) settings, never the client secret."""
    secret = "oidc-client-secret-value-123"
    settings = {
        "kind": "oidc",
        "oidc_issuer": "https://idp.example.com",
        "oidc_client_id": "concierge",
        "oidc_client_secret": secret,
    }
    response = hr_api.put(f"company/{company.pk}/sso", settings)
    assert response.status_code == 200, response.content
    changed = only(actions.SSO_SETTINGS_CHANGED, secret)
    assert (changed.actor_id, changed.actor_role, changed.company_id) == (
        hr.pk,
        "company admin",
        company.pk,
    )
    assert changed.details["kind"] == "oidc"


def test_roster_import_counts_only(hr_api, hr, company):
    """issue 27 audit trail: a roster import (the counts, not the people); a preview records
    nothing."""
    from concierge.provisioning.tests.test_roster import upload

    roster = "email,status\nnew.hire@example.com,active\n"
    assert upload(hr_api, company, "preview", roster).status_code == 200
    assert not events(actions.ROSTER_IMPORTED)
    assert upload(hr_api, company, "apply", roster).status_code == 200
    imported = only(actions.ROSTER_IMPORTED, "new.hire@example.com")
    assert (imported.actor_id, imported.actor_role, imported.company_id) == (
        hr.pk,
        "company admin",
        company.pk,
    )
    assert imported.details["create"] == 1


def test_data_export_asked_built_and_downloaded(signed_in_api, user, outbox):
    """issue 27 audit trail: the employee's data exports (asked, built, downloaded), each
    once, never the link's token."""
    from urllib.parse import urlsplit

    assert signed_in_api.post("users/data_export").status_code == 202
    [email] = [e for e in outbox.emails(user.email) if "/account/data#" in e.body]
    token = urlsplit(email.body.split()[email.body.split().index("here:") + 1]).fragment
    downloaded = signed_in_api.post("users/data_export/download", {"token": token})
    assert downloaded.status_code == 200
    for action in (
        actions.DATA_EXPORT_REQUESTED,
        actions.DATA_EXPORTED,
        actions.DATA_EXPORT_DOWNLOADED,
    ):
        event = only(action, token)
        assert (event.actor_id, event.actor_role, event.target_type, event.target_id) == (
            user.pk,
            "member",  # one of audit.md's roles
            "user",
            str(user.pk),
        )
