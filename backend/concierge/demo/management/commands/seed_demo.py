"""`manage.py seed_demo`: demo companies, accounts, request surveys and benefits & offers.

The data lives in `concierge/demo/data/*.toml` (people, surveys, offerings); this command
turns it into rows. Idempotent: every row is keyed on a natural key (slug, email, name,
position), so running it again changes nothing and creates no duplicates. The accounts'
password comes from DEMO_PASSWORD.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from datetime import time
from typing import Any

from django.contrib.auth.models import Group, Permission
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.core.management.base import BaseCommand, CommandError
from django.core.management.color import no_style
from django.db import connection, transaction
from django.db.models.fields.files import FieldFile
from django.utils import timezone

from concierge.accounts.models import Company, OnboardingAnswer, User
from concierge.accounts.selectors import CONCIERGE_GROUP
from concierge.common.validation import PASSWORD_MAX, PASSWORD_MIN
from concierge.company_reports.models import CompanyAdmin
from concierge.demo.loader import demo_data, onboarding_answers, question_fields, select_options
from concierge.offerings.models import Offering, OfferingCategory, Section, SectionItem
from concierge.saved_replies.models import SavedReply
from concierge.service_levels.models import Holiday, ServiceLevel
from concierge.surveys.models import Question, RequestSurvey, SelectOption, SurveyCategory

# --------------------------------------------------------------------------- file content


def logo_svg(provider_name: str, color: str) -> bytes:
    words = [w for w in provider_name.replace("&", " ").split() if w[0].isalnum()]
    initials = (words[0][0] + (words[1][0] if len(words) > 1 else "")).upper()
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="160" height="160" viewBox="0 0 160 160" '
        f'role="img" aria-label="{provider_name}">'
        f'<rect width="160" height="160" rx="36" fill="{color}"/>'
        '<circle cx="128" cy="32" r="14" fill="#ffffff" fill-opacity="0.25"/>'
        '<text x="80" y="82" text-anchor="middle" dominant-baseline="middle" '
        'font-family="Inter, Helvetica, Arial, sans-serif" font-size="60" font-weight="700" '
        f'fill="#ffffff">{initials}</text></svg>'
    ).encode()


def _pdf_text(value: str) -> str:
    return value.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def simple_pdf(title: str, lines: Sequence[str]) -> bytes:
    """A one-page PDF (Helvetica, Latin-1) with a title and a few lines."""
    stream = [f"BT /F1 18 Tf 72 720 Td ({_pdf_text(title)}) Tj /F1 12 Tf"]
    for index, line in enumerate(lines):
        stream.append(f"0 {-36 if index == 0 else -20} Td ({_pdf_text(line)}) Tj")
    stream.append("ET")
    content = "\n".join(stream).encode("latin-1", "replace")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
        b"/Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content),
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


def store_file(field_file: FieldFile, path: str, content: bytes) -> bool:
    """Points the field at `path` holding `content`; False when it already did."""
    storage = field_file.storage
    if field_file.name == path and storage.exists(path):
        return False
    if storage.exists(path):
        storage.delete(path)
    field_file.name = storage.save(path, ContentFile(content))
    return True


def stored_url(path: str, content: bytes) -> str:
    """Writes `content` at `path` in default storage (once) and returns its URL."""
    if not default_storage.exists(path):
        default_storage.save(path, ContentFile(content))
    return default_storage.url(path)


# --------------------------------------------------------------------------- the command


class Command(BaseCommand):
    help = (
        "Creates the demo companies, accounts, request surveys and benefits & offers. "
        "Safe to run again. The accounts' password comes from DEMO_PASSWORD."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        password = os.environ.get("DEMO_PASSWORD", "")
        if not password:
            raise CommandError(
                "DEMO_PASSWORD is not set: set it to the password the demo accounts should "
                "have, for example `DEMO_PASSWORD='choose-one' manage.py seed_demo`."
            )
        if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
            raise CommandError(
                f"DEMO_PASSWORD must be {PASSWORD_MIN} to {PASSWORD_MAX} characters long "
                "(the sign-in form refuses anything else)."
            )
        with transaction.atomic():
            companies = self.seed_companies()
            self.seed_users(companies, password)
            surveys = self.seed_surveys()
            self.seed_offerings(companies, surveys)
            self.seed_saved_replies()
        self.print_summary()

    # -- companies and people

    def seed_companies(self) -> dict[str, Company]:
        companies = {}
        for company in demo_data("people")["companies"]:
            companies[company["slug"]], _ = Company.objects.update_or_create(
                slug=company["slug"],
                defaults={
                    "name": company["name"],
                    "requires_mfa": company["requires_mfa"],
                    "join_policy": company.get("join_policy", Company.JoinPolicy.OPEN),
                    "allowed_email_domains": "\n".join(company.get("allowed_email_domains", [])),
                },
            )
            if "service_level" in company:
                self.seed_service_level(companies[company["slug"]], company["service_level"])
        return companies

    def seed_saved_replies(self) -> None:
        for reply in demo_data("desk")["saved_replies"]:
            SavedReply.objects.update_or_create(
                title=reply["title"], defaults={"body": reply["body"]}
            )

    def seed_service_level(self, company: Company, data: dict[str, Any]) -> None:
        level, _ = ServiceLevel.objects.update_or_create(
            company=company,
            defaults={
                "first_response_minutes": data["first_response_minutes"],
                "resolution_minutes": data["resolution_minutes"],
                "time_zone": data["time_zone"],
                "weekdays": data["weekdays"],
                "opens": time.fromisoformat(data["opens"]),
                "closes": time.fromisoformat(data["closes"]),
            },
        )
        for holiday in data.get("holidays", []):
            Holiday.objects.update_or_create(
                service_level=level, date=holiday["date"], defaults={"name": holiday["name"]}
            )

    def seed_users(self, companies: dict[str, Company], password: str) -> list[User]:
        concierges, _ = Group.objects.get_or_create(name=CONCIERGE_GROUP)
        view_permissions = Permission.objects.filter(
            content_type__app_label__in=["surveys", "offerings"], codename__startswith="view_"
        )
        concierges.permissions.add(*view_permissions)
        groups = {CONCIERGE_GROUP: concierges}
        users = []
        for demo in demo_data("people")["users"]:
            user, created = User.objects.update_or_create(
                email=demo["email"],
                defaults={
                    "first_name": demo["first_name"],
                    "last_name": demo["last_name"],
                    "is_staff": demo.get("is_staff", False),
                    "is_superuser": demo.get("is_superuser", False),
                    "is_active": True,
                },
            )
            changed = []
            if not user.check_password(password):
                user.set_password(password)
                changed.append("password")
            if demo.get("onboarded", True) and user.onboarded_at is None:
                user.onboarded_at = timezone.now()
                changed.append("onboarded_at")
            if changed:
                user.save(update_fields=changed)
            user.companies.add(*(companies[slug] for slug in demo["companies"]))
            user.groups.add(*(groups[name] for name in demo.get("groups", [])))
            for slug in demo.get("company_admin_of", []):
                CompanyAdmin.objects.get_or_create(user=user, company=companies[slug])
            for answer_id, value in onboarding_answers(demo).items():
                OnboardingAnswer.objects.get_or_create(
                    user=user, answer_id=answer_id, defaults={"value": value}
                )
            users.append(user)
        return users

    # -- surveys

    def seed_surveys(self) -> dict[str, RequestSurvey]:
        data = demo_data("surveys")
        categories = {}
        for position, category in enumerate(data["categories"], start=1):
            categories[category["key"]], _ = SurveyCategory.objects.update_or_create(
                name=category["name"],
                defaults={
                    "icon": category["icon"],
                    "position": position,
                    "recommended": category["recommended"],
                },
            )
        surveys = {}
        positions: dict[str, int] = {}
        for demo in data["surveys"]:
            positions[demo["category"]] = positions.get(demo["category"], 0) + 1
            fields = {
                "name": demo["name"],
                "for_alpha": demo["for_alpha"],
                "category": categories[demo["category"]],
                "description": demo["description"],
                "position": positions[demo["category"]],
            }
            survey, _ = RequestSurvey.objects.update_or_create(
                slug=demo["slug"], defaults=fields, create_defaults={"id": demo["id"], **fields}
            )
            self.seed_questions(survey, demo["questions"])
            surveys[demo["slug"]] = survey
        # Explicit ids do not move PostgreSQL's sequence: move it past them.
        with connection.cursor() as cursor:
            for sql in connection.ops.sequence_reset_sql(no_style(), [RequestSurvey]):
                cursor.execute(sql)
        return surveys

    def seed_questions(self, survey: RequestSurvey, questions: list[dict[str, Any]]) -> None:
        created: list[Question] = []
        for position, spec in enumerate(questions, start=1):
            show_if = spec.get("show_if")
            question, _ = Question.objects.update_or_create(
                survey=survey,
                position=position,
                defaults={
                    **question_fields(spec),
                    "show_if_question": created[show_if["question"] - 1] if show_if else None,
                    "show_if_value": show_if["value"] if show_if else "",
                },
            )
            for option_position, (label, value) in enumerate(select_options(spec), start=1):
                SelectOption.objects.update_or_create(
                    question=question,
                    value=value,
                    defaults={"label": label, "position": option_position},
                )
            created.append(question)

    # -- offerings

    def seed_offerings(
        self, companies: dict[str, Company], surveys: dict[str, RequestSurvey]
    ) -> None:
        data = demo_data("offerings")
        categories = {}
        for position, category in enumerate(data["categories"], start=1):
            categories[category["key"]], _ = OfferingCategory.objects.update_or_create(
                external_id=category["key"],
                defaults={"name": category["name"], "position": position},
            )
        for position, demo in enumerate(data["offerings"], start=1):
            offering, _ = Offering.objects.update_or_create(
                slug=demo["slug"],
                defaults={
                    "type": demo["type"],
                    "provider_name": demo["provider_name"],
                    "provider_logo_url": "",
                    "heading": demo["heading"],
                    "subheading": demo["subheading"],
                    "name": demo["name"],
                    "featured": demo.get("featured", False),
                    "position": position,
                    "request_survey": surveys[demo["survey"]] if "survey" in demo else None,
                    "request_survey_cta": demo.get("cta", ""),
                },
            )
            if store_file(
                offering.provider_logo,
                f"offering-logos/{demo['slug']}.svg",
                logo_svg(demo["provider_name"], demo["color"]),
            ):
                offering.save(update_fields=["provider_logo"])
            offering.categories.set([categories[key] for key in demo["categories"]])
            offering.companies.set([companies[slug] for slug in demo.get("companies", [])])
            for section_position, section_data in enumerate(demo["sections"], start=1):
                self.seed_section(offering, section_position, section_data)

    def seed_section(self, offering: Offering, position: int, data: dict[str, Any]) -> None:
        section, _ = Section.objects.update_or_create(
            offering=offering,
            position=position,
            defaults={
                "section_type": data["type"],
                "heading": data["heading"],
                "cta_url": data.get("cta_url", ""),
                "cta_text": data.get("cta_text", ""),
            },
        )
        for item_position, item in enumerate(data["items"], start=1):
            url = item.get("url", "")
            if "pdf" in item:
                pdf = item["pdf"]
                url = stored_url(
                    f"offering-documents/{pdf['name']}", simple_pdf(pdf["title"], pdf["lines"])
                )
            SectionItem.objects.update_or_create(
                section=section,
                position=item_position,
                defaults={"key": item.get("key", ""), "value": item["value"], "external_url": url},
            )

    # -- summary

    def print_summary(self) -> None:
        write = self.stdout.write
        write(self.style.SUCCESS("Demo data is ready."))
        write("")
        write("Demo accounts (password: DEMO_PASSWORD):")
        for demo in demo_data("people")["users"]:
            name = f"{demo['first_name']} {demo['last_name']}"
            write(f"  {demo['email']:<24} {name}, {demo['role']}")
        write("")
        write(
            f"Companies: {Company.objects.count()} (sign-up links: /sign-up/acme, /sign-up/globex, "
            "/sign-up/initech with an @initech.example email)"
        )
        write(
            f"Survey categories: {SurveyCategory.objects.count()}, "
            f"request surveys: {RequestSurvey.objects.count()}, "
            f"questions: {Question.objects.count()}"
        )
        benefits = Offering.objects.filter(type=Offering.Type.BENEFIT).count()
        products = Offering.objects.filter(type=Offering.Type.PRODUCT).count()
        write(
            f"Offering categories: {OfferingCategory.objects.count()}, "
            f"offerings: {benefits} benefits and {products} partner offers"
        )
