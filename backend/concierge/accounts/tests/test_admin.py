"""Django admin for companies and users: ARCHITECTURE.md §6 'Django admin manages companies,
users, ...'."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from concierge.accounts.models import Company, OnboardingAnswer, User
from conftest import CompanyFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client_() -> Client:
    superuser = User.objects.create_superuser(
        email="root@example.com", password="admin-pass-123", first_name="Root"
    )
    client = Client()
    client.force_login(superuser)
    return client


def test_company_changelist_renders(admin_client_, company):
    """ARCHITECTURE §6 admin manages companies: the list shows slug, name and the MFA rule"""
    response = admin_client_.get(reverse("admin:accounts_company_changelist"))
    assert response.status_code == 200
    content = response.content.decode()
    assert "acme" in content
    assert "Acme Corp" in content


def test_company_search_and_add_pages(admin_client_, company):
    """ARCHITECTURE §6: companies can be searched and added (slug prepopulated from name)"""
    CompanyFactory(name="Beta Inc", slug="beta")
    response = admin_client_.get(reverse("admin:accounts_company_changelist"), {"q": "beta"})
    assert response.status_code == 200
    assert "Beta Inc" in response.content.decode()
    assert "Acme Corp" not in response.content.decode()

    add = admin_client_.get(reverse("admin:accounts_company_add"))
    assert add.status_code == 200
    assert "prepopulated" in add.content.decode()


def test_user_changelist_renders(admin_client_, user):
    """ARCHITECTURE §6 admin manages users: email, full name, staff and lock state listed"""
    user.locked_at = timezone.now()
    user.save()
    response = admin_client_.get(reverse("admin:accounts_user_changelist"))
    assert response.status_code == 200
    content = response.content.decode()
    assert "ada@example.com" in content
    assert "Ada Lovelace" in content


def test_user_changelist_filters_and_search(admin_client_, user, company):
    """ARCHITECTURE §6: users can be found by email or name and filtered by company"""
    UserFactory(email="zed@example.com", first_name="Zed", last_name="Zulu")
    url = reverse("admin:accounts_user_changelist")

    by_name = admin_client_.get(url, {"q": "Lovelace"}).content.decode()
    assert "ada@example.com" in by_name
    assert "zed@example.com" not in by_name

    by_company = admin_client_.get(url, {"companies__id__exact": company.id}).content.decode()
    assert "ada@example.com" in by_company
    assert "zed@example.com" not in by_company


def test_user_change_page_renders_with_onboarding_inline(admin_client_, user):
    """ARCHITECTURE §6 concierge sees onboarding answers: shown inline on the user"""
    OnboardingAnswer.objects.create(user=user, answer_id=104, value="5551234567")
    response = admin_client_.get(reverse("admin:accounts_user_change", args=[user.pk]))
    assert response.status_code == 200
    content = response.content.decode()
    assert "5551234567" in content
    assert str(user.external_id) in content
    assert "mfa_phone" in content
    assert "locked_at" in content


def test_admin_adds_user_with_email_and_password(admin_client_, company):
    """ARCHITECTURE §6 admin manages users: the add form takes email and password, and the
    new user can sign in with them"""
    add_url = reverse("admin:accounts_user_add")
    assert admin_client_.get(add_url).status_code == 200

    response = admin_client_.post(
        add_url,
        {
            "email": "New.Hire@Example.com",
            "first_name": "New",
            "last_name": "Hire",
            "usable_password": "true",
            "password1": "a-strong-pass-913",
            "password2": "a-strong-pass-913",
        },
    )

    assert response.status_code == 302, response.content.decode()[:2000]
    user = User.objects.get(email="new.hire@example.com")
    assert user.check_password("a-strong-pass-913")
    assert user.first_name == "New"


def test_admin_add_user_refuses_duplicate_email_any_case(admin_client_, user):
    """§7 sign-up 422 duplicate rule holds in admin too: emails are unique case-insensitively"""
    response = admin_client_.post(
        reverse("admin:accounts_user_add"),
        {
            "email": "ADA@example.com",
            "first_name": "Other",
            "usable_password": "true",
            "password1": "a-strong-pass-913",
            "password2": "a-strong-pass-913",
        },
    )
    assert response.status_code == 200
    assert "already exists" in response.content.decode()
    assert User.objects.filter(email__iexact="ada@example.com").count() == 1


def test_admin_unlock_action(admin_client_, user):
    """ARCHITECTURE §5 lockout: staff can unlock an account from the admin"""
    user.locked_at = timezone.now()
    user.failed_sign_in_count = 10
    user.save()

    response = admin_client_.post(
        reverse("admin:accounts_user_changelist"),
        {"action": "unlock_accounts", "_selected_action": [user.pk]},
    )

    assert response.status_code == 302
    user.refresh_from_db()
    assert user.locked_at is None
    assert user.failed_sign_in_count == 0


def test_company_admin_refuses_a_logo_that_is_not_a_picture(
    admin_client_, company, settings, tmp_path
):
    """Security: a company logo named .png whose content is a web page is refused in the admin
    form with its name, and nothing is stored; a real picture is kept."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    settings.MEDIA_ROOT = tmp_path
    form = {
        "name": company.name,
        "slug": company.slug,
        "join_policy": "open",
        "created_at_0": "2026-01-01",
        "created_at_1": "00:00:00",
    }
    url = reverse("admin:accounts_company_change", args=[company.pk])
    page = SimpleUploadedFile("logo.png", b"<html><script>alert(1)</script></html>")
    refused = admin_client_.post(url, {**form, "logo": page})
    assert refused.status_code == 200
    assert "&#x27;logo.png&#x27; is not a picture." in refused.content.decode()
    assert not (tmp_path / "company-logos").exists()

    picture = SimpleUploadedFile("logo.png", b"\x89PNG\r\n\x1a\n" + b"\x00" * 32)
    assert admin_client_.post(url, {**form, "logo": picture}).status_code == 302
    assert Company.objects.get(pk=company.pk).logo.name.startswith("company-logos/logo")


def test_admin_requires_staff(user):
    """ARCHITECTURE §6: the admin is for admins only"""
    client = Client()
    client.force_login(user)
    response = client.get(reverse("admin:accounts_company_changelist"))
    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]


def test_company_admin_edits_requires_mfa(admin_client_, company):
    """ARCHITECTURE §5 a company can require MFA: set from the admin"""
    response = admin_client_.post(
        reverse("admin:accounts_company_change", args=[company.pk]),
        {
            "name": company.name,
            "slug": company.slug,
            "requires_mfa": "on",
            "join_policy": "open",
            "created_at_0": "2026-01-01",
            "created_at_1": "00:00:00",
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    assert Company.objects.get(pk=company.pk).requires_mfa is True
