"""Companies: the company a sign-up link names, a user's companies, and which of them show the
user their content (a work-email company only once the address is verified)."""

from __future__ import annotations

import re

from django.db.models import Prefetch, QuerySet

from concierge.accounts.models import Company, User
from concierge.common.errors import NotFound

UNKNOWN_COMPANY = "We couldn't find that company. Please check the sign-up link from your employer."
# A company's slug as models.SlugField stores it: ASCII letters, digits, '-' and '_', at most 50.
_SLUG = re.compile(r"[-a-z0-9_]{1,50}")


def company_by_sign_up_slug(*, slug: str) -> Company | None:
    """The company a sign-up link names (its slug in any letter case), or None."""
    slug = slug.strip().lower()
    if not _SLUG.fullmatch(slug):
        return None
    return Company.objects.filter(slug=slug).first()


def company_for_sign_up(*, slug: str) -> Company:
    """The company of a sign-up link, or NotFound with the message sign-up gives for it."""
    company = company_by_sign_up_slug(slug=slug)
    if company is None:
        raise NotFound(UNKNOWN_COMPANY)
    return company


def companies_prefetch(*, path: str) -> Prefetch:
    """Prefetches the companies at `path` (e.g. "user__companies") by name."""
    return Prefetch(path, queryset=Company.objects.order_by("name"))


def user_email_verification_pending(*, user: User) -> bool:
    """Whether some company of `user` hides its content until the email address is verified."""
    return user.email_verified_at is None and any(
        company.requires_verified_email for company in user.companies.all()
    )


def user_companies_with_content(*, user: User) -> list[Company]:
    """`user`'s companies whose content (benefits, targeted offers, the sponsoring block) they
    may see: a work-email company only once the address is verified."""
    return [
        company
        for company in user.companies.all()
        if user.email_verified_at is not None or not company.requires_verified_email
    ]


def companies_with_content_queryset(*, user: User) -> QuerySet[Company]:
    """The same companies as `user_companies_with_content`, as a query to filter by."""
    companies = Company.objects.filter(members=user)
    if user.email_verified_at is None:
        companies = companies.exclude(join_policy=Company.JoinPolicy.EMAIL_DOMAIN)
    return companies
