"""The per-account cap on account emails: each kind is sent to one account at most
`ACCOUNT_EMAILS_PER_HOUR` times an hour, whoever asks and from wherever (the rate limits count
per client, so they cannot stop one address being flooded from many)."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from concierge.accounts.models import AccountEmail, User

WINDOW = timedelta(hours=1)


@transaction.atomic
def account_email_reserve(*, user: User, kind: str) -> AccountEmail | None:
    """Counts one `kind` email to `user` and returns its record, or None when the hour's cap
    is reached (then nothing may be sent). The user's row is locked while counting, so
    concurrent requests are counted one after another."""
    User.objects.select_for_update().only("pk").get(pk=user.pk)
    queued = AccountEmail.objects.filter(user_id=user.pk, kind=kind)
    queued.filter(queued_at__lte=timezone.now() - WINDOW).delete()
    if queued.count() >= settings.ACCOUNT_EMAILS_PER_HOUR:
        return None
    return AccountEmail.objects.create(user_id=user.pk, kind=kind)


def account_email_release(*, reserved: AccountEmail) -> None:
    """Gives back a reserved email that could not be sent, so that trying again does not
    count twice."""
    AccountEmail.objects.filter(pk=reserved.pk).delete()
