"""`python -m bench.search_data --requests N`: a data set for measuring the desk's search on
a database of its own (BENCH_DATABASE_URL, migrated first), with text that reads like a real
desk's: request names, survey answers, messages and internal notes drawn from word lists with
a long tail, so some words are in nearly every message and others in a handful.

Ten messages per request and one internal note per ten requests, created in bulk. The words
the search scenario (bench.search) asks for are in the lists below: `COMMON_WORDS` in most
texts, `RARE_WORDS` (booking references, one per request) in one text each.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from datetime import datetime, timedelta
from typing import Any

USERS_PER_1000_REQUESTS = 10
MESSAGES_PER_REQUEST = 10
NOTE_EVERY = 10
BATCH = 1_000  # requests per round, with their messages and notes
EMAIL_DOMAIN = "search-bench.example.com"
COMPANY_SLUG = "search-bench"

# What employees ask for, and for when: a request's name is "<task> <occasion>".
TASKS = (
    "Find a dog walker", "Book a table for dinner", "Plumber for the kitchen sink",
    "Renew my passport", "Birthday gift for my partner", "Cleaner for the flat",
    "Tickets for the concert", "Car service and MOT", "Electrician for the lights",
    "Babysitter for Saturday", "Flights to Lisbon", "Hotel in Edinburgh", "Florist delivery",
    "Moving company quote", "Gym membership", "Physiotherapist appointment",
    "Tailor for a suit", "Wedding anniversary ideas", "Cat sitter while away",
    "Window cleaning", "Bike repair", "Piano tuner", "Locksmith for the back door",
    "Restaurant for a team lunch", "Spa day voucher", "Dentist appointment",
    "Furniture assembly", "Laptop repair", "Wine tasting", "Photographer for a party",
)  # fmt: skip
OCCASIONS = (
    "this week", "next weekend", "before the holidays", "for the family", "near the office",
    "for my parents", "in the morning", "as soon as possible", "for Friday", "for the summer",
)  # fmt: skip
# Words of the survey answers, messages and notes, most common first (drawn with weights 1/rank).
_WORD_TEXT = (
    "please thanks time book available week morning afternoon price option call confirm "
    "appointment tomorrow friday quote booking evening details address cost deposit arrive "
    "recommend contact visit update payment reservation service delivery schedule earlier "
    "later monday tuesday wednesday thursday saturday sunday today weekend hour minutes "
    "cancel change prefer budget include receipt invoice card email phone number office "
    "home kitchen garden parking building door floor lift key access note reminder "
    "restaurant table menu dinner lunch breakfast vegetarian vegan allergy window terrace "
    "view quiet group people guests partner children parents birthday anniversary gift "
    "flowers card wrapping surprise present voucher ticket concert theatre seats row stage "
    "flight hotel room night check airport transfer taxi train station luggage passport "
    "visa renewal form photo embassy document copy signature plumber leak tap sink pipe "
    "boiler heating radiator electrician socket light switch fuse cleaner cleaning carpet "
    "oven fridge windows laundry ironing dog walker walk lead puppy vet cat sitter feeding "
    "litter bike repair tyre brake chain car garage tyres oil mot insurance moving boxes "
    "van packing storage furniture assembly desk wardrobe shelf bed mattress sofa laptop "
    "screen battery charger keyboard data backup dentist doctor clinic physio massage spa "
    "gym class yoga pilates trainer tailor suit dress alteration shoes repair locksmith "
    "lock spare photographer photos album party venue catering cake balloons music band "
    "wine tasting cellar bottle champagne chocolate hamper picnic beach lake mountain "
    "cottage cabin rental deposit contract agent viewing landlord tenancy paperwork pension "
    "tax accountant lawyer notary translation interpreter tutor lessons piano guitar violin "
    "tuner swimming tennis golf course coach membership subscription renewal discount offer "
    "refund complaint warranty manufacturer model serial engineer technician survey "
    "inspection certificate permit council neighbour noise fence hedge gardener lawn mower "
    "patio paving roof gutter chimney damp mould decorator paint wallpaper ceiling tiles "
    "bathroom shower bath toilet extractor fan boiler service engineer harpsichord"
)
WORDS = _WORD_TEXT.split()
NAMES = ("Ada", "Grace", "Alan", "Edsger", "Barbara", "Donald", "Margaret", "Ken", "Radia")
COMMON_WORDS = ("please", "book", "confirm")
# A booking reference per request ('zq' and the request's number): one text each.
RARE_WORDS = ("zq00042", "zq01234", "zq04567", "zq09876")

_CUMULATIVE = []
_total = 0.0
for _rank in range(len(WORDS)):
    _total += 1 / (_rank + 1)
    _CUMULATIVE.append(_total)


def words(rng: random.Random, count: int) -> str:
    return " ".join(rng.choices(WORDS, cum_weights=_CUMULATIVE, k=count))


def reference(number: int) -> str:
    return f"zq{number:05d}"


def details(rng: random.Random, number: int) -> str:
    return (
        f"What do you need help with? {words(rng, rng.randint(8, 20))}\n"
        f"When? {words(rng, rng.randint(2, 6))}\n"
        f"Anything else? Booking reference {reference(number)}. {words(rng, rng.randint(4, 12))}"
    )


def message_body(rng: random.Random) -> str:
    first = words(rng, rng.randint(10, 35)).capitalize()
    second = words(rng, rng.randint(5, 30))
    return f"<p>{first}.<br>{rng.choice(NAMES)}, {second}?</p>"


def seed(requests_total: int) -> None:
    from django.contrib.auth.hashers import make_password
    from django.contrib.auth.models import Group
    from django.db import connection, transaction
    from django.utils import timezone

    from bench.seed import BENCH_PASSWORD
    from concierge.accounts.models import Company, User
    from concierge.accounts.selectors.concierges import CONCIERGE_GROUP

    rng = random.Random(42)  # noqa: S311 (the same data set every time)
    now = timezone.now()
    start = now - timedelta(days=3 * 365)
    step = (now - start) / requests_total
    with transaction.atomic():
        company = Company.objects.create(slug=COMPANY_SLUG, name="Search Bench Ltd")
        unusable = make_password(None)
        users = User.objects.bulk_create(
            User(
                email=f"employee-{n:05d}@{EMAIL_DOMAIN}",
                first_name=NAMES[n % len(NAMES)],
                last_name=f"Employee {n:05d}",
                password=unusable,
                onboarded_at=now,
            )
            for n in range(max(1, requests_total * USERS_PER_1000_REQUESTS // 1000))
        )
        User.companies.through.objects.bulk_create(
            User.companies.through(user_id=u.pk, company_id=company.pk) for u in users
        )
        concierge = User.objects.create(
            email=f"concierge@{EMAIL_DOMAIN}",
            first_name="Casey",
            last_name="Desk",
            password=make_password(BENCH_PASSWORD),
            is_staff=True,
            onboarded_at=now,
        )
        concierge.groups.add(Group.objects.get_or_create(name=CONCIERGE_GROUP)[0])
    started = time.monotonic()
    for first in range(0, requests_total, BATCH):
        with transaction.atomic():
            _batch(rng, users, concierge, first, min(BATCH, requests_total - first), start, step)
        done = first + BATCH
        if done % 10_000 == 0:
            print(f"{done:,} requests in {time.monotonic() - started:.0f} s", flush=True)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def _batch(
    rng: random.Random,
    users: list[Any],
    concierge: Any,
    first: int,
    count: int,
    start: datetime,
    step: timedelta,
) -> None:
    from concierge.concierge_desk.models import InternalNote
    from concierge.servicerequests.models import Message, ServiceRequest

    requests = []
    for number in range(first, first + count):
        issued_at = start + step * number
        requests.append(
            ServiceRequest(
                user=users[rng.randrange(len(users))],
                name=f"{rng.choice(TASKS)} {rng.choice(OCCASIONS)}",
                status=rng.choice(("open", "in_progress", "closed", "closed", "closed")),
                details=details(rng, number),
                issued_at=issued_at,
                created_at=issued_at,
                last_message_at=issued_at + timedelta(hours=MESSAGES_PER_REQUEST),
            )
        )
    ServiceRequest.objects.bulk_create(requests)
    Message.objects.bulk_create(
        Message(
            request=request,
            author=request.user if k % 2 == 0 else None,
            source=Message.Source.USER if k % 2 == 0 else Message.Source.LIFE_CONCIERGE,
            source_name="" if k % 2 == 0 else "Your concierge",
            body_html=message_body(rng),
            external_created_at=request.issued_at + timedelta(hours=k + 1),
        )
        for request in requests
        for k in range(MESSAGES_PER_REQUEST)
    )
    InternalNote.objects.bulk_create(
        InternalNote(
            request=request,
            author=concierge,
            body=words(rng, rng.randint(5, 25)).capitalize(),
            created_at=request.issued_at + timedelta(hours=1),
        )
        for request in requests[::NOTE_EVERY]
    )


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.search_data", description=__doc__)
    parser.add_argument("--requests", type=int, default=100_000, help="requests (100,000)")
    args = parser.parse_args()
    from bench.environment import database_url

    os.environ["DATABASE_URL"] = database_url()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DEBUG", "true")
    import django

    django.setup()
    from concierge.servicerequests.models import ServiceRequest

    if ServiceRequest.objects.exists():
        print("The database holds requests already: use an empty one.", file=sys.stderr)
        return 1
    seed(args.requests)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
