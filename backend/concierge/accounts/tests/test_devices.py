"""The Account page's signed-in devices: each session of the person, named after the browser
that signed in, and signing one or all of the others out."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from concierge.accounts.devices import device_label
from concierge.accounts.models import AuthToken
from concierge.accounts.personal_data import account_export
from concierge.audit import actions
from concierge.audit.models import AuditEvent
from conftest import ApiClient

IPHONE = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"
)
WINDOWS = (
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 "
    "(KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
)
MAC = (
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) Version/17.1 Safari/605.1.15"
)


def signed_in_from(user_agent: str, email: str) -> ApiClient:
    api = ApiClient(Client(headers={"User-Agent": user_agent}))
    assert api.sign_in(email).status_code == 200
    return api


@pytest.mark.parametrize(
    ("user_agent", "label"),
    [
        (IPHONE, "Mobile Safari on iPhone"),
        (WINDOWS, "Chrome on Windows"),
        (MAC, "Safari on macOS"),
        (
            "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
            "Firefox on Linux",
        ),
        ("", "Unknown device"),
        ("\x00" * 5000, "Unknown device"),
    ],
)
def test_devices_are_named_after_the_browser_that_signed_in(user_agent, label):
    """Account, signed-in devices: a device is 'browser on system', or 'Unknown device'."""
    assert device_label(user_agent) == label


def test_devices_lists_every_session_newest_first_this_one_marked(db, user, user_factory):
    """Account, signed-in devices: the person's live sessions, newest first, each named after its
    browser, the asking one `current`; signed-out ones and another person's are not listed."""
    phone = signed_in_from(IPHONE, user.email)
    gone = signed_in_from(MAC, user.email)
    assert gone.sign_out().status_code == 200
    other_person = user_factory(email="grace@example.com")
    signed_in_from(MAC, other_person.email)
    laptop = signed_in_from(WINDOWS, user.email)

    response = laptop.get("users/devices")

    assert response.status_code == 200
    devices = response.json()["devices"]
    assert [(d["device"], d["current"]) for d in devices] == [
        ("Chrome on Windows", True),
        ("Mobile Safari on iPhone", False),
    ]
    assert [d["device"] for d in phone.get("users/devices").json()["devices"] if d["current"]] == [
        "Mobile Safari on iPhone"
    ]


def test_devices_list_is_one_query_however_many_sessions(db, user):
    """Account, signed-in devices: the list reads the sessions in one query besides the
    session's own, for two sessions or twelve."""
    laptop = signed_in_from(WINDOWS, user.email)
    counts = []
    for more in (1, 10):
        for _ in range(more):
            signed_in_from(IPHONE, user.email)
        with CaptureQueriesContext(connection) as queries:
            assert laptop.get("users/devices").status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1] == 2


def test_signing_one_device_out_ends_it_at_once_and_is_audited(db, user):
    """Security, signed-in devices: signing the phone out from the laptop answers the phone's
    next request with 401, drops it from the list, keeps the laptop signed in and writes the
    audit trail's 'sessions revoked' in the person's name."""
    phone = signed_in_from(IPHONE, user.email)
    laptop = signed_in_from(WINDOWS, user.email)
    phone_id = next(
        d["id"] for d in laptop.get("users/devices").json()["devices"] if not d["current"]
    )

    response = laptop.delete(f"users/devices/{phone_id}")

    assert response.status_code == 200
    assert phone.get("users/current").status_code == 401
    assert laptop.get("users/current").status_code == 200
    assert [d["device"] for d in laptop.get("users/devices").json()["devices"]] == [
        "Chrome on Windows"
    ]
    event = AuditEvent.objects.get(action=actions.SESSIONS_REVOKED)
    assert (event.actor_id, event.target_id) == (user.pk, str(user.pk))
    assert event.details == {"sessions": 1, "this_device_kept": True}


@pytest.mark.parametrize("which", ["another person's", "signed out", "unknown", "too large"])
def test_signing_out_a_device_that_is_not_yours_or_gone_is_a_404(db, user, user_factory, which):
    """Security, signed-in devices: another person's session, one already signed out, an unknown
    or out-of-range id is 'This device is already signed out.' (404), and nothing changes."""
    laptop = signed_in_from(WINDOWS, user.email)
    other = signed_in_from(IPHONE, user_factory(email="grace@example.com").email)
    mine = signed_in_from(MAC, user.email)
    ids = {
        "another person's": AuthToken.objects.get(user__email="grace@example.com").pk,
        "signed out": AuthToken.objects.filter(user=user).order_by("-pk").first().pk,
        "unknown": 987_654_321,
        "too large": 2**70,
    }
    if which == "signed out":
        assert mine.sign_out().status_code == 200

    response = laptop.delete(f"users/devices/{ids[which]}")

    assert response.status_code == 404
    assert response.json()["error"] == "This device is already signed out."
    assert other.get("users/current").status_code == 200
    assert not AuditEvent.objects.filter(action=actions.SESSIONS_REVOKED).exists()


def test_signing_out_every_other_device_keeps_this_one(db, user):
    """Security, signed-in devices: 'Sign out of all other devices' ends every session but the
    asking one and says how many; with none left it is 0 and audits nothing more."""
    others = [signed_in_from(agent, user.email) for agent in (IPHONE, MAC)]
    laptop = signed_in_from(WINDOWS, user.email)

    assert laptop.delete("users/devices").json() == {"signed_out": 2}
    assert [api.get("users/current").status_code for api in others] == [401, 401]
    assert laptop.get("users/current").status_code == 200
    assert laptop.delete("users/devices").json() == {"signed_out": 0}
    assert AuditEvent.objects.filter(action=actions.SESSIONS_REVOKED).count() == 1


def test_signed_in_devices_need_a_session(api):
    """Security, signed-in devices: without a session every call is a 401."""
    assert api.get("users/devices").status_code == 401
    assert api.delete("users/devices").status_code == 401
    assert api.delete("users/devices/1").status_code == 401


def test_download_my_data_holds_the_signed_in_devices(db, user):
    """Privacy: 'Download my data' lists the devices signed in, by name and sign-in time."""
    signed_in_from(IPHONE, user.email)
    exported = account_export(user=user)["signed_in_devices"]
    assert [entry["device"] for entry in exported] == ["Mobile Safari on iPhone"]
    assert exported[0]["signed_in_at"]


def _new_sign_in_notices(outbox, email: str):
    return [e for e in outbox.emails(email) if "New sign-in to your" in e.subject]


def test_a_sign_in_from_a_new_device_is_told_to_the_account(db, user, outbox, tasks):
    """Security, signed-in devices: the first sign-in is no news, nor another from the same
    browser; one from a browser the account was never signed in from emails its address, naming
    the device and where to sign it out, once."""
    signed_in_from(WINDOWS, user.email)
    signed_in_from(WINDOWS, user.email)
    assert _new_sign_in_notices(outbox, user.email) == []

    signed_in_from(IPHONE, user.email)
    signed_in_from(IPHONE, user.email)

    [notice] = _new_sign_in_notices(outbox, user.email)
    assert "Mobile Safari on iPhone" in notice.body
    assert "/account" in notice.body and "Signed-in devices" in notice.body


def test_sessions_from_before_devices_were_named_send_no_notice(db, user, outbox, tasks):
    """Security, signed-in devices: an account whose only sessions are unnamed (signed in before
    devices were named) gets no 'new sign-in' email when it next signs in."""
    signed_in_from(WINDOWS, user.email)
    AuthToken.objects.filter(user=user).update(device="")
    signed_in_from(IPHONE, user.email)
    assert _new_sign_in_notices(outbox, user.email) == []
