"""API speed 'Authentication without three queries per request': a bearer token is checked in
one query (token, user, and the two membership facts every request needs), and nothing about a
session is remembered between requests, so a sign-out, a password change, a deactivation or a
membership change counts from the very next request."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.core.cache import cache

from concierge.accounts.selectors.concierges import CONCIERGE_GROUP, user_is_concierge
from concierge.accounts.selectors.sessions import auth_token_get_active, user_mfa_required

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("cached_reads", [True, False])
def test_authentication_is_one_query(
    signed_in_api, user, django_assert_num_queries, settings, cached_reads
):
    """API speed 2 / issue 24: token + user + MFA rule + concierge group + (issue 30: with
    cached reads on, not otherwise) the version of the user's cached reads in a single query,
    every time: a session is checked against the database on every request, so a revocation
    never waits on a cache."""
    settings.CACHED_READS = cached_reads
    cache.clear()
    with django_assert_num_queries(1):
        auth_token = auth_token_get_active(raw_token=signed_in_api.token)
    with django_assert_num_queries(1) as captured:
        assert auth_token_get_active(raw_token=signed_in_api.token) == auth_token
    assert auth_token is not None
    assert bool(auth_token.user.read_version) is cached_reads
    assert ("common_readversion" in captured.captured_queries[0]["sql"]) is cached_reads
    assert auth_token.user == user
    with django_assert_num_queries(0):
        assert user_mfa_required(user=auth_token.user) is False
        assert user_is_concierge(user=auth_token.user) is False


def test_the_session_query_reads_token_and_user_as_the_orm_does(signed_in_api, user):
    """Issue 30: the session query's SQL is written by hand; the token and user it gives equal
    the ORM's, field for field and type for type (aware times, UUIDs, booleans), on SQLite and
    PostgreSQL alike, and the membership facts are booleans."""
    Group.objects.get_or_create(name=CONCIERGE_GROUP)[0].user_set.add(user)
    auth_token = auth_token_get_active(raw_token=signed_in_api.token)
    assert auth_token is not None
    stored = type(auth_token).objects.select_related("user").get(pk=auth_token.pk)
    for mine, orms in ((auth_token, stored), (auth_token.user, stored.user)):
        for field in type(mine)._meta.concrete_fields:
            value, expected = getattr(mine, field.attname), getattr(orms, field.attname)
            assert (value, type(value)) == (expected, type(expected)), field.name
        assert mine._state.adding is False and mine._state.db == orms._state.db
    assert auth_token.user.date_joined.tzinfo is not None
    assert auth_token.user.in_concierge_group is True
    assert auth_token.user.company_requires_mfa is False
    assert auth_token.user.has_mfa_factor is False
    assert auth_token_get_active(raw_token=signed_in_api.token + "x") is None


def test_list_request_runs_one_query_for_authentication(
    signed_in_api, user, django_assert_num_queries, settings
):
    """API speed 2: GET /requests/open = authentication (1) + the list (1); then, with
    CACHED_READS on, the session alone, the list answered from the cache under the read
    version the session query gave."""
    settings.CACHED_READS = True
    cache.clear()
    with django_assert_num_queries(2):
        response = signed_in_api.get("requests/open")
    assert response.status_code == 200
    with django_assert_num_queries(1):
        assert signed_in_api.get("requests/open").content == response.content


def test_sign_out_counts_at_once(signed_in_api):
    """API speed 2 invalidation: the token stops working on the next request after sign-out."""
    assert signed_in_api.get("requests/open").status_code == 200
    assert signed_in_api.sign_out().status_code in (200, 204)
    assert signed_in_api.get("requests/open").status_code == 401


def test_password_reset_signs_every_session_out_at_once(signed_in_api, api, user, outbox):
    """API speed 2 invalidation: a password change (reset) revokes the other sessions at once."""
    assert signed_in_api.get("requests/open").status_code == 200
    api.post("users/password", {"user": {"email": user.email}})
    token = outbox.link_token("reset-password", to=user.email)
    password = "brand-new-secret-77"
    response = api.put(
        "users/password",
        {"reset_password_token": token, "password": password, "password_confirmation": password},
    )
    assert response.status_code == 200, response.content
    assert signed_in_api.get("requests/open").status_code == 401


def test_deactivated_user_is_signed_out_at_once(signed_in_api, user):
    user.is_active = False
    user.save(update_fields=["is_active"])
    assert signed_in_api.get("requests/open").status_code == 401


def test_company_mfa_rule_counts_at_once(signed_in_api, company):
    """API speed 2 invalidation (membership facts): when the employee's company starts
    requiring MFA, the very next request asks for it."""
    assert signed_in_api.get("requests/open").status_code == 200
    company.requires_mfa = True
    company.save(update_fields=["requires_mfa"])
    response = signed_in_api.get("requests/open")
    assert response.status_code == 401
    assert response.json()["error"] == "MFA authentication required"


def test_joining_an_mfa_company_counts_at_once(signed_in_api, user, company_factory):
    assert signed_in_api.get("requests/open").status_code == 200
    user.companies.add(company_factory(slug="strict", requires_mfa=True))
    assert signed_in_api.get("requests/open").status_code == 401


def test_concierge_group_membership_counts_at_once(concierge_api, concierge):
    """API speed 2 invalidation (membership change): a concierge taken out of the group loses
    the desk on the next request, and gets it back when put back."""
    assert concierge_api.get("concierge/requests").status_code == 200
    group = Group.objects.get(name=CONCIERGE_GROUP)
    concierge.groups.remove(group)
    assert concierge_api.get("concierge/requests").status_code == 403
    concierge.groups.add(group)
    assert concierge_api.get("concierge/requests").status_code == 200
