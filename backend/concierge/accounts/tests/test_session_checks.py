"""Issue 24: a signed-in session is checked against the database on every request (one query),
so a change to the session, the user, their companies, groups or second factors counts from
the very next request, whatever made it."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth.models import Group
from django.utils import timezone
from freezegun import freeze_time

from concierge.accounts.models import MfaFactor
from concierge.accounts.services.identity import user_request_count_add

DESK = "concierge/requests"


def test_a_deactivated_user_is_signed_out_at_once(signed_in_api, user):
    """ARCHITECTURE §5: an account made inactive (the admin) gets 401 on its next request."""
    assert signed_in_api.get("users/current").status_code == 200
    user.is_active = False
    user.save()
    assert signed_in_api.get("users/current").status_code == 401


def test_a_company_that_starts_requiring_mfa_gates_its_members_at_once(
    signed_in_api, user, company
):
    """ARCHITECTURE §5 MFA gate: turning on a company's MFA rule gates live sessions at once."""
    assert signed_in_api.get("users/current").status_code == 200
    company.requires_mfa = True
    company.save()
    response = signed_in_api.get("users/current")
    assert response.status_code == 401
    assert response.json()["error"] == "MFA authentication required"


def test_joining_a_company_that_requires_mfa_gates_at_once(signed_in_api, user, globex):
    """ARCHITECTURE §5 MFA gate: a new membership counts from the very next request, whichever
    side of the relation it is added from."""
    globex.requires_mfa = True
    globex.save()
    assert signed_in_api.get("users/current").status_code == 200
    globex.members.add(user)
    assert signed_in_api.get("users/current").status_code == 401
    globex.members.remove(user)
    assert signed_in_api.get("users/current").status_code == 200
    user.companies.add(globex)
    assert signed_in_api.get("users/current").status_code == 401


def test_a_confirmed_second_factor_gates_at_once(signed_in_api, user):
    """ARCHITECTURE §5 MFA gate: an authenticator app confirmed elsewhere asks this session
    for the MFA step on its next request."""
    assert signed_in_api.get("users/current").status_code == 200
    MfaFactor.objects.create(
        user=user, kind=MfaFactor.Kind.TOTP, name="Phone", confirmed_at=timezone.now()
    )
    assert signed_in_api.get("users/current").status_code == 401


def test_the_concierge_group_counts_at_once_both_ways(signed_in_api, user):
    """§ concierge desk: joining the Concierges group opens the desk on the next request;
    leaving it (from the group's side, or all groups cleared) closes it at once."""
    assert signed_in_api.get(DESK).status_code == 403
    group, _ = Group.objects.get_or_create(name="Concierges")
    user.groups.add(group)
    assert signed_in_api.get(DESK).status_code == 200
    group.user_set.remove(user)
    assert signed_in_api.get(DESK).status_code == 403
    group.user_set.add(user)
    assert signed_in_api.get(DESK).status_code == 200
    group.user_set.clear()
    assert signed_in_api.get(DESK).status_code == 403


def test_a_session_ends_at_its_expiry(signed_in_api, settings):
    """ARCHITECTURE §5: a session ends at its expiry."""
    assert signed_in_api.get("users/current").status_code == 200
    later = timezone.now() + timedelta(seconds=settings.AUTH_TOKEN_TTL_SECONDS + 1)
    with freeze_time(later):
        assert signed_in_api.get("users/current").status_code == 401


def test_the_request_count_is_current(signed_in_api, user):
    """§ users/current: request_count, raised with an F() update, is never read stale."""
    before = signed_in_api.get("users/current").json()["request_count"]
    user_request_count_add(user=user)
    assert signed_in_api.get("users/current").json()["request_count"] == before + 1
