"""Issue 26 company sign-in (SSO), OpenID Connect: against a real provider started by the test
on this machine (tests/idp_oidc.py: discovery, keys, PKCE-checking token endpoint). A person
signs in just in time; every crafted bad answer is refused with a clear error, nobody is
signed in and no account is made."""

from __future__ import annotations

import time
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from django.test import Client

from concierge.accounts.models import AuthToken, EmployeeRecord, User
from concierge.sso.models import IdentityProvider
from concierge.sso.tests.helpers import exchange, fragment, oidc_provider_for, oidc_round_trip
from concierge.sso.tests.idp_oidc import Person, rsa_key

pytestmark = pytest.mark.django_db


@pytest.fixture
def provider(acme, idp) -> IdentityProvider:
    return oidc_provider_for(acme, idp)


def refused(client: Client, slug: str = "acme") -> str:
    _, back = oidc_round_trip(client, slug)
    assert "code" not in back, back
    return back["error"]


def nobody_signed_in(email: str = "nia@acme.test") -> None:
    assert not User.objects.filter(email=email).exists()
    assert not AuthToken.objects.exists()


def test_issue26_sso_oidc_new_employee_gets_an_account_just_in_time(client, provider, acme):
    """Issue 26 SSO: OIDC code flow with PKCE, state and nonce; the account is made at the
    first sign-in (record source 'sso', employee id mapped) and the exchange answers as a
    password sign-in does (token in Authorization, expires_at, MFA flags)."""
    query, back = oidc_round_trip(client, "acme")
    assert query["state"] and "code" in back
    answer = exchange(client, back["code"])
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["expires_at"] and body["mfa_required"] is False
    token = answer["Authorization"].removeprefix("Bearer ")
    user = User.objects.get(email="nia@acme.test")
    assert (user.first_name, user.last_name, user.has_usable_password()) == ("Nia", "Okafor", False)
    record = EmployeeRecord.objects.get(user=user, company=acme)
    assert (record.source, record.employee_id) == ("sso", "E-100")
    me = client.get("/api/v1/users/current", headers={"Authorization": f"Bearer {token}"})
    assert me.status_code == 200 and me.json()["onboarding_required"] is True
    # The code works once.
    assert exchange(client, back["code"]).status_code == 400


def test_issue26_sso_oidc_provider_mfa_passes_the_company_mfa_step(client, provider, acme, idp):
    """Issue 26 SSO: `amr` saying MFA was done passes a company's MFA requirement (the exchange
    hands over the mfa-token); without it the product's own second factor still applies."""
    acme.requires_mfa = True
    acme.save()
    idp.person = Person(email="nia@acme.test", amr=["pwd", "otp"])
    _, back = oidc_round_trip(client, "acme")
    answer = exchange(client, back["code"])
    headers = {
        "Authorization": answer["Authorization"],
        "mfa-token": answer["mfa-token"],
    }
    assert answer.json()["mfa_requires_verification"] is False
    assert client.get("/api/v1/users/current", headers=headers).status_code == 200

    idp.person = Person(email="nia@acme.test", amr=["pwd"])
    _, back = oidc_round_trip(client, "acme")
    answer = exchange(client, back["code"])
    assert answer.json()["mfa_requires_verification"] is True
    assert "mfa-token" not in answer
    only_token = {"Authorization": answer["Authorization"]}
    assert client.get("/api/v1/users/current", headers=only_token).status_code == 401


def test_issue26_sso_oidc_bad_state_is_refused(client, provider):
    """Issue 26 SSO refusal: a callback whose `state` we never issued (or already used)."""
    query, back = oidc_round_trip(client, "acme")
    again = fragment(client.get("/api/v1/sso/oidc/callback", query))
    assert "expired or was already used" in again["error"]
    forged = fragment(client.get("/api/v1/sso/oidc/callback", {**query, "state": "x" * 43}))
    assert "expired or was already used" in forged["error"]
    assert User.objects.filter(email="nia@acme.test").count() == 1  # the first one only


def test_issue26_sso_oidc_replayed_nonce_is_refused(client, provider, idp):
    """Issue 26 SSO refusal: an ID token replayed into a new sign-in (its nonce was used)."""
    _, back = oidc_round_trip(client, "acme")
    exchange(client, back["code"])
    sessions = AuthToken.objects.count()
    idp.replay_id_token = idp.issued[-1]
    error = refused(client)
    assert "nonce" in error.lower() or "already used" in error
    assert AuthToken.objects.count() == sessions


def test_issue26_sso_oidc_same_nonce_twice_is_a_replay(provider, idp):
    """Issue 26 SSO refusal: the nonce store refuses a second use even with a matching nonce."""
    from concierge.sso.services.errors import SignInRefused
    from concierge.sso.services.oidc import id_token_claims
    from concierge.sso.tests.idp_oidc import PendingCode

    pending = PendingCode(idp.client_id, "x", "x", "nonce-1", Person(email="nia@acme.test"))
    token = idp.id_token(pending)
    jwks = {"keys": [idp.key.as_dict(private=False)]}
    assert id_token_claims(token, provider=provider, nonce="nonce-1", jwks=jwks)["email"]
    with pytest.raises(SignInRefused, match="already used"):
        id_token_claims(token, provider=provider, nonce="nonce-1", jwks=jwks)


@pytest.mark.parametrize(
    ("claims", "reason"),
    [
        ({"aud": "another-client"}, "aud"),
        ({"iss": "http://127.0.0.1:1/evil"}, "iss"),
        ({"exp": int(time.time()) - 600, "iat": int(time.time()) - 900}, "exp"),
        ({"nonce": "not-the-one-we-sent"}, "nonce"),
        ({"nonce": None}, "nonce"),
    ],
    ids=["wrong-audience", "wrong-issuer", "expired", "wrong-nonce", "no-nonce"],
)
def test_issue26_sso_oidc_crafted_id_tokens_are_refused(client, provider, idp, claims, reason):
    """Issue 26 SSO refusal: wrong audience, wrong issuer, expired, a nonce not ours."""
    idp.next_claims = claims
    error = refused(client)
    assert "ID token" in error and reason in error.lower(), error
    nobody_signed_in()


def test_issue26_sso_oidc_not_yet_valid_id_token_is_refused(client, provider, idp):
    """Issue 26 SSO refusal: an ID token whose validity starts in an hour (`nbf`, `iat`)."""
    later = int(time.time()) + 3600
    idp.next_claims = {"nbf": later, "iat": later, "exp": later + 300}
    error = refused(client)
    assert "ID token" in error, error
    nobody_signed_in()


def test_issue26_sso_oidc_unsigned_id_token_is_refused(client, provider, idp):
    """Issue 26 SSO refusal: an ID token with alg "none" and no signature, claims otherwise
    right."""
    idp.unsigned = True
    assert "ID token" in refused(client)
    nobody_signed_in()


def test_issue26_sso_oidc_token_signed_by_another_key_is_refused(client, provider, idp):
    """Issue 26 SSO refusal: an ID token signed with a key the provider does not publish."""
    idp.sign_with = rsa_key("test-key-1")  # same key id, other key
    assert "ID token" in refused(client)
    nobody_signed_in()


def test_issue26_sso_oidc_email_of_another_company_domain_is_refused(client, provider, idp):
    """Issue 26 SSO refusal: the provider names an address outside the company's domains."""
    idp.person = Person(email="eve@globex.test")
    assert "not an address of Acme Corp (@acme.test, @acme-corp.test)" in refused(client)
    nobody_signed_in("eve@globex.test")


def test_issue26_sso_oidc_unknown_person_without_jit_is_refused(client, provider):
    """Issue 26 SSO refusal: 'create accounts at first sign-in' off, the person is unknown."""
    provider.create_accounts = False
    provider.save()
    assert "has no account for nia@acme.test" in refused(client)
    nobody_signed_in()


def test_issue26_sso_oidc_existing_member_signs_in_without_jit(
    client, provider, acme, user_factory
):
    """Issue 26 SSO: with JIT off a member already known signs in to their own account."""
    provider.create_accounts = False
    provider.save()
    member = user_factory(email="nia@acme.test", companies=[acme])
    _, back = oidc_round_trip(client, "acme")
    assert exchange(client, back["code"]).status_code == 200
    assert AuthToken.objects.get().user == member


def test_issue26_sso_oidc_deactivated_record_is_refused(client, provider, acme, user_factory):
    """Issue 26 SSO: a person whose record the employer deactivated may not sign back in."""
    member = user_factory(email="nia@acme.test")
    EmployeeRecord.objects.create(
        company=acme, user=member, email=member.email, source="scim", active=False
    )
    assert "access through Acme Corp has ended" in refused(client)
    assert not AuthToken.objects.exists()
    assert not member.companies.exists()


def test_issue26_sso_oidc_provider_never_takes_over_another_company_account(
    client, provider, acme, user_factory, company_factory, idp
):
    """Issue 26 SSO: without company domains, a provider naming another company's member's
    address is refused (no takeover through a company's own provider)."""
    acme.allowed_email_domains = ""
    acme.save()
    globex = company_factory(slug="globex", name="Globex")
    user_factory(email="gus@globex.test", companies=[globex])
    idp.person = Person(email="gus@globex.test")
    assert "is not part of Acme Corp" in refused(client)
    assert not AuthToken.objects.exists()


def test_issue26_sso_oidc_a_roster_naming_another_company_account_grants_no_takeover(
    client, provider, acme, user_factory, company_factory, idp
):
    """Issue 26 SSO: the company's own list (a roster row, SCIM) naming another company's
    member's address neither links that account nor lets the company's provider sign it in."""
    from concierge.provisioning.services.records import RecordFields, record_create

    acme.allowed_email_domains = ""
    acme.save()
    globex = company_factory(slug="globex", name="Globex")
    gus = user_factory(email="gus@globex.test", companies=[globex])
    record = record_create(
        company=acme, fields=RecordFields(email="gus@globex.test"), source="roster"
    )
    assert record.user is None
    idp.person = Person(email="gus@globex.test")
    assert "is not part of Acme Corp" in refused(client)
    assert not AuthToken.objects.exists()
    assert list(gus.companies.values_list("slug", flat=True)) == ["globex"]


def test_issue26_sso_oidc_access_ended_before_the_exchange_is_refused(client, provider, acme):
    """Issue 26 SSO: the employer ends the person's access between the provider's answer and
    the web app's exchange: no session."""
    from concierge.accounts.services.memberships import member_deactivate

    _, back = oidc_round_trip(client, "acme")
    member_deactivate(record=EmployeeRecord.objects.get(email="nia@acme.test", company=acme))
    answer = exchange(client, back["code"])
    assert answer.status_code == 403
    assert "access through Acme Corp has ended" in answer.json()["error"]
    assert not AuthToken.objects.exists()


def test_issue26_sso_oidc_email_from_userinfo_when_the_id_token_has_none(client, provider, idp):
    """Issue 26 SSO: a provider that leaves the email out of the ID token: it is read from its
    UserInfo endpoint (with the access token, for the same subject)."""
    idp.email_in_userinfo_only = True
    _, back = oidc_round_trip(client, "acme")
    assert exchange(client, back["code"]).status_code == 200
    assert User.objects.filter(email="nia@acme.test").exists()


def test_issue26_sso_oidc_callback_in_another_browser_is_refused(client, provider):
    """Issue 26 SSO refusal (login CSRF): a genuine code and state, brought to a browser that
    did not start the sign-in (it lacks the start's cookie), sign nobody in."""
    start = client.get("/api/v1/sso/acme/start")
    cookie = start.cookies["sso_browser"]
    assert cookie["httponly"] and cookie["samesite"] == "Lax" and cookie["path"] == "/api/v1/sso/"
    back = urlsplit(httpx.get(start["Location"]).headers["Location"])
    query = {k: v[0] for k, v in parse_qs(back.query).items()}
    victim = Client()
    error = fragment(victim.get(back.path, query))["error"]
    assert "started in another browser" in error
    nobody_signed_in()
