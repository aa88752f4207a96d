"""Issue 28 web push, end to end: the push service is a server on a local port that decrypts
each payload (RFC 8291 aes128gcm) with the subscription's private key and verifies the VAPID
signature (RFC 8292, ES256) against the server's public key."""

from __future__ import annotations

import base64
import json
import os

import http_ece
import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

from concierge.accounts.services.tokens import auth_token_create, auth_token_revoke
from concierge.notification_settings.models import NotificationPreference, PushSubscription
from concierge.notification_settings.tests.push_server import PushService
from concierge.servicerequests import services as request_services

pytestmark = pytest.mark.django_db
TASK = "concierge.notification_settings.tasks.push_deliver"


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def point(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )


@pytest.fixture
def vapid(settings):
    """The server's VAPID key pair, as the environment would give it."""
    key = ec.generate_private_key(ec.SECP256R1())
    raw = key.private_numbers().private_value.to_bytes(32, "big")
    settings.VAPID_PRIVATE_KEY = b64url(raw)
    settings.VAPID_PUBLIC_KEY = b64url(point(key))
    settings.VAPID_SUBJECT = "mailto:ops@example.com"
    settings.COMPLETION_EMAIL_DELAY_SECONDS = 0
    return key


@pytest.fixture
def push_service():
    service = PushService().start()
    yield service
    service.stop()


class Browser:
    """A browser's subscription: its own key pair and auth secret, as the Push API makes them."""

    def __init__(self, user, service: PushService, name: str = "phone") -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        _, self.session = auth_token_create(user)  # the person is signed in on it
        self.subscription = PushSubscription.objects.create(
            user=user,
            session=self.session,
            endpoint=f"{service.url}/push/{name}",
            p256dh=b64url(point(self.key)),
            auth=b64url(self.auth),
            device_label="Chrome on Android",
        )

    def decrypt(self, body: bytes) -> dict:
        plain = http_ece.decrypt(
            body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        return json.loads(plain)


def vapid_claims(headers: dict[str, str], public_key: ec.EllipticCurvePublicKey) -> dict:
    """The JWT's claims once its ES256 signature checks out against `public_key` (and the k=
    in the header is that key). Raises InvalidSignature otherwise."""
    scheme, _, params = headers["authorization"].partition(" ")
    assert scheme == "vapid"
    fields = dict(part.strip().split("=", 1) for part in params.split(","))
    assert b64url_decode(fields["k"]) == public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    header_b64, claims_b64, signature_b64 = fields["t"].split(".")
    assert json.loads(b64url_decode(header_b64))["alg"] == "ES256"
    signature = b64url_decode(signature_b64)
    r, s = int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big")
    public_key.verify(
        encode_dss_signature(r, s),
        f"{header_b64}.{claims_b64}".encode(),
        ec.ECDSA(hashes.SHA256()),
    )
    return json.loads(b64url_decode(claims_b64))


def test_a_concierge_reply_reaches_the_employees_device_encrypted_and_signed(
    vapid, push_service, user, concierge, make_request, tasks
):
    """Issue 28 push: a concierge's reply is one aes128gcm message to the employee's device,
    signed with the server's VAPID key for that push service, naming the request's URL and
    (previews off by default) no message text nor the request's name."""
    browser = Browser(user, push_service)
    request = make_request(user, name="Plan the anniversary dinner")
    request_services.concierge_reply_create(
        request=request, author=concierge, body="Tuesday at 8 at Luigi's works"
    )
    tasks.run()

    assert len(push_service.received) == 1
    sent = push_service.received[0]
    assert sent.path == "/push/phone"
    assert sent.headers["content-encoding"] == "aes128gcm"
    assert int(sent.headers["ttl"]) > 0
    claims = vapid_claims(sent.headers, vapid.public_key())
    assert claims["aud"] == push_service.url
    assert claims["sub"] == "mailto:ops@example.com"
    payload = browser.decrypt(sent.body)
    assert payload["url"] == f"/requests/{request.pk}"
    assert payload["title"] == "New reply from your concierge"
    assert "Luigi" not in json.dumps(payload) and "anniversary" not in json.dumps(payload)
    browser.subscription.refresh_from_db()
    assert browser.subscription.last_used_at is not None


def test_a_signature_from_another_key_is_not_accepted_by_the_check(
    vapid, push_service, user, concierge, make_request, tasks
):
    """Issue 28 push: the VAPID check above really verifies: another key's signature fails."""
    Browser(user, push_service)
    request = make_request(user)
    request_services.concierge_reply_create(request=request, author=concierge, body="Done")
    tasks.run()
    other = ec.generate_private_key(ec.SECP256R1()).public_key()
    with pytest.raises((InvalidSignature, AssertionError)):
        vapid_claims(push_service.received[0].headers, other)


def test_with_previews_on_the_payload_carries_the_text(
    vapid, push_service, user, concierge, make_request, tasks
):
    """Issue 28 push: the employee who allowed previews gets the message text and the name."""
    NotificationPreference.objects.create(user=user, show_previews=True)
    browser = Browser(user, push_service)
    request = make_request(user, name="Plan the anniversary dinner")
    request_services.concierge_reply_create(
        request=request, author=concierge, body="Tuesday at 8 at Luigi's works"
    )
    tasks.run()
    payload = browser.decrypt(push_service.received[0].body)
    assert payload["body"] == "Tuesday at 8 at Luigi's works"
    assert "anniversary" in payload["title"]


def test_completion_push_opens_the_request_and_follows_its_own_switch(
    vapid, push_service, user, make_request, tasks
):
    """Issue 28 push: completing sends a push; with completion push off, nothing is sent."""
    browser = Browser(user, push_service)
    request = make_request(user)
    request_services.request_status_change(request=request, action="complete")
    tasks.run()
    assert browser.decrypt(push_service.received[0].body)["url"] == f"/requests/{request.pk}"

    NotificationPreference.objects.create(user=user, completion_push=False)
    second = make_request(user, name="Another")
    request_services.request_status_change(request=second, action="complete")
    tasks.run()
    assert len(push_service.received) == 1


def test_preferences_off_nothing_is_sent(vapid, push_service, user, concierge, make_request, tasks):
    """Issue 28 push: reply push turned off: no task and nothing reaches the push service."""
    NotificationPreference.objects.create(user=user, reply_push=False)
    Browser(user, push_service)
    request = make_request(user)
    request_services.concierge_reply_create(request=request, author=concierge, body="Hi")
    tasks.run()
    assert push_service.received == []
    assert tasks.results(TASK) == []


def test_turned_off_after_queueing_nothing_is_sent(
    vapid, push_service, user, concierge, make_request, tasks
):
    """Issue 28 push: the choice is checked again when the task runs."""
    Browser(user, push_service)
    request = make_request(user)
    request_services.concierge_reply_create(request=request, author=concierge, body="Hi")
    tasks.commit()
    NotificationPreference.objects.create(user=user, reply_push=False)
    tasks.run()
    assert push_service.received == []


def test_gone_subscription_is_removed(vapid, push_service, user, concierge, make_request, tasks):
    """Issue 28 push: a 410 from the push service deletes that subscription, and only it."""
    push_service.status = 410
    browser = Browser(user, push_service)
    request = make_request(user)
    request_services.concierge_reply_create(request=request, author=concierge, body="Hi")
    tasks.run()
    assert len(push_service.received) == 1
    assert not PushSubscription.objects.filter(pk=browser.subscription.pk).exists()
    assert tasks.results(TASK)[0].status == "SUCCESSFUL"


def test_a_push_service_error_is_retried_and_keeps_the_subscription(
    vapid, push_service, user, concierge, make_request, tasks
):
    """Issue 28 push: a 503 fails the task (tried again later, never raised into the reply's
    request) and the device stays."""
    push_service.status = 503
    browser = Browser(user, push_service)
    request = make_request(user)
    message = request_services.concierge_reply_create(request=request, author=concierge, body="Hi")
    assert message.pk
    tasks.run()
    assert PushSubscription.objects.filter(pk=browser.subscription.pk).exists()
    result = tasks.results(TASK)[0]
    assert result.status == "READY"  # made ready again for a later attempt
    assert result.run_after is not None


def test_desk_push_for_new_requests_and_employee_replies(
    vapid, push_service, user, concierge, other_concierge, make_request, tasks
):
    """Issue 28 push: a concierge who turned on new-request push gets one for a new request;
    one who did not gets nothing; an employee's reply goes to the assignee only."""
    NotificationPreference.objects.create(
        user=concierge, desk_new_request_push=True, desk_reply_push=True
    )
    NotificationPreference.objects.create(user=other_concierge, desk_reply_push=True)
    desk = Browser(concierge, push_service, "casey")
    Browser(other_concierge, push_service, "dana")
    request = make_request(user, name="Book a table")
    tasks.run()
    assert [r.path for r in push_service.received] == ["/push/casey"]
    payload = desk.decrypt(push_service.received[0].body)
    assert payload["url"] == f"/concierge/requests/{request.pk}"
    assert "Book a table" not in json.dumps(payload)

    request_services.request_assign(request=request, assignee=concierge)
    request_services.message_create(request=request, author=user, body="Any news?")
    tasks.run()
    assert [r.path for r in push_service.received] == ["/push/casey", "/push/casey"]


def test_an_employee_never_gets_desk_push(vapid, push_service, user, bob, make_request, tasks):
    """Issue 28 push: desk push goes to concierges only, even if an employee's row says on."""
    NotificationPreference.objects.create(user=bob, desk_new_request_push=True)
    Browser(bob, push_service)
    make_request(user)
    tasks.run()
    assert push_service.received == []


def test_without_vapid_keys_nothing_is_queued(push_service, user, concierge, make_request, tasks):
    """Issue 28 push: with no VAPID key configured push is off and nothing is queued."""
    Browser(user, push_service)
    request = make_request(user)
    request_services.concierge_reply_create(request=request, author=concierge, body="Hi")
    assert tasks.results(TASK) == []


def test_a_signed_out_browser_gets_no_push_until_someone_signs_in_on_it_again(
    vapid, push_service, user, concierge, make_request, tasks
):
    """Issue 28 push: a device's pushes last as long as the session that turned them on. Once
    the employee signs out there (or the session is revoked or ends), a reply queues and sends
    nothing to it, also for a task already queued; signed in again there (the app saves the
    subscription on each start, binding it to the new session) the pushes come back."""
    browser = Browser(user, push_service)
    request = make_request(user, name="Plan the anniversary dinner")
    request_services.concierge_reply_create(request=request, author=concierge, body="Queued")
    auth_token_revoke(auth_token=browser.session)  # signed out before the task runs
    tasks.run()
    assert push_service.received == []

    request_services.concierge_reply_create(request=request, author=concierge, body="Later")
    tasks.run()
    assert push_service.received == []

    _, new_session = auth_token_create(user)  # what saving it in the new session stores
    PushSubscription.objects.filter(pk=browser.subscription.pk).update(session=new_session)
    request_services.concierge_reply_create(request=request, author=concierge, body="Back")
    tasks.run()
    assert len(push_service.received) == 1
