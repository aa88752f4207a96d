"""`manage.py seed_demo`: demo companies, accounts, request surveys, benefits & offers and
requests.

The data lives in `concierge/demo/data/*.toml` (people, surveys, offerings, desk, requests);
this command turns it into rows. Idempotent: every row is keyed on a natural key (slug, email,
name, position; a request on its employee and name), so running it again changes nothing and
creates no duplicates. The requests (and the colleagues who made most of them) come with
--requests only. The accounts' password comes from DEMO_PASSWORD; the list of accounts printed
at the end shows it only with --show-password.
"""

from __future__ import annotations

import os
from datetime import time
from typing import Any

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.core.management.color import no_style
from django.db import connection, transaction
from django.db.models.fields.files import FieldFile
from django.utils import timezone

from concierge.accounts.models import Company, OnboardingAnswer, User
from concierge.accounts.selectors.concierges import CONCIERGE_GROUP
from concierge.accounts.services.concierges import concierge_group_ensure
from concierge.common.validation import PASSWORD_MAX, PASSWORD_MIN
from concierge.company_reports.models import CompanyAdmin
from concierge.demo.files import logo_svg, simple_pdf
from concierge.demo.loader import (
    colleagues,
    demo_data,
    onboarding_answers,
    question_fields,
    select_options,
)
from concierge.demo.request_history import request_counts, seed_requests
from concierge.offerings.models import Offering, OfferingCategory, Section, SectionItem
from concierge.saved_replies.models import SavedReply
from concierge.service_levels.models import Holiday, ServiceLevel
from concierge.surveys.models import Question, RequestSurvey, SelectOption, SurveyCategory

# --------------------------------------------------------------------------- storage


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
        "Creates the demo companies, accounts, request surveys and benefits & offers, and with "
        "--requests months of requests. Safe to run again. The accounts' password comes from "
        "DEMO_PASSWORD."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--requests",
            action="store_true",
            help="Also the demo requests: months of them, in every state, with their messages, "
            "notes, files and ratings, and the colleagues whose requests fill the company "
            "report. Without it the demo has no request (the browser tests start from that).",
        )
        parser.add_argument(
            "--show-password",
            action="store_true",
            help="Print DEMO_PASSWORD with the list of demo accounts (for a local terminal).",
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
            if options["requests"]:
                self.seed_colleagues(companies)
                seed_requests()
        self.print_summary(password if options["show_password"] else None)

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
        concierges, _, _ = concierge_group_ensure()
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

    def seed_colleagues(self, companies: dict[str, Company]) -> None:
        for colleague in colleagues():
            user, created = User.objects.get_or_create(
                email=colleague.email,
                defaults={
                    "first_name": colleague.first_name,
                    "last_name": colleague.last_name,
                    "onboarded_at": timezone.now(),
                },
            )
            if created:
                user.set_unusable_password()
                user.save(update_fields=["password"])
            user.companies.add(companies[colleague.company])

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
            survey = surveys[demo["survey"]] if "survey" in demo else None
            answer = (
                SelectOption.objects.filter(question__survey=survey, value=demo["answer"])
                .order_by("question__position")
                .first()
                if survey and "answer" in demo
                else None
            )
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
                    "request_survey": survey,
                    "request_survey_cta": demo.get("cta", ""),
                    "request_survey_answer": answer,
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

    def print_summary(self, password: str | None) -> None:
        write = self.stdout.write
        write(self.style.SUCCESS("Demo data is ready."))
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
        counts = request_counts()
        if counts.total:
            write(
                f"Requests: {counts.total} ({counts.queued} in the queue and "
                f"{counts.in_progress} in progress, {counts.overdue} of them overdue; "
                f"{counts.completed} completed, {counts.rated} of them rated)"
            )
        write("")
        shown = password if password is not None else "the value of DEMO_PASSWORD"
        write(f"Demo accounts (password: {shown}):")
        for demo in demo_data("people")["users"]:
            name = f"{demo['first_name']} {demo['last_name']}"
            write(f"  {demo['email']:<24} {name}, {demo['role']}")
        emails = [c.email for c in colleagues()]
        others = User.objects.filter(email__in=emails)
        if others.exists():
            companies = Company.objects.filter(members__in=others).distinct()
            names = ", ".join(sorted(company.name for company in companies))
            write(
                f"  and {others.count()} {names} colleagues ({emails[0]}, …) who cannot sign "
                "in: their requests fill the company report"
            )
