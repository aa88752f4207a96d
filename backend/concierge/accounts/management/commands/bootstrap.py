"""`manage.py bootstrap`: what a new installation needs before anyone can use it: the first
company (employees sign up at /sign-up/<slug>), the Concierges group (the desk) and the first
administrator (a superuser for Django admin).

The administrator gets a link to set their password (single use, PASSWORD_RESET_TTL_SECONDS),
or, with --password-stdin, the password read from standard input, which must pass Django's
password validators, be 12 characters or more and not be the demo accounts' password. Either
way their first sign-in to Django admin adds an authenticator app: the admin asks every staff
member for a second factor (accounts/admin_site.py).

Safe to run again: what exists is left as it is (a company's name, the admin's password) and
the command says so; it ends with "Nothing changed." when it changed nothing.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from django.conf import settings
from django.contrib.auth.password_validation import (
    MinimumLengthValidator,
    get_default_password_validators,
    validate_password,
)
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.core.validators import validate_email, validate_slug
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from concierge.accounts.models import Company, User
from concierge.accounts.selectors.concierges import CONCIERGE_GROUP
from concierge.accounts.services.concierges import concierge_group_ensure
from concierge.accounts.services.password_reset import password_set_link_create
from concierge.common.validation import PASSWORD_MAX

ADMIN_PASSWORD_MIN = 12


def demo_passwords() -> set[str]:
    """The demo accounts' password wherever this installation knows it: DEMO_PASSWORD, and
    var/demo_password (written by `make run`)."""
    known = {os.environ.get("DEMO_PASSWORD", "")}
    demo_file = settings.VAR_DIR / "demo_password"
    if demo_file.is_file():
        known.add(demo_file.read_text().strip())
    return {password for password in known if password}


def admin_password_problems(password: str, user: User) -> list[str]:
    """Why `password` cannot be the administrator's (none: it can)."""
    if password in demo_passwords():
        return [
            "This is the demo accounts' password (DEMO_PASSWORD or var/demo_password): "
            "choose another one."
        ]
    if len(password) > PASSWORD_MAX:
        return [f"This password is too long: at most {PASSWORD_MAX} characters."]
    validators = [
        *get_default_password_validators(),
        MinimumLengthValidator(min_length=ADMIN_PASSWORD_MIN),
    ]
    try:
        validate_password(password, user=user, password_validators=validators)
    except ValidationError as exc:
        return list(dict.fromkeys(exc.messages))
    return []


class Command(BaseCommand):
    help = (
        "Creates the first company, the Concierges group and the first administrator of a new "
        "installation (after migrate). Prints a link to set the administrator's password, or "
        "takes it from standard input with --password-stdin. Safe to run again: what exists "
        "is left as it is."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--company-name", required=True, help="e.g. 'Acme Corp'")
        parser.add_argument(
            "--company-slug", required=True, help="the sign-up link's name: /sign-up/<slug>"
        )
        parser.add_argument(
            "--join-policy",
            choices=[choice.value for choice in Company.JoinPolicy],
            default=Company.JoinPolicy.OPEN.value,
            help="who may sign up at /sign-up/<slug> (default: open, anyone with the link)",
        )
        parser.add_argument(
            "--email-domains",
            default="",
            help="with --join-policy email_domain: the allowed domains, comma-separated",
        )
        parser.add_argument(
            "--requires-mfa",
            action="store_true",
            help="the company's employees must enrol a phone for text-message codes",
        )
        parser.add_argument("--admin-email", required=True)
        parser.add_argument("--admin-first-name", default="Admin")
        parser.add_argument("--admin-last-name", default="")
        parser.add_argument(
            "--password-stdin",
            action="store_true",
            help="read the administrator's password from standard input (its first line) "
            "instead of printing a link to set it",
        )
        parser.add_argument(
            "--new-link",
            action="store_true",
            help="the administrator exists already: print a new link to set their password "
            "(the earlier ones stop working once it is used)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        _migrations_applied_check()
        slug = options["company_slug"].strip()
        email = options["admin_email"].strip().lower()
        domains = [d.strip().lstrip("@").lower() for d in options["email_domains"].split(",")]
        domains = [d for d in domains if d]
        try:
            validate_slug(slug)
            validate_email(email)
        except ValidationError as exc:
            raise CommandError(exc.messages[0]) from exc
        if options["join_policy"] == Company.JoinPolicy.EMAIL_DOMAIN and not domains:
            raise CommandError("--join-policy email_domain needs --email-domains")
        if options["password_stdin"] and options["new_link"]:
            raise CommandError("Give --password-stdin or --new-link, not both")

        admin = User.objects.filter(email__iexact=email).first()
        candidate = admin or User(
            email=email,
            first_name=options["admin_first_name"],
            last_name=options["admin_last_name"],
        )
        password = None
        if options["password_stdin"]:
            password = sys.stdin.readline().rstrip("\r\n")
            if problems := admin_password_problems(password, candidate):
                raise CommandError("The administrator's password is refused: " + " ".join(problems))
        if options["new_link"] and admin is None:
            raise CommandError(f"There is no account {email} yet: run without --new-link")

        with transaction.atomic():
            changed = self._company(
                slug=slug,
                name=options["company_name"].strip(),
                join_policy=options["join_policy"],
                domains=domains,
                requires_mfa=options["requires_mfa"],
            )
            changed |= self._concierge_group()
            created = admin is None
            if admin is None:
                admin = self._admin_create(
                    email=email,
                    first_name=options["admin_first_name"].strip() or "Admin",
                    last_name=options["admin_last_name"].strip(),
                    password=password,
                )
            else:
                self._admin_existing(admin, password_given=password is not None)
            link = None
            if options["new_link"] or (created and password is None):
                link = password_set_link_create(user=admin)
        if link:
            hours = settings.PASSWORD_RESET_TTL_SECONDS // 3600
            self.stdout.write(
                f"Set the administrator's password with this link, once, within {hours} hours "
                f"(keep it secret until then):\n\n    {link}\n"
            )
        if created or link:
            self.stdout.write(
                f"Then sign in to Django admin at {settings.PUBLIC_URL}/admin/ as {admin.email}: "
                "the first sign-in adds an authenticator app (the admin asks every staff member "
                "for a second factor)."
            )
        elif not changed:
            self.stdout.write("Nothing changed.")

    # ------------------------------------------------------------------------ each part

    def _company(
        self, *, slug: str, name: str, join_policy: str, domains: list[str], requires_mfa: bool
    ) -> bool:
        company = Company.objects.filter(slug=slug).first()
        if company is not None:
            differs = (
                " (not the name given: rename it in Django admin)" if company.name != name else ""
            )
            self.stdout.write(
                f"The company '{slug}' exists, named {company.name}{differs}: left as it is."
            )
            return False
        company = Company.objects.create(
            slug=slug,
            name=name,
            join_policy=join_policy,
            allowed_email_domains="\n".join(domains),
            requires_mfa=requires_mfa,
        )
        self.stdout.write(
            f"Created the company {company.name}: its employees sign up at "
            f"{settings.PUBLIC_URL}/sign-up/{company.slug} "
            f"({Company.JoinPolicy(join_policy).label})."
        )
        return True

    def _concierge_group(self) -> bool:
        _, created, added = concierge_group_ensure()
        if created:
            self.stdout.write(
                f"Created the group {CONCIERGE_GROUP} (the desk at /concierge), allowed to view "
                "surveys and offerings in Django admin. A concierge is a user with staff status "
                "in this group (Django admin, Users)."
            )
        elif added:
            self.stdout.write(f"Gave the group {CONCIERGE_GROUP} {', '.join(added)}.")
        else:
            self.stdout.write(
                f"The group {CONCIERGE_GROUP} exists with its permissions: left as it is."
            )
        return created or bool(added)

    def _admin_create(
        self, *, email: str, first_name: str, last_name: str, password: str | None
    ) -> User:
        admin = User.objects.create_superuser(
            email=email,
            password=password,  # None: unusable until the link sets one
            first_name=first_name,
            last_name=last_name,
            onboarded_at=timezone.now(),
        )
        how = "with the password given" if password else "without a password yet"
        self.stdout.write(f"Created the administrator {admin.email} (superuser), {how}.")
        return admin

    def _admin_existing(self, admin: User, *, password_given: bool) -> None:
        if not (admin.is_superuser and admin.is_staff and admin.is_active):
            raise CommandError(
                f"The account {admin.email} exists but is not an active superuser: make it one "
                "in Django admin, or choose another --admin-email."
            )
        password = "its password was not changed" if password_given else "its password is kept"
        hint = "" if admin.has_usable_password() else " (none set yet: --new-link prints a link)"
        self.stdout.write(
            f"The administrator {admin.email} exists: left as it is, {password}{hint}."
        )


def _migrations_applied_check() -> None:
    connection = connections[DEFAULT_DB_ALIAS]
    executor = MigrationExecutor(connection)
    if executor.migration_plan(executor.loader.graph.leaf_nodes()):
        raise CommandError("The database is not migrated: run `manage.py migrate` first.")
