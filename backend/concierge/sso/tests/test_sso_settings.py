"""Issue 26 company sign-in (SSO): discovery for the sign-in page, "SSO required" refusing a
member's password sign-in except the break-glass account's, and the company admin's settings
(their own company only, the client secret write-only and stored encrypted), with the test
sign-in."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from django.conf import settings

from concierge.accounts.models import User
from concierge.company_reports.models import CompanyAdmin
from concierge.sso.models import IdentityProvider
from concierge.sso.tests.helpers import exchange, fragment, oidc_provider_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def hr(user_factory, acme):
    admin = user_factory(email="hr@acme.test", companies=[acme])
    CompanyAdmin.objects.create(user=admin, company=acme)
    return admin


@pytest.fixture
def hr_api(make_api, hr):
    api = make_api()
    assert api.sign_in(hr.email).status_code == 200
    return api


def test_issue26_sso_discover_by_email_domain_and_by_slug(api, acme, idp):
    """Issue 26 SSO: the sign-in page learns from the email's domain or the company slug that
    "Continue with your company's sign-in" applies; nothing for other domains or disabled."""
    provider = oidc_provider_for(acme, idp)
    for query in ({"email": "someone@acme-corp.test"}, {"company": "ACME"}):
        body = api.get("sso/discover", query=query).json()
        assert body == {
            "available": True,
            "company_name": "Acme Corp",
            "company_slug": "acme",
            "start_url": f"{settings.PUBLIC_URL}/api/v1/sso/acme/start",
        }
    for query in (
        {"email": "someone@globex.test"},
        {"company": "nope"},
        {"email": "x@sub.acme.test"},
    ):
        assert api.get("sso/discover", query=query).json()["available"] is False
    provider.enabled = False
    provider.save()
    assert api.get("sso/discover", query={"company": "acme"}).json()["available"] is False
    assert api.get("sso/discover", query={"email": "a@" + "b" * 300}).status_code == 200


def test_issue26_sso_required_refuses_password_sign_in_except_break_glass(
    api, make_api, acme, idp, user_factory, company_factory
):
    """Issue 26 SSO: with "SSO required" a member's password sign-in is refused (the right
    password or not, same answer); the named break-glass account still signs in; members of
    other companies are unaffected."""
    member = user_factory(email="mo@acme.test", companies=[acme])
    admin = user_factory(email="root@acme.test", companies=[acme])
    outsider = user_factory(email="gus@globex.test", companies=[company_factory(slug="globex")])
    oidc_provider_for(acme, idp, sso_required=True, break_glass_user=admin)
    for password in ("correct-horse-battery-42", "Wrong-Passw0rd-42"):  # right, then wrong
        response = make_api().sign_in(member.email, password)
        assert response.status_code == 401, response.content
        assert "Acme Corp signs you in through its own sign-in" in response.json()["error"]
    assert make_api().sign_in(admin.email).status_code == 200
    assert make_api().sign_in(outsider.email).status_code == 200


def test_issue26_sso_required_refuses_a_passkey_sign_in_too_except_break_glass(
    make_api, acme, idp, user_factory
):
    """Issue 26 SSO: "SSO required" refuses a member's sign-in with a passkey alone, as it
    refuses their password (so the employer's provider decides who gets in), and records the
    refusal; the break-glass account's passkey still signs in."""
    from concierge.accounts.tests.webauthn_device import SoftPasskey
    from concierge.audit import actions
    from concierge.audit.models import AuditEvent

    member = user_factory(email="mo@acme.test", companies=[acme])
    admin = user_factory(email="root@acme.test", companies=[acme])
    devices = {}
    for person in (member, admin):
        api = make_api()
        assert api.sign_in(person.email).status_code == 200
        device = SoftPasskey(rp_id=settings.WEBAUTHN_RP_ID, origin=settings.WEBAUTHN_ORIGIN)
        options = api.post("mfa/passkeys/options").json()["options"]
        registered = api.post("mfa/passkeys", {"credential": device.create(options), "name": "Key"})
        assert registered.status_code == 200, registered.content
        devices[person.pk] = device
    oidc_provider_for(acme, idp, sso_required=True, break_glass_user=admin)

    def passkey_sign_in(person: User):
        api = make_api()
        options = api.post("users/sign_in/passkey/options").json()["options"]
        return api.post("users/sign_in/passkey", {"credential": devices[person.pk].get(options)})

    refused = passkey_sign_in(member)
    assert refused.status_code == 401, refused.content
    assert "Acme Corp signs you in through its own sign-in" in refused.json()["error"]
    assert "Authorization" not in refused
    failed = AuditEvent.objects.filter(action=actions.SIGN_IN_FAILED, actor_id=member.pk).get()
    assert failed.details == {"reason": "refused", "method": "passkey"}
    assert passkey_sign_in(admin).status_code == 200


def test_issue26_sso_settings_company_admin_reads_and_updates(hr_api, acme, idp):
    """Issue 26 SSO: the company admin sets OIDC; the secret is stored encrypted, never
    shown; a later save without it keeps it; break-glass must be a member."""
    assert hr_api.get(f"company/{acme.pk}/sso").json()["configured"] is False
    settings = {
        "kind": "oidc",
        "oidc_issuer": idp.issuer,
        "oidc_client_id": idp.client_id,
        "oidc_client_secret": idp.client_secret,
        "email_attribute": "email",
        "first_name_attribute": "given_name",
        "last_name_attribute": "family_name",
        "employee_id_attribute": "employee_id",
        "create_accounts": True,
        "sso_required": True,
        "break_glass_email": "HR@acme.test",
    }
    response = hr_api.put(f"company/{acme.pk}/sso", settings)
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["oidc_client_secret_set"] is True and "oidc_client_secret" not in body
    assert body["break_glass_email"] == "hr@acme.test"
    assert body["oidc_redirect_uri"].endswith("/api/v1/sso/oidc/callback")
    stored = IdentityProvider.objects.get(company=acme)
    assert idp.client_secret not in stored.oidc_client_secret_encrypted
    again = hr_api.put(f"company/{acme.pk}/sso", {**settings, "oidc_client_secret": None})
    assert again.status_code == 200
    stored.refresh_from_db()
    assert stored.oidc_client_secret_encrypted
    bad = hr_api.put(f"company/{acme.pk}/sso", {**settings, "break_glass_email": "x@else.test"})
    assert bad.status_code == 422 and "break_glass_email" in bad.json()["errors"]
    bad = hr_api.put(f"company/{acme.pk}/sso", {**settings, "oidc_issuer": "not a url"})
    assert bad.status_code == 422 and "oidc_issuer" in bad.json()["errors"]
    saml = hr_api.put(f"company/{acme.pk}/sso", {**settings, "kind": "saml"})
    assert saml.status_code == 422 and "saml_metadata_xml" in saml.json()["errors"]


def test_issue26_sso_settings_only_for_own_company_admins(
    hr_api, signed_in_api, acme, company_factory
):
    """Issue 26 SSO: another company's settings are not found; a non-admin is refused."""
    globex = company_factory(slug="globex", name="Globex")
    assert hr_api.get(f"company/{globex.pk}/sso").status_code == 404
    assert hr_api.put(f"company/{globex.pk}/sso", {"kind": "oidc"}).status_code == 404
    assert signed_in_api.get(f"company/{acme.pk}/sso").status_code == 403
    assert signed_in_api.post(f"company/{acme.pk}/sso/test").status_code == 403


def test_issue26_sso_test_sign_in_reports_without_signing_in(client, hr_api, acme, idp):
    """Issue 26 SSO: the admin's "test sign-in" goes through the provider and shows what it
    said (mapped attributes, MFA); no account is made and nobody is signed in."""
    oidc_provider_for(acme, idp, create_accounts=True)
    start = hr_api.post(f"company/{acme.pk}/sso/test")
    assert start.status_code == 200
    at_provider = httpx.get(start.json()["url"], follow_redirects=False)
    back = urlsplit(at_provider.headers["Location"])
    query = {k: v[0] for k, v in parse_qs(back.query).items()}
    code = fragment(client.get(back.path, query), "/company/members")["code"]
    answer = exchange(client, code)
    assert answer.status_code == 200 and "Authorization" not in answer
    assert answer.json()["test_result"] == {
        "email": "nia@acme.test",
        "first_name": "Nia",
        "last_name": "Okafor",
        "employee_id": "E-100",
        "mfa_done": False,
    }
    assert not User.objects.filter(email="nia@acme.test").exists()


def test_issue26_sso_no_input_causes_a_server_error(api, acme):
    """Issue 26 SSO: odd or missing input to the public endpoints gets a clear answer."""
    assert api.get("sso/nobody/start").status_code == 302
    assert fragment(api.get("sso/nobody/start"))["error"]
    assert "error" in fragment(api.get("sso/oidc/callback"))
    assert "error" in fragment(api.client.post("/api/v1/sso/acme/saml/acs", {}))
    assert "error" in fragment(
        api.client.post("/api/v1/sso/acme/saml/acs", {"SAMLResponse": "%%%"})
    )
    assert exchange(api.client, "").status_code == 400
    assert exchange(api.client, "x" * 500).status_code == 422
