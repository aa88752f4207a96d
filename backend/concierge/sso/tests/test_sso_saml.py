"""Issue 26 company sign-in (SSO), SAML 2.0: against an identity provider made of pysaml2's
own IdP classes with a key made in the test (tests/idp_saml.py). Sign-in started here and at
the provider; every crafted bad answer (unsigned, re-signed, wrapped, wrong audience or
recipient, expired, not yet valid, replayed, another company's domain, unknown person without
JIT) is refused with a clear error, nobody is signed in and no account is made."""

from __future__ import annotations

import base64
import re
from datetime import timedelta
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from django.test import Client
from django.utils import timezone
from freezegun import freeze_time

from concierge.accounts.models import AuthToken, EmployeeRecord, User
from concierge.sso.models import IdentityProvider
from concierge.sso.tests.helpers import exchange, fragment
from concierge.sso.tests.idp_saml import SamlIdp, SamlPerson

pytestmark = pytest.mark.django_db

METADATA = "http://testserver-public/api/v1/sso/acme/saml/metadata"


@pytest.fixture
def acme(company, settings):
    settings.PUBLIC_URL = "http://testserver-public"
    company.allowed_email_domains = "acme.test"
    company.save()
    return company


@pytest.fixture
def sp_metadata(client, acme) -> str:
    """Our SP metadata as the company's provider downloads it, before anything is set up."""
    response = client.get("/api/v1/sso/acme/saml/metadata")
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "application/samlmetadata+xml"
    return response.content.decode()


@pytest.fixture
def idp(sp_metadata):
    with SamlIdp(sp_metadata) as provider:
        yield provider


@pytest.fixture
def provider(acme, idp) -> IdentityProvider:
    return IdentityProvider.objects.create(
        company=acme,
        kind=IdentityProvider.Kind.SAML,
        saml_metadata_xml=idp.metadata,
        create_accounts=True,
    )


ACS = "http://testserver-public/api/v1/sso/acme/saml/acs"
NIA = SamlPerson(email="nia@acme.test", given_name="Nia", family_name="Okafor")


def post_acs(client: Client, xml: str, relay_state: str = "") -> dict[str, str]:
    data = {"SAMLResponse": base64.b64encode(xml.encode()).decode()}
    if relay_state:
        data["RelayState"] = relay_state
    return fragment(client.post("/api/v1/sso/acme/saml/acs", data))


def refused(client: Client, xml: str) -> str:
    back = post_acs(client, xml)
    assert "code" not in back, back
    return back["error"]


def nobody_signed_in(email: str = "nia@acme.test") -> None:
    assert not User.objects.filter(email=email).exists()
    assert not AuthToken.objects.exists()


def test_issue26_sso_saml_sp_metadata_is_published_per_company(client, provider):
    """Issue 26 SSO: our SP metadata at a stable address per company (entity id = address)."""
    response = client.get("/api/v1/sso/acme/saml/metadata")
    assert f'entityID="{METADATA}"' in response.content.decode()
    assert ACS in response.content.decode()
    assert client.get("/api/v1/sso/nobody/saml/metadata").status_code == 404


def test_issue26_sso_saml_sp_metadata_comes_before_the_providers_own(client, acme):
    """Issue 26 SSO (company-sign-in.md, SAML step 1 before step 3): our metadata answers for a
    company with no sign-in set up yet, and while its sign-in is switched off, the same."""
    before = client.get("/api/v1/sso/acme/saml/metadata")
    assert before.status_code == 200
    assert f'entityID="{METADATA}"' in before.content.decode()
    assert ACS in before.content.decode()
    IdentityProvider.objects.create(
        company=acme, kind=IdentityProvider.Kind.SAML, saml_metadata_xml="-", enabled=False
    )
    switched_off = client.get("/api/v1/sso/ACME/saml/metadata")
    assert switched_off.status_code == 200
    assert switched_off.content == before.content
    start = client.get("/api/v1/sso/acme/start")  # sign-in itself stays off
    assert "error=" in start["Location"], start["Location"]


def test_issue26_sso_saml_sp_initiated_new_employee_gets_an_account(client, provider, acme, idp):
    """Issue 26 SSO: SP-initiated SAML (AuthnRequest by redirect, signed assertion posted back,
    RelayState our state): the account is made just in time and the code exchanged."""
    start = client.get("/api/v1/sso/acme/start")
    assert start.status_code == 302
    location = urlsplit(start["Location"])
    assert location.netloc == urlsplit(idp.base).netloc
    query = {k: v[0] for k, v in parse_qs(location.query).items()}
    request = idp.server.parse_authn_request(query["SAMLRequest"]).message
    xml = idp.response(NIA, acs=ACS, audience=METADATA, in_response_to=request.id)
    back = post_acs(client, xml, query["RelayState"])
    answer = exchange(client, back["code"])
    assert answer.status_code == 200, answer.content
    assert answer["Authorization"].startswith("Bearer ")
    user = User.objects.get(email="nia@acme.test")
    assert (user.first_name, user.last_name) == ("Nia", "Okafor")
    assert EmployeeRecord.objects.get(user=user, company=acme).source == "sso"


def test_issue26_sso_saml_idp_initiated_sign_in(client, provider, idp):
    """Issue 26 SSO: IdP-initiated SAML (no request, no RelayState) signs the person in, and
    the provider's MFA context passes the session's MFA step."""
    person = SamlPerson(email="nia@acme.test", mfa=True)
    back = post_acs(client, idp.response(person, acs=ACS, audience=METADATA))
    answer = exchange(client, back["code"])
    assert answer.status_code == 200 and answer["mfa-token"]


def test_issue26_sso_saml_without_provider_mfa_the_company_second_factor_applies(
    client, provider, acme, idp
):
    """Issue 26 SSO: for a company that requires MFA, an AuthnContextClassRef of a password
    alone does not pass the MFA step (no mfa-token; the product's own second factor applies),
    while the provider's MFA context does."""
    acme.requires_mfa = True
    acme.save()
    without = post_acs(client, idp.response(NIA, acs=ACS, audience=METADATA))
    answer = exchange(client, without["code"])
    assert answer.status_code == 200 and answer.json()["mfa_requires_verification"] is True
    assert "mfa-token" not in answer
    person = SamlPerson(email="nia@acme.test", mfa=True)
    with_mfa = post_acs(client, idp.response(person, acs=ACS, audience=METADATA))
    answer = exchange(client, with_mfa["code"])
    assert answer.json()["mfa_requires_verification"] is False and answer["mfa-token"]


def test_issue26_sso_saml_test_idp_over_http(client, provider, idp):
    """Issue 26 SSO: the test IdP's own HTTP endpoints (what the browser tests use) answer our
    AuthnRequest with a form that posts a signed answer to our ACS."""
    idp.person = NIA
    start = client.get("/api/v1/sso/acme/start")
    page = httpx.get(start["Location"]).text
    form = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', page))
    assert f'action="{ACS}"' in page and set(form) == {"SAMLResponse", "RelayState"}
    back = fragment(client.post("/api/v1/sso/acme/saml/acs", form))
    assert exchange(client, back["code"]).status_code == 200


def test_issue26_sso_saml_unsigned_assertion_is_refused(client, provider, idp):
    """Issue 26 SSO refusal: an assertion without a signature."""
    error = refused(client, idp.response(NIA, acs=ACS, audience=METADATA, sign_assertion=False))
    assert "signature" in error
    nobody_signed_in()


def test_issue26_sso_saml_re_signed_assertion_is_refused(client, provider, idp):
    """Issue 26 SSO refusal: an assertion signed with another key under the IdP's name (its
    own certificate inside the signature must not be trusted)."""
    xml = idp.response(NIA, acs=ACS, audience=METADATA, signer=idp.impostor())
    assert "signature" in refused(client, xml)
    nobody_signed_in()


def test_issue26_sso_saml_tampered_assertion_is_refused(client, provider, idp):
    """Issue 26 SSO refusal: a signed assertion whose email was changed afterwards."""
    xml = idp.response(NIA, acs=ACS, audience=METADATA).replace("nia@acme.test", "eve@acme.test")
    assert "signature" in refused(client, xml)
    nobody_signed_in("eve@acme.test")


def _wrapped(signed_xml: str) -> str:
    """Signature wrapping (XSW): an evil copy of the assertion (another person, a new id) put
    first in the Response, the genuinely signed one kept, untouched, behind it."""
    match = re.search(r"<(\w+:)?Assertion\b.*?</\1Assertion>", signed_xml, re.S)
    assert match, signed_xml
    original = match.group(0)
    evil = re.sub(r'ID="([^"]+)"', r'ID="_evil\1"', original, count=1)
    evil = evil.replace("nia@acme.test", "eve@acme.test")
    return signed_xml.replace(original, evil + original, 1)


def test_issue26_sso_saml_signature_wrapping_is_refused(client, provider, idp):
    """Issue 26 SSO refusal: a wrapped response (XSW) never signs in the evil copy's person."""
    xml = _wrapped(idp.response(NIA, acs=ACS, audience=METADATA))
    error = refused(client, xml)
    assert "Nobody was signed in" in error
    nobody_signed_in("eve@acme.test")
    nobody_signed_in("nia@acme.test")


def test_issue26_sso_saml_wrong_audience_is_refused(client, provider, idp):
    """Issue 26 SSO refusal: an assertion for another service provider."""
    xml = idp.response(NIA, acs=ACS, audience="https://other.example/sp")
    assert "meant for another service" in refused(client, xml)
    nobody_signed_in()


def test_issue26_sso_saml_wrong_recipient_is_refused(client, provider, idp):
    """Issue 26 SSO refusal: an answer addressed to another service's ACS."""
    xml = idp.response(
        NIA, acs=ACS, audience=METADATA, destination="https://other.example/saml/acs"
    )
    assert "addressed to another service" in refused(client, xml)
    nobody_signed_in()


def test_issue26_sso_saml_wrong_recipient_inside_the_signed_assertion_is_refused(
    client, provider, idp
):
    """Issue 26 SSO refusal: the Response (unsigned envelope) is addressed to our ACS, but the
    signed assertion's SubjectConfirmationData Recipient is another service's."""
    other = "https://other.example/saml/acs"
    xml = idp.response(NIA, acs=ACS, audience=METADATA, destination=other)
    envelope = re.search(r"<(\w+:)?Response\b[^>]*>", xml)
    assert envelope and f'Destination="{other}"' in envelope.group(0)
    xml = xml.replace(envelope.group(0), envelope.group(0).replace(other, ACS), 1)
    assert f'Recipient="{other}"' in xml
    assert "addressed to another service" in refused(client, xml)
    nobody_signed_in()


def test_issue26_sso_saml_expired_assertion_is_refused(client, provider, idp):
    """Issue 26 SSO refusal: an assertion made an hour ago (valid for 5 minutes)."""
    with freeze_time(timezone.now() - timedelta(hours=1)):
        xml = idp.response(NIA, acs=ACS, audience=METADATA)
    assert "expired" in refused(client, xml)
    nobody_signed_in()


def test_issue26_sso_saml_not_yet_valid_assertion_is_refused(client, provider, idp):
    """Issue 26 SSO refusal: an assertion whose validity starts in an hour."""
    with freeze_time(timezone.now() + timedelta(hours=1)):
        xml = idp.response(NIA, acs=ACS, audience=METADATA)
    assert "not valid yet" in refused(client, xml)
    nobody_signed_in()


def test_issue26_sso_saml_replayed_assertion_is_refused(client, provider, idp):
    """Issue 26 SSO refusal: the same assertion (same id) posted a second time."""
    xml = idp.response(NIA, acs=ACS, audience=METADATA)
    back = post_acs(client, xml)
    assert "code" in back
    sessions = User.objects.count()
    assert "already used" in refused(client, xml)
    assert User.objects.count() == sessions


def test_issue26_sso_saml_email_of_another_company_domain_is_refused(client, provider, idp):
    """Issue 26 SSO refusal: an address outside the company's domains."""
    person = SamlPerson(email="eve@globex.test")
    assert "not an address of Acme Corp" in refused(
        client, idp.response(person, acs=ACS, audience=METADATA)
    )
    nobody_signed_in("eve@globex.test")


def test_issue26_sso_saml_unknown_person_without_jit_is_refused(client, provider, idp):
    """Issue 26 SSO refusal: an unknown person when accounts are not made at first sign-in."""
    provider.create_accounts = False
    provider.save()
    assert "has no account for nia@acme.test" in refused(
        client, idp.response(NIA, acs=ACS, audience=METADATA)
    )
    nobody_signed_in()


def test_issue26_sso_saml_answer_to_another_request_is_refused(client, provider, idp):
    """Issue 26 SSO refusal: a RelayState of ours with an answer to a request we never sent."""
    start = client.get("/api/v1/sso/acme/start")
    query = {k: v[0] for k, v in parse_qs(urlsplit(start["Location"]).query).items()}
    xml = idp.response(NIA, acs=ACS, audience=METADATA, in_response_to="_not-our-request")
    assert "started elsewhere" in post_acs(client, xml, query["RelayState"])["error"]
    nobody_signed_in()


def test_issue26_sso_saml_idp_metadata_from_its_address(client, acme, idp):
    """Issue 26 SSO: the IdP's metadata read from its address (fetched over HTTP) instead of
    pasted XML."""
    IdentityProvider.objects.create(
        company=acme,
        kind=IdentityProvider.Kind.SAML,
        saml_metadata_url=f"{idp.base}/metadata",
        create_accounts=True,
    )
    back = post_acs(client, idp.response(NIA, acs=ACS, audience=METADATA))
    assert exchange(client, back["code"]).status_code == 200


def test_issue26_sso_saml_sha1_signature_is_refused(client, provider, idp):
    """Issue 26 SSO refusal: an assertion signed with SHA-1 (collisions are practical), while
    the same answer signed with SHA-256 is taken."""
    assert "SHA-1" in refused(client, idp.response(NIA, acs=ACS, audience=METADATA, sha1=True))
    nobody_signed_in()
    assert "code" in post_acs(client, idp.response(NIA, acs=ACS, audience=METADATA))
