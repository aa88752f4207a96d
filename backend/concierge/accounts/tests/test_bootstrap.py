"""Issue 25 deploy: `manage.py bootstrap` makes a new installation usable: the first company,
the Concierges group with the desk's permissions and the first administrator, who sets a
password through a one-time link (or gives a strong one that is not the demo password) and
adds a second factor at the first admin sign-in. Running it again changes nothing."""

from __future__ import annotations

import io
import re

import pytest
from django.contrib.auth.models import Group
from django.core.management import CommandError, call_command
from django.test import Client

from concierge.accounts.models import Company, PasswordResetToken, User
from concierge.accounts.services.password_reset import password_reset_complete
from conftest import UserFactory

pytestmark = pytest.mark.django_db

STRONG = "Correct-Horse-Battery-9"
ARGS = [
    "--company-name", "Acme Corp", "--company-slug", "acme",
    "--admin-email", "Avery.Admin@Acme.example", "--admin-first-name", "Avery",
]  # fmt: skip


def bootstrap(*args: str, stdin: str | None = None, monkeypatch=None) -> str:
    if stdin is not None:
        assert monkeypatch is not None
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    out = io.StringIO()
    call_command("bootstrap", *args, stdout=out)
    return out.getvalue()


def _link_token(output: str) -> str:
    match = re.search(r"https?://\S+/reset-password/(\S+)", output)
    assert match, output
    return match.group(1)


def _admin_sign_in(password: str):
    return Client().post(
        "/admin/login/?next=/admin/",
        {"username": "avery.admin@acme.example", "password": password, "next": "/admin/"},
    )


def test_bootstrap_creates_the_company_the_group_and_the_admin_with_a_link(settings) -> None:
    """Issue 25 deploy: a fresh database gets its company, group and superuser; the admin has
    no password until the printed link sets one, then signs in to Django admin and is asked to
    add an authenticator app first."""
    settings.PUBLIC_URL = "https://concierge.example.com"
    output = bootstrap(*ARGS)

    company = Company.objects.get(slug="acme")
    assert company.name == "Acme Corp"
    assert company.join_policy == Company.JoinPolicy.OPEN
    assert "https://concierge.example.com/sign-up/acme" in output

    group = Group.objects.get(name="Concierges")
    permissions = set(group.permissions.values_list("content_type__app_label", "codename"))
    assert ("surveys", "view_requestsurvey") in permissions
    assert ("offerings", "view_offering") in permissions
    assert all(codename.startswith("view_") for _, codename in permissions)

    admin = User.objects.get(email="avery.admin@acme.example")
    assert admin.is_superuser and admin.is_staff and admin.is_active
    assert admin.first_name == "Avery"
    assert admin.onboarded_at is not None
    assert not admin.has_usable_password()
    assert "https://concierge.example.com/admin/" in output
    assert "authenticator app" in output

    token = _link_token(output)
    assert output.count("/reset-password/") == 1
    password_reset_complete(token=token, password=STRONG, password_confirmation=STRONG)
    answer = _admin_sign_in(STRONG)
    assert answer.status_code == 200
    assert "Add a second sign-in step" in answer.content.decode()
    assert "Site administration" not in answer.content.decode()


def test_running_it_again_changes_nothing_and_says_so() -> None:
    """Issue 25 deploy: idempotent: no second company, group or admin, no new link, the
    company's name kept even when another one is given."""
    bootstrap(*ARGS)
    tokens = PasswordResetToken.objects.count()
    again = bootstrap(*[("Acme Inc" if arg == "Acme Corp" else arg) for arg in ARGS])

    assert again.strip().endswith("Nothing changed.")
    assert "exists, named Acme Corp (not the name given" in again
    assert "The group Concierges exists with its permissions: left as it is." in again
    assert "The administrator avery.admin@acme.example exists: left as it is" in again
    assert "/reset-password/" not in again
    assert PasswordResetToken.objects.count() == tokens
    assert Company.objects.get().name == "Acme Corp"
    assert User.objects.count() == 1
    assert Group.objects.count() == 1


def test_a_new_link_for_an_admin_who_never_set_a_password() -> None:
    """Issue 25 deploy: the first link expired unused: --new-link prints another."""
    first = _link_token(bootstrap(*ARGS))
    output = bootstrap(*ARGS, "--new-link")
    assert _link_token(output) != first
    assert "Nothing changed." not in output


def test_a_strong_password_from_standard_input(monkeypatch) -> None:
    """Issue 25 deploy: --password-stdin sets the admin's password; no link is printed."""
    output = bootstrap(*ARGS, "--password-stdin", stdin=STRONG + "\n", monkeypatch=monkeypatch)
    admin = User.objects.get()
    assert admin.check_password(STRONG)
    assert "/reset-password/" not in output
    assert PasswordResetToken.objects.count() == 0
    assert "Add a second sign-in step" in _admin_sign_in(STRONG).content.decode()


@pytest.mark.parametrize(
    ("password", "reason"),
    [
        ("Short-pw1", "at least 12 characters"),
        ("password1234", "too common"),
        ("avery.admin@acme", "too similar"),
    ],
)
def test_weak_passwords_are_refused(monkeypatch, password: str, reason: str) -> None:
    """Issue 25 deploy: Django's validators, and 12 characters at least for the superuser;
    nothing is created when the password is refused."""
    with pytest.raises(CommandError, match=reason):
        bootstrap(*ARGS, "--password-stdin", stdin=password + "\n", monkeypatch=monkeypatch)
    assert not User.objects.exists()
    assert not Company.objects.exists()


def test_the_demo_password_is_refused(monkeypatch, settings, tmp_path) -> None:
    """Issue 25 deploy: never the demo accounts' shared password, from DEMO_PASSWORD or from
    the file `make run` keeps it in."""
    monkeypatch.setenv("DEMO_PASSWORD", STRONG)
    with pytest.raises(CommandError, match="demo accounts' password"):
        bootstrap(*ARGS, "--password-stdin", stdin=STRONG, monkeypatch=monkeypatch)

    monkeypatch.delenv("DEMO_PASSWORD")
    settings.VAR_DIR = tmp_path
    (tmp_path / "demo_password").write_text("Demo-Kept-In-A-File-7\n")
    with pytest.raises(CommandError, match="demo accounts' password"):
        bootstrap(*ARGS, "--password-stdin", stdin="Demo-Kept-In-A-File-7", monkeypatch=monkeypatch)
    assert not User.objects.exists()


def test_an_existing_account_that_is_not_an_admin_is_refused() -> None:
    """Issue 25 deploy: the email belongs to an employee: not silently promoted."""
    UserFactory(email="avery.admin@acme.example")
    with pytest.raises(CommandError, match="not an active superuser"):
        bootstrap(*ARGS)
    assert not Company.objects.exists()


def test_work_email_companies_need_their_domains() -> None:
    with pytest.raises(CommandError, match="needs --email-domains"):
        bootstrap(*ARGS, "--join-policy", "email_domain")
    bootstrap(*ARGS, "--join-policy", "email_domain", "--email-domains", "acme.example, @acme.com")
    company = Company.objects.get()
    assert company.email_domains == ["acme.example", "acme.com"]
    assert company.requires_verified_email
