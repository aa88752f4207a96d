"""Issue 28 notification preferences, push devices and one-click unsubscribe, through the API."""

from __future__ import annotations

import base64
import os
from datetime import timedelta

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.test import Client
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from concierge.accounts.models import AuthToken
from concierge.notification_settings.models import NotificationPreference, PushSubscription
from concierge.notification_settings.selectors import email_allowed, unsubscribe_token
from concierge.notification_settings.services import device_label

pytestmark = pytest.mark.django_db
FCM = "https://fcm.googleapis.com/fcm/send/"
# What a browser asks for when it opens a link.
BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
ANDROID_CHROME = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/126.0.0.0 Mobile Safari/537.36"
)


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def browser_keys() -> dict[str, str]:
    key = ec.generate_private_key(ec.SECP256R1()).public_key()
    raw = key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return {"p256dh": b64url(raw), "auth": b64url(os.urandom(16))}


def test_preferences_default_then_change(signed_in_api):
    """Issue 28 preferences: defaults (email and push on, previews off), then a PATCH changes
    only what it names and is kept."""
    body = signed_in_api.get("notifications/preferences").json()
    assert body == {
        "reply_email": True,
        "reply_push": True,
        "completion_email": True,
        "completion_push": True,
        "show_previews": False,
        "desk_new_request_push": False,
        "desk_reply_push": False,
        "is_concierge": False,
    }
    response = signed_in_api.patch(
        "notifications/preferences", {"reply_email": False, "show_previews": True}
    )
    assert response.status_code == 200
    body = signed_in_api.get("notifications/preferences").json()
    assert body["reply_email"] is False and body["show_previews"] is True
    assert body["completion_email"] is True


def test_desk_settings_are_for_concierges_only(signed_in_api, concierge_api, concierge, user):
    """Issue 28 desk push: an employee can't turn desk push on (422, nothing stored); a
    concierge can."""
    response = signed_in_api.patch("notifications/preferences", {"desk_new_request_push": True})
    assert response.status_code == 422
    assert not NotificationPreference.objects.filter(user=user).exists()
    response = concierge_api.patch("notifications/preferences", {"desk_new_request_push": True})
    assert response.status_code == 200
    assert response.json()["desk_new_request_push"] is True
    assert response.json()["is_concierge"] is True


def test_preferences_refuse_bad_input_and_strangers(signed_in_api, make_api):
    """Issue 28 preferences: a non-boolean is a 422, not signed in a 401, never a 500."""
    assert (
        signed_in_api.patch("notifications/preferences", {"reply_email": "maybe"}).status_code
        == 422
    )
    assert signed_in_api.patch("notifications/preferences", raw="{").status_code in (400, 422)
    stranger = make_api()
    assert stranger.get("notifications/preferences").status_code == 401
    assert stranger.get("notifications/push_subscriptions").status_code == 401


def test_push_key_unavailable_without_vapid(signed_in_api, settings):
    """Issue 28 push: with no VAPID keys the app is told push is unavailable."""
    settings.VAPID_PRIVATE_KEY = ""
    assert signed_in_api.get("notifications/push_key").json() == {
        "available": False,
        "public_key": None,
    }


def test_push_key_available_with_vapid(signed_in_api, settings):
    """Issue 28 push: the public key derived from the configured private key is handed out."""
    key = ec.generate_private_key(ec.SECP256R1())
    settings.VAPID_PRIVATE_KEY = b64url(key.private_numbers().private_value.to_bytes(32, "big"))
    settings.VAPID_PUBLIC_KEY = ""
    body = signed_in_api.get("notifications/push_key").json()
    raw = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    assert body == {"available": True, "public_key": b64url(raw)}
    settings.VAPID_PUBLIC_KEY = b64url(b"\x04" + os.urandom(64))  # not this key's: refused
    assert signed_in_api.get("notifications/push_key").json()["available"] is False


def test_subscribe_list_and_remove_a_device(signed_in_api, make_api, user):
    """Issue 28 devices: subscribing stores the device with a readable name, bound to the
    session it was saved in; the list marks this browser's; subscribing again updates the same
    row; removing deletes it."""
    endpoint = FCM + "abc"
    data = {"endpoint": endpoint, "keys": browser_keys()}
    response = signed_in_api.post(
        "notifications/push_subscriptions",
        data | {"explicit": True},
        headers={"User-Agent": ANDROID_CHROME},
    )
    assert response.status_code == 201, response.content
    created = response.json()
    assert created["device_label"] == "Chrome on Android"
    again = signed_in_api.post("notifications/push_subscriptions", data)
    assert again.status_code == 201 and again.json()["id"] == created["id"]
    session = AuthToken.objects.get(user=user, revoked_at__isnull=True)
    assert PushSubscription.objects.get(pk=created["id"]).session == session
    listed = signed_in_api.get("notifications/push_subscriptions").json()["push_subscriptions"]
    assert [(d["id"], d["current"]) for d in listed] == [(created["id"], True)]
    other_session = make_api()
    other_session.sign_in(user.email)
    listed = other_session.get("notifications/push_subscriptions").json()["push_subscriptions"]
    assert [(d["id"], d["current"]) for d in listed] == [(created["id"], False)]
    response = signed_in_api.delete(f"notifications/push_subscriptions/{created['id']}")
    assert response.status_code == 204
    assert not PushSubscription.objects.filter(user=user).exists()


def test_a_device_removed_elsewhere_is_not_added_back_by_the_apps_own_save(
    signed_in_api, make_api, user
):
    """Issue 28 devices: removing a browser from another device sticks. The app's own save when
    that browser starts again is a 404 that adds nothing; turning notifications on there
    (explicit) adds it back."""
    data = {"endpoint": FCM + "laptop", "keys": browser_keys()}
    laptop_id = signed_in_api.post(
        "notifications/push_subscriptions", data | {"explicit": True}
    ).json()["id"]
    phone = make_api()
    phone.sign_in(user.email)
    assert phone.delete(f"notifications/push_subscriptions/{laptop_id}").status_code == 204

    again = signed_in_api.post("notifications/push_subscriptions", data)
    assert again.status_code == 404
    assert not PushSubscription.objects.filter(user=user).exists()

    turned_on = signed_in_api.post("notifications/push_subscriptions", data | {"explicit": True})
    assert turned_on.status_code == 201
    assert PushSubscription.objects.filter(user=user, endpoint=data["endpoint"]).exists()


def test_the_apps_own_save_never_adds_a_browser_the_person_did_not_turn_on(signed_in_api):
    """Issue 28 devices: without `explicit`, an endpoint not on file is a 404, never a device."""
    data = {"endpoint": FCM + "never-turned-on", "keys": browser_keys()}
    response = signed_in_api.post("notifications/push_subscriptions", data)
    assert response.status_code == 404
    assert not PushSubscription.objects.exists()


def test_saving_a_device_again_keeps_the_date_it_was_added(signed_in_api, user):
    """Issue 28 devices: each start of the app saves the browser again; that updates its keys
    and session but not when it was added (the list says "Added" that day, not today)."""
    data = {"endpoint": FCM + "phone", "keys": browser_keys()}
    created = signed_in_api.post("notifications/push_subscriptions", data | {"explicit": True})
    added = (timezone.now() - timedelta(days=30)).replace(microsecond=0)
    PushSubscription.objects.filter(pk=created.json()["id"]).update(created_at=added)

    new_keys = browser_keys()
    again = signed_in_api.post("notifications/push_subscriptions", data | {"keys": new_keys})
    assert again.status_code == 201
    device = PushSubscription.objects.get(pk=created.json()["id"])
    assert device.created_at == added
    assert device.p256dh == new_keys["p256dh"]
    listed = signed_in_api.get("notifications/push_subscriptions").json()["push_subscriptions"]
    assert parse_datetime(listed[0]["created_at"]) == added


def test_a_device_another_person_signs_in_on_is_added_to_theirs_that_day(
    signed_in_api, make_api, bob
):
    """Issue 28 devices: the same browser saved by someone else now signed in on it becomes
    their device, added then (not on the day its previous person added it)."""
    data = {"endpoint": FCM + "shared", "keys": browser_keys()}
    created = signed_in_api.post("notifications/push_subscriptions", data | {"explicit": True})
    PushSubscription.objects.filter(pk=created.json()["id"]).update(
        created_at=timezone.now() - timedelta(days=30)
    )
    bobs = make_api()
    bobs.sign_in(bob.email)
    assert bobs.post("notifications/push_subscriptions", data).status_code == 201
    device = PushSubscription.objects.get(pk=created.json()["id"])
    assert device.user == bob
    assert device.created_at > timezone.now() - timedelta(minutes=1)


@pytest.mark.parametrize(
    "endpoint",
    [
        "http://fcm.googleapis.com/fcm/send/abc",
        "https://127.0.0.1/push",
        "https://169.254.169.254/latest/meta-data",
        "https://fcm.googleapis.com.evil.example/x",
        "https://user@fcm.googleapis.com/x",
        "https://fcm.googleapis.com:8443/x",
        "not a url",
        "",
    ],
)
def test_only_browser_push_services_are_accepted(signed_in_api, endpoint):
    """Issue 28 devices: an endpoint that is not a browser push service over https is a 422
    (the server never calls an address of its own network)."""
    response = signed_in_api.post(
        "notifications/push_subscriptions", {"endpoint": endpoint, "keys": browser_keys()}
    )
    assert response.status_code == 422
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize(
    "keys",
    [
        {"p256dh": "AAAA", "auth": b64url(os.urandom(16))},
        {"p256dh": b64url(b"\x04" + b"\x00" * 64), "auth": b64url(os.urandom(16))},
        {"p256dh": "%%%", "auth": "%%%"},
        {"p256dh": browser_keys()["p256dh"], "auth": b64url(os.urandom(5))},
        {"p256dh": "x" * 500, "auth": "y"},
    ],
)
def test_invalid_keys_are_refused(signed_in_api, keys):
    """Issue 28 devices: keys that are not a P-256 point and a 16-byte secret: 422, never 500."""
    response = signed_in_api.post(
        "notifications/push_subscriptions", {"endpoint": FCM + "x", "keys": keys}
    )
    assert response.status_code == 422


def test_someone_elses_device_cant_be_removed_or_seen(signed_in_api, bob):
    """Issue 28 devices: another person's subscription is not listed and deleting it is a 404
    that leaves it in place."""
    theirs = PushSubscription.objects.create(
        user=bob, endpoint=FCM + "bob", p256dh="x", auth="y", device_label="Safari on iPhone"
    )
    assert signed_in_api.get("notifications/push_subscriptions").json() == {
        "push_subscriptions": []
    }
    response = signed_in_api.delete(f"notifications/push_subscriptions/{theirs.pk}")
    assert response.status_code == 404
    assert PushSubscription.objects.filter(pk=theirs.pk).exists()
    assert signed_in_api.delete("notifications/push_subscriptions/0").status_code == 404
    too_big = "notifications/push_subscriptions/99999999999999999999"
    assert signed_in_api.delete(too_big).status_code in (404, 422)


def test_one_click_unsubscribe_turns_that_email_off(user):
    """Issue 28 RFC 8058: the mail client's POST (form body, no session, no CSRF token) turns
    off the email of the token's kind only; again is harmless."""
    client = Client(enforce_csrf_checks=True)
    token = unsubscribe_token(user=user, kind="reply")
    url = f"/api/v1/notifications/unsubscribe/{token}"
    for _ in range(2):
        response = client.post(
            url, "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded"
        )
        assert response.status_code == 200, response.content
        assert response.json() == {"kind": "reply", "unsubscribed": True}
    assert not email_allowed(user=user, kind="reply")
    assert email_allowed(user=user, kind="completion")


def test_opening_the_unsubscribe_link_changes_nothing(user):
    """Issue 28 unsubscribe: a GET (a mail scanner, or the person's browser) shows a page with
    a button and changes nothing; the button's POST unsubscribes and says so."""
    token = unsubscribe_token(user=user, kind="completion")
    url = f"/api/v1/notifications/unsubscribe/{token}"
    client = Client(enforce_csrf_checks=True)
    page = client.get(url, headers={"Accept": BROWSER_ACCEPT})
    assert page.status_code == 200
    assert "Unsubscribe from these emails?" in page.content.decode()
    assert 'method="post"' in page.content.decode()
    assert email_allowed(user=user, kind="completion")
    done = client.post(url, {"List-Unsubscribe": "One-Click"}, headers={"Accept": "text/html"})
    assert done.status_code == 200
    assert "emails about completed requests" in done.content.decode()
    assert not email_allowed(user=user, kind="completion")
    forged = Client().get("/api/v1/notifications/unsubscribe/forged")
    assert forged.status_code == 404
    assert "not valid" in forged.content.decode()


def test_opening_the_unsubscribe_link_says_whether_its_email_is_already_off(user):
    """Email QA: the link's GET answers which email it turns off and whether that email is
    already off (after the link's POST, or turned off in the preferences), changing nothing."""
    reply_url = f"/api/v1/notifications/unsubscribe/{unsubscribe_token(user=user, kind='reply')}"
    client = Client()
    for _ in range(2):
        response = client.get(reply_url)
        assert response.status_code == 200, response.content
        assert response.json() == {"kind": "reply", "already_unsubscribed": False}
    assert email_allowed(user=user, kind="reply")
    client.post(reply_url)
    assert client.get(reply_url).json() == {"kind": "reply", "already_unsubscribed": True}

    NotificationPreference.objects.filter(user=user).update(completion_email=False)
    token = unsubscribe_token(user=user, kind="completion")
    completion = client.get(f"/api/v1/notifications/unsubscribe/{token}")
    assert completion.json() == {"kind": "completion", "already_unsubscribed": True}


def test_reopening_the_unsubscribe_page_after_unsubscribing_says_it_is_done(user):
    """Email QA: the unsubscribe link opened in a browser once its email is off says so, with
    no second 'Unsubscribe from these emails?' and no button."""
    url = f"/api/v1/notifications/unsubscribe/{unsubscribe_token(user=user, kind='reply')}"
    client = Client()
    client.post(url)
    page = client.get(url, headers={"Accept": BROWSER_ACCEPT})
    assert page.status_code == 200
    text = page.content.decode()
    assert "You’re unsubscribed" in text
    assert "emails about your concierge’s replies" in text
    assert "Unsubscribe from these emails?" not in text
    assert 'method="post"' not in text


def test_opening_a_link_not_genuine_or_whose_person_is_gone_is_404(user_factory):
    """Email QA: the link's GET is a 404 for a forged token and for a person who is gone, as
    its POST is (JSON for the API, the 'not valid' page for a browser)."""
    gone = user_factory()
    token = unsubscribe_token(user=gone, kind="reply")
    gone.delete()
    for bad in (token, "forged"):
        url = f"/api/v1/notifications/unsubscribe/{bad}"
        response = Client().get(url)
        assert response.status_code == 404, bad
        assert response.json()["error"] == "This unsubscribe link is not valid."
        page = Client().get(url, headers={"Accept": BROWSER_ACCEPT})
        assert page.status_code == 404
        assert "This unsubscribe link is not valid." in page.content.decode()


def test_a_tampered_unsubscribe_token_is_refused(user):
    """Issue 28 unsubscribe: a changed token is a 404 and nothing is written."""
    token = unsubscribe_token(user=user, kind="reply")
    tampered = token.replace(token.split(":")[0], token.split(":")[0][:-1] + "x", 1)
    for bad in (tampered, token + "x", "x", "a" * 600, "%00"):
        response = Client().post(f"/api/v1/notifications/unsubscribe/{bad}")
        assert response.status_code in (400, 404), (bad, response.status_code)
    assert not NotificationPreference.objects.exists()


def test_a_token_for_a_deleted_person_is_refused(user_factory):
    """Issue 28 unsubscribe: a genuine token whose person is gone is a 404, not a 500."""
    gone = user_factory()
    token = unsubscribe_token(user=gone, kind="reply")
    gone.delete()
    assert Client().post(f"/api/v1/notifications/unsubscribe/{token}").status_code == 404


def test_device_labels():
    """Issue 28 devices: a readable name from common User-Agents."""
    assert device_label(ANDROID_CHROME) == "Chrome on Android"
    iphone = (
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 "
        "(KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"
    )
    assert device_label(iphone) == "Safari on iPhone"
    firefox = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0"
    assert device_label(firefox) == "Firefox on Windows"
    assert device_label("") == "Unknown device"
