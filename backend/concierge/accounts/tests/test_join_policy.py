"""Hardening 9: how people join a company (open, work email with verification, invite links).

Sign-up keeps the spec's payload and answers (§3, §7); a company's join policy decides who may
join under its slug, and a work-email company's content shows only to verified addresses.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from freezegun import freeze_time

from concierge.accounts.models import Company, CompanyInvite, User
from concierge.common.tokens import token_new
from concierge.offerings.models import Offering
from conftest import ApiClient

pytestmark = pytest.mark.django_db

WORK_EMAIL = "ann.ex@initech.example"
VERIFY_LINK = re.compile(r"/verify-email/(\S+)")


@pytest.fixture
def initech(company_factory) -> Company:
    return company_factory(
        slug="initech",
        name="Initech",
        join_policy=Company.JoinPolicy.EMAIL_DOMAIN,
        allowed_email_domains="initech.example\nInitech.co.uk",
    )


@pytest.fixture
def hooli(company_factory) -> Company:
    return company_factory(slug="hooli", name="Hooli", join_policy=Company.JoinPolicy.INVITE)


def _offering(slug: str, type: str, companies: list[Company]) -> Offering:
    offering = Offering.objects.create(
        slug=slug, type=type, provider_name="P", heading=slug.title(), name=slug
    )
    offering.companies.set(companies)
    return offering


@pytest.fixture
def catalogue(initech, company):
    """Initech's benefit and targeted offer, an offer for everyone, Acme's benefit."""
    return {
        "benefit": _offering("initech-dental", Offering.Type.BENEFIT, [initech]),
        "targeted": _offering("initech-gym", Offering.Type.PRODUCT, [initech]),
        "everyone": _offering("movie-tickets", Offering.Type.PRODUCT, []),
        "acme": _offering("acme-vision", Offering.Type.BENEFIT, [company]),
    }


def _invite(company: Company, **fields) -> str:
    raw, hashed = token_new()
    fields.setdefault("expires_at", timezone.now() + timedelta(days=14))
    CompanyInvite.objects.create(company=company, token_hash=hashed, **fields)
    return raw


def _verification_token(outbox, to: str = WORK_EMAIL) -> str:
    for email in outbox.emails(to):
        if match := VERIFY_LINK.search(email.body):
            return match.group(1)
    raise AssertionError(f"no confirmation link emailed to {to}")


def _signed_up(api: ApiClient, email: str = WORK_EMAIL, **fields) -> ApiClient:
    response = api.sign_up(
        email=email, company_slug=fields.pop("company_slug", "initech"), **fields
    )
    assert response.status_code == 200, response.content
    assert api.sign_in(email).status_code == 200
    return api


def _headings(api: ApiClient) -> set[str]:
    response = api.get("offerings", query={"types": "benefit,product"})
    assert response.status_code == 200
    return {o["heading"] for o in response.json()["offerings"]}


# --------------------------------------------------------------------------- open


def test_hardening_9_open_company_joins_as_before(api, company, catalogue, outbox):
    """Hardening 9: an open company (the demo's) joins by slug alone; content shows at once
    and no confirmation email is needed"""
    assert company.join_policy == Company.JoinPolicy.OPEN
    _signed_up(api, "walk.in@anywhere.example", company_slug="acme")

    current = api.get("users/current").json()
    assert [c["name"] for c in current["companies"]] == ["Acme Corp"]
    assert current["email_verification_pending"] is False
    assert _headings(api) == {"Acme-Vision", "Movie-Tickets"}
    assert not [e for e in outbox.emails() if VERIFY_LINK.search(e.body)]


def test_hardening_9_unknown_slug_is_still_the_clear_422(api, initech):
    """Hardening 9 / §8: an unknown slug stays a 422 on company_slug"""
    response = api.sign_up(company_slug="no-such-company")
    assert response.status_code == 422
    assert "company_slug" in response.json()["errors"]


# --------------------------------------------------------------------------- work email


@pytest.mark.parametrize(
    "email", ["ann@gmail.com", "ann@evil-initech.example", "ann@x.initech.example"]
)
def test_hardening_9_domain_refused_with_a_clear_422(api, initech, email):
    """Hardening 9: sign-up with an address outside the allowed domains is refused on the
    email field, and no account is made"""
    response = api.sign_up(email=email, company_slug="initech")

    assert response.status_code == 422
    body = response.json()
    message = "Initech accounts need a work email address (@initech.example, @initech.co.uk). "
    message += "Please sign up with your work email."
    assert body["error"] == message
    assert body["errors"] == {"email": [message]}
    assert not User.objects.filter(email=email).exists()


def test_hardening_9_allowed_domain_in_any_case_signs_up(api, initech):
    """Hardening 9: the domain check ignores letter case"""
    response = api.sign_up(email="Bob@INITECH.CO.UK", company_slug="initech")
    assert response.status_code == 200
    assert User.objects.get(email="bob@initech.co.uk").companies.get() == initech


def test_hardening_9_unverified_user_sees_no_company_content(api, initech, catalogue, outbox):
    """Hardening 9: until the email is verified, the company's benefits, targeted offers and
    sponsoring block are hidden (list, details and categories); offers for everyone show"""
    _signed_up(api)

    current = api.get("users/current").json()
    assert current["companies"] == []
    assert current["is_internal"] is False
    assert current["email_verification_pending"] is True
    assert _headings(api) == {"Movie-Tickets"}
    assert api.get(f"offerings/{catalogue['benefit'].id}").status_code == 404
    assert api.get(f"offerings/{catalogue['targeted'].id}").status_code == 404
    assert api.get(f"offerings/{catalogue['everyone'].id}").status_code == 200
    # Ownership holds too: another company's benefit stays hidden.
    assert api.get(f"offerings/{catalogue['acme'].id}").status_code == 404


def test_hardening_9_verification_link_shows_company_content(api, initech, catalogue, outbox):
    """Hardening 9: the link emailed at sign-up (through the task queue) verifies the address;
    then the company, its benefits and targeted offers appear"""
    _signed_up(api)
    [email] = [e for e in outbox.emails(WORK_EMAIL) if VERIFY_LINK.search(e.body)]
    assert email.subject.endswith("Confirm your email address")

    response = ApiClient().post("users/verify_email", {"token": _verification_token(outbox)})

    assert response.status_code == 200, response.content
    assert User.objects.get(email=WORK_EMAIL).email_verified_at is not None
    current = api.get("users/current").json()
    assert [c["name"] for c in current["companies"]] == ["Initech"]
    assert current["email_verification_pending"] is False
    assert _headings(api) == {"Initech-Dental", "Initech-Gym", "Movie-Tickets"}
    assert api.get(f"offerings/{catalogue['benefit'].id}").status_code == 200


def test_hardening_9_verification_email_waits_for_the_commit(api, initech, tasks):
    """Hardening 9: the confirmation email is a queued task, not sent inside the request"""
    _signed_up(api)
    [result] = tasks.results("concierge.notifications.tasks.email_deliver")
    assert result.args_kwargs["kwargs"]["to"] == WORK_EMAIL


def test_hardening_9_verification_link_works_once(api, initech, outbox):
    """Hardening 9: a confirmation link is single use"""
    _signed_up(api)
    token = _verification_token(outbox)
    assert api.post("users/verify_email", {"token": token}).status_code == 200

    again = api.post("users/verify_email", {"token": token})

    assert again.status_code == 422
    assert again.json()["error"] == (
        "This confirmation link is invalid, already used or expired. "
        "Sign in to send yourself a new one."
    )


def test_hardening_9_verification_link_expires(api, initech, outbox, settings):
    """Hardening 9: a confirmation link expires after EMAIL_VERIFICATION_TTL_SECONDS"""
    start = timezone.now()
    with freeze_time(start):
        _signed_up(api)
        token = _verification_token(outbox)
    with freeze_time(start + timedelta(seconds=settings.EMAIL_VERIFICATION_TTL_SECONDS + 1)):
        response = api.post("users/verify_email", {"token": token})
    assert response.status_code == 422
    assert User.objects.get(email=WORK_EMAIL).email_verified_at is None


@pytest.mark.parametrize("token", ["", "garbage", "a:b:c", "x" * 1001, "eyJ1c2VyIjoxfQ:1:2"])
def test_hardening_9_bad_verification_tokens_are_422_not_500(api, token):
    """Hardening 9: any token that is not ours is refused cleanly"""
    response = api.post("users/verify_email", {"token": token})
    assert response.status_code == 422


def test_hardening_9_link_for_an_old_address_stops_working(api, initech, outbox):
    """Hardening 9: a link is bound to the address it was sent to"""
    _signed_up(api)
    token = _verification_token(outbox)
    User.objects.filter(email=WORK_EMAIL).update(email="new.ann@initech.example")
    assert api.post("users/verify_email", {"token": token}).status_code == 422


def test_hardening_9_resend_sends_a_fresh_link(api, initech, outbox):
    """Hardening 9: 'Resend' emails a new link, which verifies; afterwards resend says so"""
    _signed_up(api)
    first = _verification_token(outbox)

    assert api.post("users/verify_email/resend").status_code == 200

    links = [e for e in outbox.emails(WORK_EMAIL) if VERIFY_LINK.search(e.body)]
    assert len(links) == 2
    fresh = _verification_token(outbox)
    assert api.post("users/verify_email", {"token": fresh}).status_code == 200
    # Verifying makes every earlier link stale.
    assert api.post("users/verify_email", {"token": first}).status_code == 422
    again = api.post("users/verify_email/resend")
    assert again.status_code == 422
    assert again.json()["error"] == "Your email address is already confirmed."


def test_hardening_9_resend_needs_sign_in(api):
    """Hardening 9: resending is for the signed-in owner only"""
    assert api.post("users/verify_email/resend").status_code == 401


def test_hardening_9_taken_email_still_answers_like_success(api, initech, user_factory, outbox):
    """Hardening 9 with hardening 6: a taken work email answers like a success, emails the
    owner, and sends no confirmation link"""
    user_factory(email=WORK_EMAIL, companies=[initech])

    response = api.sign_up(email=WORK_EMAIL, company_slug="initech", password="another-pass-77")

    assert response.status_code == 200
    [email] = outbox.emails(WORK_EMAIL)
    assert email.subject.endswith("Someone tried to sign up with your email")


# --------------------------------------------------------------------------- invite links


def test_hardening_9_invite_company_refuses_sign_up_without_invite(api, hooli):
    """Hardening 9: an invite-only company cannot be joined by guessing its slug"""
    response = api.sign_up(company_slug="hooli")
    assert response.status_code == 422
    assert response.json()["errors"] == {
        "invite": ["Joining Hooli needs the invite link from your employer."]
    }
    assert not User.objects.filter(email="new.person@example.com").exists()


def test_hardening_9_invite_signs_up_and_shows_content_at_once(api, hooli):
    """Hardening 9: a valid invite joins the company; no email verification is needed"""
    benefit = _offering("hooli-health", Offering.Type.BENEFIT, [hooli])
    invite = _invite(hooli)

    _signed_up(api, "gavin@anywhere.example", company_slug="hooli", invite=invite)

    current = api.get("users/current").json()
    assert [c["name"] for c in current["companies"]] == ["Hooli"]
    assert current["email_verification_pending"] is False
    assert api.get(f"offerings/{benefit.id}").status_code == 200
    assert CompanyInvite.objects.get().use_count == 1


def test_hardening_9_single_use_invite_works_once(api, hooli):
    """Hardening 9: an invite with one use cannot be used again"""
    invite = _invite(hooli)
    assert (
        api.sign_up(email="one@x.example", company_slug="hooli", invite=invite).status_code == 200
    )

    again = api.sign_up(email="two@x.example", company_slug="hooli", invite=invite)

    assert again.status_code == 422
    assert again.json()["errors"] == {
        "invite": [
            "This invite link is invalid, used up or expired. "
            "Please ask your employer for a new one."
        ]
    }
    assert not User.objects.filter(email="two@x.example").exists()


def test_hardening_9_team_invite_works_up_to_its_limit(api, hooli):
    """Hardening 9: a team invite takes max_uses sign-ups, then no more"""
    invite = _invite(hooli, max_uses=2)
    for n in (1, 2):
        response = api.sign_up(email=f"t{n}@x.example", company_slug="hooli", invite=invite)
        assert response.status_code == 200
    assert api.sign_up(email="t3@x.example", company_slug="hooli", invite=invite).status_code == 422


def test_hardening_9_invite_expires(api, hooli):
    """Hardening 9: an invite stops working at its expiry"""
    start = timezone.now()
    with freeze_time(start):
        invite = _invite(hooli, expires_at=start + timedelta(days=1))
    with freeze_time(start + timedelta(days=1, seconds=1)):
        response = api.sign_up(company_slug="hooli", invite=invite)
    assert response.status_code == 422
    assert "invite" in response.json()["errors"]


def test_hardening_9_revoked_or_other_company_invite_refused(api, hooli, company_factory):
    """Hardening 9: a revoked invite, or another company's, does not join"""
    revoked = _invite(hooli, revoked_at=timezone.now())
    other = _invite(company_factory(slug="pied-piper", join_policy=Company.JoinPolicy.INVITE))
    for invite in (revoked, other, "made-up"):
        response = api.sign_up(company_slug="hooli", invite=invite)
        assert response.status_code == 422
        assert "invite" in response.json()["errors"]


def test_hardening_9_taken_email_uses_up_the_invite_too(api, hooli, user_factory, outbox):
    """Hardening 9 with hardening 6: a taken email answers like a success and uses the
    invite, so a second try with it tells nothing about the first email"""
    user_factory(email="taken@x.example")
    invite = _invite(hooli)

    assert (
        api.sign_up(email="taken@x.example", company_slug="hooli", invite=invite).status_code == 200
    )
    assert (
        api.sign_up(email="fresh@x.example", company_slug="hooli", invite=invite).status_code == 422
    )
    assert not User.objects.get(email="taken@x.example").companies.filter(pk=hooli.pk).exists()


def test_hardening_9_invite_is_ignored_by_open_companies(api, company):
    """Hardening 9: an invite parameter changes nothing for an open company"""
    assert api.sign_up(company_slug="acme", invite="whatever").status_code == 200


def test_an_open_company_counts_the_uses_of_its_invite_links(api, company):
    """Members page: an open company's invite link, used to sign up, shows as used ('1 of 2
    used'), though the company needs none; a used-up one still lets anyone in."""
    raw = _invite(company, max_uses=1)
    assert api.sign_up(company_slug="acme", invite=raw).status_code == 200
    assert CompanyInvite.objects.get(company=company).use_count == 1
    used_up = api.sign_up(company_slug="acme", invite=raw, email="second@example.com")
    assert used_up.status_code == 200
    assert CompanyInvite.objects.get(company=company).use_count == 1


# --------------------------------------------------------------------------- Django admin


@pytest.fixture
def admin_client(user_factory) -> Client:
    client = Client()
    client.force_login(user_factory(email="root@example.com", is_staff=True, is_superuser=True))
    return client


def _company_form(**fields) -> dict:
    data = {"slug": "initrode", "name": "Initrode", "join_policy": "open"}
    data["created_at_0"], data["created_at_1"] = "2026-01-01", "00:00:00"
    data.update(fields)
    return data


def test_hardening_9_admin_sets_the_join_policy(admin_client):
    """Hardening 9: the join policy and domains are set in Django admin; work email needs
    valid domains"""
    url = reverse("admin:accounts_company_add")
    refused = admin_client.post(url, _company_form(join_policy="email_domain"))
    assert refused.status_code == 200
    assert "List at least one domain" in refused.content.decode()
    bad = admin_client.post(url, _company_form(allowed_email_domains="not a domain"))
    assert "Not a domain: not a domain" in bad.content.decode()

    saved = admin_client.post(
        url, _company_form(join_policy="email_domain", allowed_email_domains="@Initrode.com, x.io")
    )

    assert saved.status_code == 302, saved.content.decode()[:2000]
    company = Company.objects.get(slug="initrode")
    assert company.email_domains == ["initrode.com", "x.io"]
    assert admin_client.get(reverse("admin:accounts_companyinvite_changelist")).status_code == 200


def test_hardening_9_admin_creates_an_invite_link_shown_once(admin_client, hooli, settings):
    """Hardening 9: creating an invite in admin shows its link once; the link signs up"""
    expires = timezone.now() + timedelta(days=14)
    response = admin_client.post(
        reverse("admin:accounts_companyinvite_add"),
        {
            "company": hooli.pk,
            "label": "Jane",
            "max_uses": 1,
            "expires_at_0": expires.strftime("%Y-%m-%d"),
            "expires_at_1": expires.strftime("%H:%M:%S"),
        },
        follow=True,
    )

    page = response.content.decode()
    match = re.search(rf"{settings.PUBLIC_URL}/sign-up/hooli\?invite=([A-Za-z0-9_\-]+)", page)
    assert match, page[:3000]
    invite = CompanyInvite.objects.get()
    assert match.group(1) not in invite.token_hash
    assert ApiClient().sign_up(company_slug="hooli", invite=match.group(1)).status_code == 200
    change = admin_client.get(reverse("admin:accounts_companyinvite_change", args=[invite.pk]))
    assert change.status_code == 200
    assert match.group(1) not in change.content.decode()
