"""Every Django admin form of the project, as a superuser sees it: each input has a name a
screen reader reads (axe 'Form elements must have labels'), a date-time field's two inputs
included ("Created at: date", "Created at: time"), and no record's creation or last-change
time can be typed over."""

from __future__ import annotations

from datetime import timedelta
from html.parser import HTMLParser

import pytest
from django.contrib import admin
from django.db import models
from django.test import Client, RequestFactory
from django.urls import resolve, reverse
from django.utils import timezone

from concierge.accounts.models import Company, CompanyInvite, User
from concierge.common.admin import LabelledSplitDateTime, breakable

pytestmark = pytest.mark.django_db

NOT_TYPED = {"hidden", "submit", "button", "image", "reset"}
STAMPS = {"created_at", "updated_at", "date_joined"}


class _Inputs(HTMLParser):
    """The form's inputs in the page's main content, and the ids its labels point at."""

    def __init__(self) -> None:
        super().__init__()
        self.inputs: list[dict[str, str]] = []
        self.label_for: set[str] = set()
        self.in_label = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {name: value or "" for name, value in attrs}
        if tag == "label":
            self.in_label += 1
            if found.get("for"):
                self.label_for.add(found["for"])
        elif (
            tag in ("input", "select", "textarea")
            and found.get("type") not in NOT_TYPED
            and "__prefix__" not in found.get("name", "")
        ):
            self.inputs.append({**found, "_in_label": str(bool(self.in_label))})

    def handle_endtag(self, tag: str) -> None:
        if tag == "label":
            self.in_label = max(0, self.in_label - 1)


def _unnamed(html: str) -> list[str]:
    parser = _Inputs()
    parser.feed(html)
    return [
        found.get("name") or found.get("id") or "?"
        for found in parser.inputs
        if not (
            found.get("aria-label")
            or found.get("aria-labelledby")
            or found["_in_label"] == "True"
            or (found.get("id") and found["id"] in parser.label_for)
        )
    ]


@pytest.fixture
def root_client(hr, company) -> Client:
    """A superuser, and one record of the models the QA found unlabelled inputs on."""
    CompanyInvite.objects.create(
        company=company, label="Team", expires_at=timezone.now() + timedelta(days=3)
    )
    root = User.objects.create_superuser(
        email="root@example.com", password="x-Sturdy-9", first_name="R"
    )
    client = Client()
    client.force_login(root)
    return client


def _admin_pages():
    for model, model_admin in admin.site._registry.items():
        opts = model._meta
        yield f"{opts.app_label}.{opts.model_name}", model, model_admin


def _admin_request(user: User):
    request = RequestFactory().get("/admin/")
    request.user = user
    request.resolver_match = resolve("/admin/")
    return request


def test_every_admin_form_names_each_input(root_client):
    """QA item 3: the add form of every registered ModelAdmin that has one, and the change
    form of every model with a record, have no input without a label or aria-label."""
    checked, unnamed = [], {}
    for key, model, _ in _admin_pages():
        opts = model._meta
        pages = [reverse(f"admin:{opts.app_label}_{opts.model_name}_add")]
        if (obj := model._default_manager.order_by("pk").first()) is not None:
            pages.append(reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[obj.pk]))
        for url in pages:
            response = root_client.get(url)
            if response.status_code == 403:  # no add permission: no add form
                continue
            assert response.status_code == 200, (url, response.status_code)
            checked.append(url)
            if missing := _unnamed(response.content.decode()):
                unnamed[url] = missing
    assert unnamed == {}
    # The pages the QA named are among those checked.
    for name in ("company", "companyinvite", "user"):
        assert any(f"/admin/accounts/{name}/" in url and "change" in url for url in checked)
    assert any("/admin/company_reports/companyadmin/" in url for url in checked)


def test_a_date_time_field_names_its_date_and_its_time(root_client, user):
    """QA item 3: the split inputs say which field and which half they are."""
    response = root_client.get(reverse("admin:accounts_user_change", args=[user.pk]))
    html = response.content.decode()
    for name, label in (
        ("onboarded_at", "Onboarded at"),
        ("email_verified_at", "Email verified at"),
        ("locked_at", "Locked at"),
    ):
        assert f'aria-label="{label}: date"' in html and f'name="{name}_0"' in html
        assert f'aria-label="{label}: time"' in html and f'name="{name}_1"' in html
    invite = root_client.get(reverse("admin:accounts_companyinvite_add")).content.decode()
    assert 'aria-label="Expires at: date"' in invite and 'aria-label="Revoked at: time"' in invite


def test_every_model_date_time_field_of_the_admin_uses_the_labelled_inputs():
    """QA item 3, in one place: every registered ModelAdmin that can add or change records
    (ours, and Django's own) gives a model's date-time field the labelled split inputs."""
    request = _admin_request(User(is_superuser=True, is_staff=True, is_active=True))
    for key, model, model_admin in _admin_pages():
        if not (
            model_admin.has_add_permission(request) or model_admin.has_change_permission(request)
        ):
            continue  # read-only throughout (a package's task results): no input at all
        for field in model._meta.get_fields():
            if isinstance(field, models.DateTimeField) and field.editable:
                formfield = model_admin.formfield_for_dbfield(field, request=request)
                assert isinstance(formfield.widget, LabelledSplitDateTime), (key, field.name)


def test_no_admin_form_edits_a_creation_or_change_time(root_client, company):
    """QA item 4: a record's created/updated time (and a user's joining date) is shown
    read-only, never an input, on every admin form; a posted value is ignored."""
    request = _admin_request(User.objects.get(email="root@example.com"))
    for key, model, model_admin in _admin_pages():
        obj = model._default_manager.order_by("pk").first()
        for target in {None, obj}:
            form = model_admin.get_form(request, target, change=target is not None)
            assert not STAMPS & set(form.base_fields), key

    created = company.created_at
    response = root_client.post(
        reverse("admin:accounts_company_change", args=[company.pk]),
        {
            "name": company.name,
            "slug": company.slug,
            "join_policy": "open",
            "created_at_0": "2001-01-01",
            "created_at_1": "00:00:00",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Company.objects.get(pk=company.pk).created_at == created
    page = root_client.get(reverse("admin:accounts_company_change", args=[company.pk]))
    assert 'name="created_at_0"' not in page.content.decode()


def test_breakable_escapes_and_allows_breaks():
    assert breakable("a<b@example.com") == "a&lt;b<wbr>@example.com"
    assert breakable("2001:db8::1", ":", before=False) == "2001:<wbr>db8:<wbr>:<wbr>1"
