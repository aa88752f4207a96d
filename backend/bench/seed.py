"""The bench data set: 100 employees × 100 requests × 10 messages, created once; `BENCH_SCALE`
(the bench's `--scale`) multiplies the employees (10: 100,000 requests, 1,000,000 messages).
Every request has a reply-time clock (Bench Corp has a promise): running while queued, paused
while in progress, stopped once completed.

Runs inside Django (after `django.setup()`). Seeding is idempotent: when the database already
holds exactly this data set it is kept; otherwise the request tables are emptied and refilled in
one transaction, so a failed seed never leaves half a data set behind.

The SSE scenario's concierge (`concierge-000@bench.example.com`, in the Concierges group)
replies to the bench employee's In Progress requests; in the soak the employee writes to their
queued ones too (with an Idempotency-Key starting `bench-soak-`). In the mixed scenario a
hundred employees write MIXED_MESSAGE to their queued requests and the concierge replies to
their In Progress ones.
`replies_remove()` takes those messages out again (after the run, and before seeding in case a
run was interrupted), so the data set stays exactly as seeded.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import Group
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from bench.mixed import MIXED_MESSAGE
from bench.soak import SOAK_KEY_PREFIX
from concierge.accounts.models import Company, User
from concierge.accounts.selectors.concierges import CONCIERGE_GROUP
from concierge.accounts.services.tokens import auth_token_create
from concierge.service_levels.models import RequestClock, ServiceLevel
from concierge.servicerequests.models import Message, MessageAttachment, ServiceRequest
from concierge.surveys.models import SurveyCategory

SCALE = int(os.environ.get("BENCH_SCALE", "1"))
USERS = 100 * SCALE
REQUESTS_PER_USER = 100
MESSAGES_PER_REQUEST = 10
# Each employee's requests: 20 queued, 10 being worked, the rest completed.
OPEN_PER_USER = 20
IN_PROGRESS_PER_USER = 10

EMAIL_DOMAIN = "bench.example.com"
BENCH_EMAIL = f"employee-000@{EMAIL_DOMAIN}"
CONCIERGE_EMAIL = f"concierge-000@{EMAIL_DOMAIN}"
BENCH_PASSWORD = "bench-only-password-0"  # a throwaway local database, never a real account
COMPANY_SLUG = "bench-corp"
REQUEST_BATCH = 1_000  # requests per bulk_create round, with their 10,000 messages
# Messages per INSERT: 10,000 at once would bind more parameters than PostgreSQL takes (65,535).
MESSAGE_BATCH = 2_000
# The mixed scenario: sessions of the first employees.
MIXED_EMPLOYEES = 100
MIXED_SESSIONS_PER_EMPLOYEE = 3

DETAILS = (
    "Category: Home\nWhat do you need help with? Find a plumber for a leaking kitchen tap\n"
    "When? This week, mornings preferred\nBudget: Up to $200\n"
    "Best phone number: (555) 010-2030\nAnything else? The building needs 24 h notice."
)
BODY = (
    "<p>Thanks for the update! I called two plumbers near you; the first can come on "
    "Thursday between 9 and 11 am for a $90 call-out fee. Shall I book it?<br>"
    'Details: <a href="https://example.com/quote" rel="nofollow noopener">quote</a></p>'
)


@dataclass(frozen=True)
class Targets:
    """What the scenarios ask for: the bench employee's credentials and request ids, and
    the concierge who replies to `reply_request_ids` (the employee's In Progress requests,
    so replies change no status) in the SSE scenario and the soak, with the same password;
    the employee writes to `message_request_ids` (the queued ones) in the soak."""

    email: str
    password: str
    request_ids: list[int]
    open_count: int
    messages_per_request: int
    concierge_email: str
    reply_request_ids: list[int]
    message_request_ids: list[int]


def seed() -> Targets:
    replies_remove()  # left behind by an interrupted SSE run: they would force a reseed
    requests = USERS * REQUESTS_PER_USER
    expected = (requests, requests * MESSAGES_PER_REQUEST, requests)
    present = (
        ServiceRequest.objects.count(),
        Message.objects.count(),
        RequestClock.objects.count(),
    )
    in_the_future = Message.objects.filter(external_created_at__gt=timezone.now())
    if (
        present == expected
        and User.objects.filter(email=BENCH_EMAIL).exists()
        and not in_the_future.exists()
    ):
        print(f"Data set present: {present[0]:,} requests, {present[1]:,} messages.")
    else:
        foreign = User.objects.exclude(email__endswith=f"@{EMAIL_DOMAIN}")
        if foreign.exists():
            raise SystemExit(
                "The bench database holds users that the bench did not create: point "
                "BENCH_DATABASE_URL at a database of its own."
            )
        started = time.monotonic()
        with transaction.atomic():
            _seed()
        print(
            f"Seeded {expected[0]:,} requests and {expected[1]:,} messages "
            f"in {time.monotonic() - started:.1f} s."
        )
    with connection.cursor() as cursor:
        # Planner statistics and visibility maps as autovacuum keeps them: a fresh seed and
        # some migrations rewrite every row.
        cursor.execute("VACUUM ANALYZE" if connection.vendor == "postgresql" else "ANALYZE")
    user = User.objects.get(email=BENCH_EMAIL)
    ids = list(ServiceRequest.objects.filter(user=user).order_by("id").values_list("id", flat=True))
    return Targets(
        email=BENCH_EMAIL,
        password=BENCH_PASSWORD,
        request_ids=ids,
        open_count=OPEN_PER_USER,
        messages_per_request=MESSAGES_PER_REQUEST,
        concierge_email=_concierge_ensure().email,
        reply_request_ids=[r.pk for r in _reply_requests(user)],
        message_request_ids=list(
            ServiceRequest.objects.filter(user=user, status=ServiceRequest.Status.OPEN)
            .order_by("id")
            .values_list("id", flat=True)
        ),
    )


def employee_sessions() -> list[dict[str, object]]:
    """The mixed scenario's sessions: MIXED_SESSIONS_PER_EMPLOYEE signed-in sessions of each
    of the first MIXED_EMPLOYEES employees (revoked by the cleanup), each with its employee's
    request ids by status."""
    employees = User.objects.filter(email__startswith="employee-", email__endswith=EMAIL_DOMAIN)
    sessions: list[dict[str, object]] = []
    for user in employees.order_by("email")[:MIXED_EMPLOYEES]:
        ids: dict[str, list[int]] = {status: [] for status in ServiceRequest.Status.values}
        for pk, status in user.service_requests.order_by("-issued_at").values_list("id", "status"):
            ids[status].append(pk)
        for _ in range(MIXED_SESSIONS_PER_EMPLOYEE):
            token, _auth_token = auth_token_create(user)
            sessions.append({"token": token, "requests": ids})
    return sessions


def _concierge_ensure() -> User:
    """The bench concierge: created once (a reseed deletes it with the other bench users)."""
    concierge = User.objects.filter(email=CONCIERGE_EMAIL).first()
    if concierge is None:
        concierge = User.objects.create(
            email=CONCIERGE_EMAIL,
            first_name="Casey",
            last_name="Bench",
            password=make_password(BENCH_PASSWORD),
            is_staff=True,
            onboarded_at=timezone.now(),
        )
    group, _ = Group.objects.get_or_create(name=CONCIERGE_GROUP)
    concierge.groups.add(group)
    return concierge


def _reply_requests(user: User) -> list[ServiceRequest]:
    """The employee's In Progress requests: a reply leaves their status as it is."""
    return list(
        ServiceRequest.objects.filter(user=user, status=ServiceRequest.Status.IN_PROGRESS).order_by(
            "id"
        )
    )


def replies_remove() -> int:
    """Delete the bench concierge's replies with their queued email tasks and the soak's and
    the mixed scenario's employee messages, and put their requests back as seeded (unassigned; last message 10 h
    after issue). The number deleted."""
    replies = Message.objects.filter(
        Q(author__email=CONCIERGE_EMAIL)
        | Q(idempotency_key__startswith=SOAK_KEY_PREFIX)
        | Q(body_html=MIXED_MESSAGE)
    )
    message_ids = list(replies.values_list("id", flat=True))
    if not message_ids:
        return 0
    request_ids = set(replies.values_list("request_id", flat=True))
    with transaction.atomic():
        DBTaskResult.objects.filter(args_kwargs__kwargs__message_id__in=message_ids).delete()
        Message.objects.filter(id__in=message_ids).delete()
        for request in ServiceRequest.objects.filter(id__in=request_ids):
            request.assignee = None
            request.last_message_at = request.issued_at + timedelta(hours=MESSAGES_PER_REQUEST)
            request.save(update_fields=["assignee", "last_message_at"])
    return len(message_ids)


def _status(index: int) -> str:
    if index < OPEN_PER_USER:
        return ServiceRequest.Status.OPEN
    if index < OPEN_PER_USER + IN_PROGRESS_PER_USER:
        return ServiceRequest.Status.IN_PROGRESS
    return ServiceRequest.Status.CLOSED


def _seed() -> None:
    tables = [m._meta.db_table for m in (MessageAttachment, Message, RequestClock, ServiceRequest)]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(f"TRUNCATE {', '.join(tables)} CASCADE")  # noqa: S608 (model tables)
        else:  # SQLite (the embedded default): no TRUNCATE
            for table in tables:
                cursor.execute(f"DELETE FROM {table}")  # noqa: S608 (model tables)
    User.objects.filter(email__endswith=f"@{EMAIL_DOMAIN}").delete()
    Company.objects.filter(slug=COMPANY_SLUG).delete()
    SurveyCategory.objects.filter(name__startswith="Bench ").delete()

    now = timezone.now()
    company = Company.objects.create(slug=COMPANY_SLUG, name="Bench Corp")
    promise = ServiceLevel.objects.create(company=company, weekdays="0,1,2,3,4,5,6")
    categories = SurveyCategory.objects.bulk_create(
        SurveyCategory(name=f"Bench {label}", icon=value, position=i)
        for i, (value, label) in enumerate(SurveyCategory.Icon.choices)
    )
    unusable = make_password(None)
    users = User.objects.bulk_create(
        User(
            email=f"employee-{n:03d}@{EMAIL_DOMAIN}",
            first_name="Employee",
            last_name=f"{n:03d}",
            password=make_password(BENCH_PASSWORD) if n == 0 else unusable,
            request_count=REQUESTS_PER_USER,
            onboarded_at=now,
        )
        for n in range(USERS)
    )
    User.companies.through.objects.bulk_create(
        User.companies.through(user_id=user.pk, company_id=company.pk) for user in users
    )

    rows = [(user, index) for user in users for index in range(REQUESTS_PER_USER)]
    for start in range(0, len(rows), REQUEST_BATCH):
        requests = []
        for user, index in rows[start : start + REQUEST_BATCH]:
            # Every message in the past, and seen: opening an old thread is a read.
            issued_at = now - timedelta(
                days=index, hours=MESSAGES_PER_REQUEST + 1, minutes=user.pk % 60
            )
            last_message_at = issued_at + timedelta(hours=MESSAGES_PER_REQUEST)
            requests.append(
                ServiceRequest(
                    user=user,
                    name=f"Request {index} of {user.last_name}",
                    status=_status(index),
                    details=DETAILS,
                    survey_category=categories[index % len(categories)] if index % 5 else None,
                    issued_at=issued_at,
                    created_at=issued_at,
                    last_message_at=last_message_at,
                    seen_by_employee_at=last_message_at,
                )
            )
        ServiceRequest.objects.bulk_create(requests)
        Message.objects.bulk_create(
            (
                Message(
                    request=request,
                    author=request.user if k % 2 == 0 else None,
                    source=Message.Source.USER if k % 2 == 0 else Message.Source.LIFE_CONCIERGE,
                    source_name=request.user.full_name if k % 2 == 0 else "Your concierge",
                    body_html=BODY,
                    external_created_at=request.issued_at + timedelta(hours=k + 1),
                )
                for request in requests
                for k in range(MESSAGES_PER_REQUEST)
            ),
            batch_size=MESSAGE_BATCH,
        )
        RequestClock.objects.bulk_create(_clock(request, promise, now) for request in requests)


def _clock(request: ServiceRequest, promise: ServiceLevel, now: datetime) -> RequestClock:
    """Queued: running, due between 12 h ago and 36 h from now (overdue, due soon and later
    ones mixed); in progress: paused (the concierge wrote last); completed: stopped."""
    first_due = request.issued_at + timedelta(minutes=promise.first_response_minutes)
    clock = RequestClock(
        request=request,
        service_level=promise,
        first_response_due_at=first_due,
        first_responded_at=request.issued_at + timedelta(hours=2),
        resolution_minutes=promise.resolution_minutes,
        used_seconds=3600,
    )
    if request.status == ServiceRequest.Status.OPEN:
        clock.running_since = request.last_message_at
        clock.due_at = now + timedelta(minutes=(request.pk * 7919) % (48 * 60) - 12 * 60)
        clock.resolution_due_at = clock.due_at
    elif request.status == ServiceRequest.Status.CLOSED:
        clock.completed_at = request.last_message_at
    return clock
