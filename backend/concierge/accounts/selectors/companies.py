"""Companies: a user's companies, and which of them show the user their content (a work-email
company only once the address is verified)."""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet

from concierge.accounts.models import Company, User


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
