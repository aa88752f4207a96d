"""Notification settings: preferences, web push devices, and one-click unsubscribe (issue 28)."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from django.shortcuts import render
from ninja import Router, Status

from concierge.accounts.auth import request_auth_token
from concierge.accounts.selectors.concierges import user_is_concierge
from concierge.common.errors import NotFound
from concierge.common.schemas import ErrorOut
from concierge.notification_settings import services
from concierge.notification_settings.models import PushSubscription
from concierge.notification_settings.push import vapid_keys
from concierge.notification_settings.schemas import (
    PreferencesIn,
    PreferencesOut,
    PushKeyOut,
    PushSubscriptionIn,
    PushSubscriptionListOut,
    PushSubscriptionOut,
    UnsubscribeOut,
    UnsubscribeStateOut,
)
from concierge.notification_settings.selectors import (
    EMAIL_KIND_NAMES,
    preference_for,
    push_subscriptions_of,
    unsubscribe_state,
)

router = Router(tags=["notifications"])
ERRORS = {401: ErrorOut, 404: ErrorOut, 422: ErrorOut}


def _preferences_out(user) -> PreferencesOut:  # type: ignore[no-untyped-def]
    preference = preference_for(user=user)
    concierge = user_is_concierge(user=user)
    return PreferencesOut(
        reply_email=preference.reply_email,
        reply_push=preference.reply_push,
        completion_email=preference.completion_email,
        completion_push=preference.completion_push,
        show_previews=preference.show_previews,
        desk_new_request_push=concierge and preference.desk_new_request_push,
        desk_reply_push=concierge and preference.desk_reply_push,
        is_concierge=concierge,
    )


@router.get("/notifications/preferences", response={200: PreferencesOut, **ERRORS})
def preferences_get(request: HttpRequest):
    """The signed-in person's notification choices (the defaults until they change one)."""
    return _preferences_out(request_auth_token(request).user)


@router.patch("/notifications/preferences", response={200: PreferencesOut, **ERRORS})
def preferences_update(request: HttpRequest, payload: PreferencesIn):
    """Change some choices. The desk's (desk_*) are for concierges only (422 otherwise)."""
    user = request_auth_token(request).user
    changes = payload.dict(exclude_none=True)
    if changes:
        services.preference_update(user=user, changes=changes)
    return _preferences_out(user)


@router.get("/notifications/push_key", response={200: PushKeyOut, 401: ErrorOut})
def push_key(request: HttpRequest):
    """The VAPID public key to subscribe with; available=false when push is not set up."""
    keys = vapid_keys()
    if keys is None:
        return PushKeyOut(available=False)
    return PushKeyOut(available=True, public_key=keys.public_key)


def _subscription_out(subscription: PushSubscription, session_id: int) -> PushSubscriptionOut:
    return PushSubscriptionOut(
        id=subscription.pk,
        device_label=subscription.device_label or "Unknown device",
        created_at=subscription.created_at,
        last_used_at=subscription.last_used_at,
        current=subscription.session_id == session_id,
    )


@router.get("/notifications/push_subscriptions", response={200: PushSubscriptionListOut, **ERRORS})
def push_subscription_list(request: HttpRequest):
    """The signed-in person's devices that get push notifications, newest first; this
    browser's (saved in this session) is marked current."""
    session = request_auth_token(request)
    return PushSubscriptionListOut(
        push_subscriptions=[
            _subscription_out(s, session.pk) for s in push_subscriptions_of(user=session.user)
        ]
    )


@router.post("/notifications/push_subscriptions", response={201: PushSubscriptionOut, **ERRORS})
def push_subscription_create(request: HttpRequest, payload: PushSubscriptionIn):
    """Store this browser's push subscription for the signed-in person (the same endpoint
    again updates it, keeping the date it was added). Only `explicit` adds a device (404
    otherwise); only the browsers' push services are accepted (422 otherwise)."""
    session = request_auth_token(request)
    subscription = services.push_subscription_save(
        user=session.user,
        session=session,
        endpoint=payload.endpoint,
        p256dh=payload.keys.p256dh,
        auth=payload.keys.auth,
        user_agent=request.headers.get("User-Agent", "")[:500],
        explicit=payload.explicit,
    )
    return Status(201, _subscription_out(subscription, session.pk))


@router.delete(
    "/notifications/push_subscriptions/{int:subscription_id}", response={204: None, **ERRORS}
)
def push_subscription_delete(request: HttpRequest, subscription_id: int):
    """Stop push notifications to one of the signed-in person's devices (404 for any other)."""
    services.push_subscription_delete(
        user=request_auth_token(request).user, subscription_id=subscription_id
    )
    return Status(204, None)


def _unsubscribe_page(request: HttpRequest, state: str, kind: str = "", status: int = 200):
    title = {
        "ask": "Unsubscribe from these emails?",
        "done": "You’re unsubscribed",
    }.get(state, "This link is not valid")
    context = {
        "state": state,
        "title": title,
        "what": EMAIL_KIND_NAMES.get(kind, ""),
        "product_name": settings.PRODUCT_NAME,
    }
    response = render(request, "notification_settings/unsubscribe.html", context, status=status)
    response["Cache-Control"] = "no-store"
    response["Referrer-Policy"] = "no-referrer"  # the token is in the address
    return response


def _wants_page(request: HttpRequest) -> bool:
    """A browser opening the link or sending the page's form (it asks for HTML)."""
    return "text/html" in request.headers.get("Accept", "")


@router.get(
    "/notifications/unsubscribe/{token}",
    response={200: UnsubscribeStateOut, 404: ErrorOut},
    auth=None,
)
def unsubscribe_state_get(request: HttpRequest, token: str):
    """The List-Unsubscribe link opened: which email it turns off and whether that email is
    already off for its person (the link used before, or the email turned off in Account
    Settings). Changes nothing (mail scanners open links). Not genuine, or its person is gone:
    404. A browser (asking for HTML) gets the page: a button, or that it is already done."""
    state = unsubscribe_state(token[:400])
    if state is None:
        if _wants_page(request):
            return _unsubscribe_page(request, "invalid", status=404)
        raise NotFound(services.UNSUBSCRIBE_LINK_INVALID)
    kind, already_off = state
    if _wants_page(request):
        return _unsubscribe_page(request, "done" if already_off else "ask", kind)
    return UnsubscribeStateOut(kind=kind, already_unsubscribed=already_off)


@router.post(
    "/notifications/unsubscribe/{token}",
    response={200: UnsubscribeOut, 404: ErrorOut, 422: ErrorOut},
    auth=None,
)
def unsubscribe(request: HttpRequest, token: str):
    """One-click unsubscribe (RFC 8058; no session: the signed token is the credential). Turns
    off the email of the token's kind; again changes nothing. Not genuine: 404. The page's own
    button (a browser asking for HTML) gets the page back."""
    wants_page = _wants_page(request)
    try:
        _, kind = services.unsubscribe(token=token[:400])
    except NotFound:
        if wants_page:
            return _unsubscribe_page(request, "invalid", status=404)
        raise
    if wants_page:
        return _unsubscribe_page(request, "done", kind)
    return UnsubscribeOut(kind=kind)
