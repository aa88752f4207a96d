"""Django admin: requests with their thread inline, and uploads."""

from __future__ import annotations

import pytest

from concierge.servicerequests import services
from concierge.uploads.tests.samples import pdf_bytes, upload_via_api

pytestmark = pytest.mark.django_db


def test_admin_shows_a_request_with_its_messages(admin_client, signed_in_api, user, make_request):
    service_request = make_request(user, name="Plan a birthday", details="Saturday")
    key = upload_via_api(signed_in_api, "invite.pdf", pdf_bytes(), service_request.pk)
    services.message_create(
        request=service_request, author=user, body="Invite attached", attachment_keys=[key]
    )

    changelist = admin_client.get("/admin/servicerequests/servicerequest/")
    assert changelist.status_code == 200
    assert "Plan a birthday" in changelist.content.decode()

    page = admin_client.get(f"/admin/servicerequests/servicerequest/{service_request.pk}/change/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Invite attached" in html
    assert "invite.pdf" in html

    uploads = admin_client.get("/admin/uploads/upload/")
    assert uploads.status_code == 200
    assert "invite.pdf" in uploads.content.decode()
