"""The Account page's signed-in devices: every session of the person, and signing one or all
of the others out."""

from __future__ import annotations

from django.http import HttpRequest
from ninja import Router

from concierge.accounts.api.responses import ERRORS
from concierge.accounts.auth import request_auth_token, token_auth
from concierge.accounts.devices import UNKNOWN_DEVICE
from concierge.accounts.schemas import (
    DevicesSignedOutOut,
    SignedInDeviceOut,
    SignedInDevicesOut,
    SuccessOut,
)
from concierge.accounts.selectors.sessions import user_sessions_signed_in
from concierge.accounts.services import tokens
from concierge.common.schemas import ErrorOut

router = Router(tags=["account"])


@router.get("/users/devices", response={200: SignedInDevicesOut, **ERRORS}, auth=token_auth)
def signed_in_devices(request: HttpRequest):
    """The devices signed in to the account now, newest first, this one marked `current`."""
    this_one = request_auth_token(request)
    sessions = user_sessions_signed_in(user=this_one.user)
    return SignedInDevicesOut(
        devices=[
            SignedInDeviceOut(
                id=session.pk,
                device=session.device or UNKNOWN_DEVICE,
                signed_in_at=session.created_at,
                current=session.pk == this_one.pk,
            )
            for session in sessions
        ]
    )


@router.delete(
    "/users/devices/{device_id}",
    response={200: SuccessOut, 404: ErrorOut, **ERRORS},
    auth=token_auth,
)
def device_sign_out(request: HttpRequest, device_id: int):
    """Signs one other device out; its next request is answered 401 and its live stream ends."""
    tokens.user_session_sign_out(auth_token=request_auth_token(request), session_id=device_id)
    return SuccessOut()


@router.delete("/users/devices", response={200: DevicesSignedOutOut, **ERRORS}, auth=token_auth)
def other_devices_sign_out(request: HttpRequest):
    """Signs every device but this one out."""
    signed_out = tokens.user_other_sessions_sign_out(auth_token=request_auth_token(request))
    return DevicesSignedOutOut(signed_out=signed_out)
