"""Shared test fixtures: a JSON API client, user/company factories, the background tasks and
the real outbox.

Every test gets its own empty OUTBOX_DIR and an empty cache (rate-limit counters live there),
so tests can read the emails and SMS the code under test really wrote. Emails and SMS are sent
by background tasks: reading the outbox first runs the tasks that are due, with the real worker.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from typing import Any, cast
from unittest import mock
from urllib.parse import urlencode

import factory
import pytest
from django.contrib.auth.models import Group
from django.core.cache import cache
from django.db import OperationalError, connection, connections, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.test import Client, TransactionTestCase
from django.urls import get_resolver
from django_tasks_db.management.commands import db_worker
from django_tasks_db.models import DBTaskResult
from factory.django import DjangoModelFactory
from freezegun import freeze_time

from concierge.accounts.models import Company, EmployeeRecord, User
from concierge.accounts.services.memberships import membership_join
from concierge.common.cache import breaker
from concierge.company_reports.models import CompanyAdmin
from concierge.notifications.background import _Enqueue, worker_new
from concierge.notifications.outbox import OutboxItem, outbox_list
from concierge.servicerequests import services as request_services
from concierge.servicerequests.models import ServiceRequest

API_PREFIX = "/api/v1/"
DEFAULT_PASSWORD = "correct-horse-battery-42"


# --------------------------------------------------------------------------- factories


class CompanyFactory(DjangoModelFactory):
    class Meta:
        model = Company
        django_get_or_create = ("slug",)

    name = factory.Sequence(lambda n: f"Company {n}")
    slug = factory.Sequence(lambda n: f"company-{n}")
    requires_mfa = False


class UserFactory(DjangoModelFactory):
    """A user with a known password (DEFAULT_PASSWORD unless `password=` is given).

    `companies=[...]` and `groups=["Concierges"]` (names or Group objects) add memberships.
    """

    class Meta:
        model = User
        skip_postgeneration_save = True

    email = factory.Sequence(lambda n: f"user{n}@example.com")
    first_name = "Ada"
    last_name = "Lovelace"

    @classmethod
    def _create(cls, model_class: type[User], *args: Any, **kwargs: Any) -> User:
        password = kwargs.pop("password", DEFAULT_PASSWORD)
        return model_class.objects.create_user(password=password, **kwargs)

    @factory.post_generation
    def companies(self, create: bool, extracted: Iterable[Company] | None, **kwargs: Any) -> None:
        if create and extracted:
            self.companies.add(*extracted)

    @factory.post_generation
    def groups(self, create: bool, extracted: Iterable[Group | str] | None, **kwargs: Any) -> None:
        if create and extracted:
            for group in extracted:
                if isinstance(group, str):
                    group, _ = Group.objects.get_or_create(name=group)
                self.groups.add(group)


# --------------------------------------------------------------------------- API client


class ApiClient:
    """django.test.Client speaking JSON to /api/v1, carrying the session's auth headers.

    `sign_in()` stores the bearer token from the Authorization response header, and
    `mfa_verify()` stores the mfa-token header, the way the SPA does (spec §4).
    """

    def __init__(self, client: Client | None = None) -> None:
        self.client = client or Client()
        self.token: str | None = None
        self.mfa_token: str | None = None

    # -- raw requests
    def headers(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        headers: dict[str, str] = {}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        if self.mfa_token:
            headers["mfa-token"] = self.mfa_token
        headers.update(extra or {})
        return headers

    def request(
        self,
        method: str,
        path: str,
        data: Any = None,
        *,
        raw: str | bytes | None = None,
        query: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ):
        url = path if path.startswith("/") else API_PREFIX + path
        send = getattr(self.client, method.lower())
        kwargs: dict[str, Any] = {"headers": self.headers(headers)}
        if method.upper() == "GET":
            return send(url, data=query or {}, **kwargs)
        if query:
            url = f"{url}?{urlencode(query)}"
        body = raw if raw is not None else (json.dumps(data) if data is not None else "")
        return send(url, data=body, content_type="application/json", **kwargs)

    def get(self, path: str, **kwargs: Any):
        return self.request("GET", path, **kwargs)

    def post(self, path: str, data: Any = None, **kwargs: Any):
        return self.request("POST", path, data, **kwargs)

    def put(self, path: str, data: Any = None, **kwargs: Any):
        return self.request("PUT", path, data, **kwargs)

    def patch(self, path: str, data: Any = None, **kwargs: Any):
        return self.request("PATCH", path, data, **kwargs)

    def delete(self, path: str, data: Any = None, **kwargs: Any):
        return self.request("DELETE", path, data, **kwargs)

    # -- account flows
    def sign_in(self, email: str, password: str = DEFAULT_PASSWORD):
        response = self.post("users/sign_in", {"user": {"email": email, "password": password}})
        if response.status_code == 200:
            scheme, _, token = response["Authorization"].partition(" ")
            assert scheme == "Bearer"
            self.token = token
            self.mfa_token = None
        return response

    def sign_up(self, **fields: Any):
        user = {
            "email": "new.person@example.com",
            "password": DEFAULT_PASSWORD,
            "name": "New",
            "last_name": "Person",
            "terms_of_service": 1,
            "company_slug": "acme",
        }
        user.update(fields)
        return self.post("users/sign_up", {"user": user})

    def mfa_verify(self, otp: str):
        response = self.post("mfa/verify", {"otp": otp})
        if response.status_code == 200:
            self.mfa_token = response["mfa-token"]
        return response

    def sign_out(self):
        return self.delete("users/sign_out")


# --------------------------------------------------------------------------- background tasks


class Tasks:
    """The background tasks of a test, in django-tasks-db's table, run by its real worker."""

    def commit(self) -> None:
        """Enqueue what the code under test asked to enqueue on commit.

        A test runs inside a transaction that never commits, so its on-commit callbacks would
        never run: this runs the enqueueing ones (each enqueues once) as a commit would.
        Callbacks of a rolled-back block were already dropped by Django, as in real life.
        """
        for _, callback, _ in list(connection.run_on_commit):
            if isinstance(callback, _Enqueue):
                callback()

    def results(self, task_path: str | None = None) -> list[DBTaskResult]:
        """The stored tasks, oldest first (only those of `task_path` when given)."""
        self.commit()
        rows = DBTaskResult.objects.order_by("enqueued_at")
        return list(rows.filter(task_path=task_path) if task_path else rows)

    def run(self, at: datetime | None = None) -> int:
        """Run the tasks that are due (at `at`, default now): `manage.py task_worker --batch`.

        The worker's connection housekeeping is skipped: in a test it shares the test's
        connection and transaction.
        """
        self.commit()
        worker = worker_new(batch=True)
        with mock.patch.object(db_worker, "close_old_connections", lambda: None):
            if at is None:
                worker.run()
            else:
                with freeze_time(at):
                    worker.run()
        return worker._run_tasks


@pytest.fixture
def tasks(db) -> Tasks:
    return Tasks()


# --------------------------------------------------------------------------- outbox


class Outbox:
    """Reads the real outbox folder the code under test writes to (newest first), after the
    worker has run the tasks that are due, as a person opening /dev/outbox would see it."""

    def __init__(self, path: Path, tasks: Tasks | None = None) -> None:
        self.path = path
        self.tasks = tasks

    def all(self) -> list[OutboxItem]:
        if self.tasks is not None:
            self.tasks.run()
        return self.written()

    def written(self) -> list[OutboxItem]:
        """What is in the folder now, without running any task."""
        items = outbox_list()
        # File names carry a timestamp, which freezegun can make identical: order by mtime too.
        mtimes = {p.name: p.stat().st_mtime_ns for p in self.path.iterdir()}
        return sorted(items, key=lambda i: (i.created_at, mtimes.get(i.name, 0)), reverse=True)

    def emails(self, to: str | None = None) -> list[OutboxItem]:
        return [i for i in self.all() if i.kind == "email" and (to is None or to in i.to)]

    def sms(self, to: str | None = None) -> list[OutboxItem]:
        return [i for i in self.all() if i.kind == "sms" and (to is None or to in i.to)]

    def link_token(self, route: str, to: str | None = None) -> str:
        """The token of the newest `/{route}/{token}` link emailed (to `to`)."""
        for email in self.emails(to):
            match = re.search(rf"/{route}/([A-Za-z0-9_\-]+)", email.body)
            if match:
                return match.group(1)
        raise AssertionError(f"no email with a /{route}/ link in the outbox")

    def latest_code(self, to: str | None = None) -> str:
        """The 6-digit code of the newest SMS (to `to`)."""
        for sms in self.sms(to):
            match = re.search(r"\b(\d{6})\b", sms.body)
            if match:
                return match.group(1)
        raise AssertionError("no SMS with a verification code in the outbox")


# --------------------------------------------------------------------------- fixtures


def pytest_configure(config: pytest.Config) -> None:
    # whitenoise warns on every request that STATIC_ROOT (filled by collectstatic) is missing.
    config.addinivalue_line("filterwarnings", "ignore:No directory at:UserWarning")
    # The API's schemas are built as the URLconf is first imported: now, not on a test's first
    # request, which may run under freeze_time, where pydantic cannot build a schema of the
    # datetime freezegun puts in place.
    get_resolver().url_patterns  # noqa: B018 (imported for its effect)


# Tests create rows with the spec's fixed ids (survey 616, 720, ...); the ids PostgreSQL hands
# out start far above them. A sequence is not rolled back with a test's transaction, so without
# this an automatic id could reach a fixed one, depending on which tests ran first.
FIRST_AUTOMATIC_ID = 1_000_000


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT setval(format('%%I.%%I', schemaname, sequencename)::regclass, %s, false) "
                    "FROM pg_sequences WHERE schemaname = current_schema()",
                    [FIRST_AUTOMATIC_ID],
                )


# Tables a transactional test never writes: the migrations' own record and what post_migrate
# fills (content types, permissions). Django's flush empties them too and then fills them again.
_STATIC_TABLES = frozenset({"django_migrations", "django_content_type", "auth_permission"})
_django_fixture_teardown = TransactionTestCase._fixture_teardown
_DELETE_AT_MOST = 1000
_ATTEMPTS = 5


def _empty_written_tables(self: TransactionTestCase) -> None:
    """A transactional test's (and every browser test's) cleanup on PostgreSQL
    (`written_tables_empty`); Django's flush elsewhere. Django's flush truncates every table,
    each one's files made anew, and then re-creates every content type and permission: the
    same empty database, at about fifty times the cost per test."""
    for alias in self._databases_names(include_mirrors=False):
        db = connections[alias]
        if db.vendor != "postgresql" or self.reset_sequences or self.serialized_rollback:
            _django_fixture_teardown(self)
            return
        written_tables_empty(db)


def written_tables(db: BaseDatabaseWrapper) -> list[str]:
    """The tables a test may write: all of Django's but the static ones."""
    return sorted(
        set(db.introspection.django_table_names(only_existing=True, include_views=False))
        - _STATIC_TABLES
    )


def written_tables_empty(db: BaseDatabaseWrapper) -> None:
    """Empties the tables that hold rows, found in one query, in one transaction: with DELETE
    (Django's foreign keys are deferred, so the order does not matter), or with TRUNCATE when a
    table holds more than `_DELETE_AT_MOST` rows (the dead rows and index entries a large
    DELETE leaves would change the next test's query plans)."""
    tables = written_tables(db)
    quote = db.ops.quote_name
    probe = " UNION ALL ".join(
        f"SELECT %s, (SELECT count(*) FROM (SELECT 1 FROM {quote(t)} LIMIT %s) AS r)"  # noqa: S608 (Django's own table names)
        for t in tables
    )
    params = [p for t in tables for p in (t, _DELETE_AT_MOST + 1)]
    for attempt in range(_ATTEMPTS):
        try:
            with transaction.atomic(using=db.alias), db.cursor() as cursor:
                # No trigger runs: none would write a row (a read version) into a table
                # already emptied, and the foreign keys' checks are moot.
                cursor.execute("SET LOCAL session_replication_role = replica")
                cursor.execute(probe, params)
                counts = dict(cursor.fetchall())
                large = [quote(t) for t, n in counts.items() if n > _DELETE_AT_MOST]
                if large:
                    cursor.execute(f"TRUNCATE {', '.join(large)} CASCADE")
                for table in (t for t, n in counts.items() if 0 < n <= _DELETE_AT_MOST):
                    cursor.execute(f"DELETE FROM {quote(table)}")  # noqa: S608 (as above)
            return
        except OperationalError:
            # A browser test's server may still be finishing a request that writes rows
            # in another order; PostgreSQL then ends one side of the deadlock. When it is
            # this one, the whole cleanup was rolled back and is simply run again.
            if attempt == _ATTEMPTS - 1:
                raise
            time.sleep(0.2 * (attempt + 1))


TransactionTestCase._fixture_teardown = _empty_written_tables  # type: ignore[method-assign]


@pytest.fixture
def redis_server(settings):
    """A redis-server of the test's own as the cache and the live events' broker, behind the
    circuit breaker as in production (common.cache)."""
    from django.core.cache import caches

    from concierge.common.tests.redis_server import RedisServer

    server = RedisServer()
    settings.REDIS_URL = server.url
    settings.CACHES = {
        "default": {
            "BACKEND": "concierge.common.cache.RedisCache",
            "LOCATION": server.url,
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
    breaker.reset()
    try:
        yield server
    finally:
        server.stop()
        caches["default"].close()
        breaker.reset()
        # Back to the test cache before the suite's own teardown clears it.
        settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}


@pytest.fixture(autouse=True)
def _isolated_outbox_and_cache(settings, tmp_path):
    """Each test writes mail/SMS to its own folder and starts with empty rate-limit counters
    and a closed Redis circuit breaker (a test that reached an unreachable Redis leaves it
    open, which would silently skip the next tests' Redis calls, live events included).

    The test runner swaps in Django's in-memory mail backend; put the real outbox one back so
    tests read the .eml files a person would open at /dev/outbox.
    """
    settings.OUTBOX_DIR = tmp_path / "outbox"
    settings.EMAIL_BACKEND = "concierge.notifications.backends.OutboxEmailBackend"
    cache.clear()
    yield
    cache.clear()
    breaker.reset()


@pytest.fixture
def outbox(settings, tasks) -> Outbox:
    return Outbox(Path(settings.OUTBOX_DIR), tasks)


@pytest.fixture
def api(db) -> ApiClient:
    return ApiClient()


@pytest.fixture
def make_api(db):
    """Another independent client (a second browser or device)."""
    return ApiClient


@pytest.fixture
def company_factory(db):
    return CompanyFactory


@pytest.fixture
def user_factory(db):
    return UserFactory


@pytest.fixture
def company(db) -> Company:
    return cast(Company, CompanyFactory(slug="acme", name="Acme Corp"))


@pytest.fixture
def round_the_clock_promise(company):
    """The company's reply-time promise on a calendar open every minute of every day (4 hours
    to the first reply, 16 to completion), so any test's clock runs whenever it is started."""
    from datetime import time

    from concierge.service_levels.models import ServiceLevel

    return ServiceLevel.objects.create(
        company=company,
        first_response_minutes=4 * 60,
        resolution_minutes=16 * 60,
        weekdays="0,1,2,3,4,5,6",
        opens=time(0),
        closes=time(23, 59),
    )


@pytest.fixture
def user(company) -> User:
    return cast(
        User,
        UserFactory(
            email="ada@example.com", first_name="Ada", last_name="Lovelace", companies=[company]
        ),
    )


@pytest.fixture
def hr(user_factory, company) -> User:
    """Acme's company admin (HR): a member of Acme who sees its report, members and settings."""
    admin = user_factory(email="hr@example.com", first_name="Harper", last_name="Reed")
    membership_join(user=admin, company=company, source=EmployeeRecord.Source.SIGN_UP)
    CompanyAdmin.objects.create(user=admin, company=company)
    return cast(User, admin)


@pytest.fixture
def hr_api(make_api, hr) -> ApiClient:
    """An API client signed in as `hr`."""
    api = make_api()
    assert api.sign_in(hr.email).status_code == 200
    return cast(ApiClient, api)


@pytest.fixture
def signed_in_api(api, user) -> ApiClient:
    """An API client signed in as `user` (no MFA), its session already remembered by the
    server (accounts.session_cache), so query counts measure the endpoint alone."""
    response = api.sign_in(user.email)
    assert response.status_code == 200, response.content
    assert api.get("users/current").status_code == 200
    return api


@pytest.fixture
def make_request(db):
    """`make_request(user, name=..., status=..., details=...)`: a request made through the
    service the API uses (the employee's and the desk's tests share it)."""

    def make(user, name="Find a dog walker", status=None, **kwargs) -> ServiceRequest:
        service_request = request_services.request_create(user=user, name=name, **kwargs)
        if status is not None:
            service_request.status = status
            service_request.save(update_fields=["status"])
        return service_request

    return make


# --------------------------------------------------------------------------- concierge desk


@pytest.fixture
def concierge(db) -> User:
    """A concierge (staff in the 'Concierges' group), like the demo's concierge@example.com."""
    return cast(
        User,
        UserFactory(
            email="casey@example.com",
            first_name="Casey",
            last_name="Jones",
            groups=["Concierges"],
        ),
    )


@pytest.fixture
def concierge_api(db, concierge) -> ApiClient:
    """Its own API client (another browser), signed in as `concierge`, its session already
    remembered by the server (as for `signed_in_api`)."""
    api = ApiClient()
    response = api.sign_in(concierge.email)
    assert response.status_code == 200, response.content
    assert api.get("users/current").status_code == 200
    return api


@pytest.fixture
def other_concierge(user_factory) -> User:
    """A second concierge."""
    return user_factory(
        email="dana@example.com", first_name="Dana", last_name="Reyes", groups=["Concierges"]
    )


@pytest.fixture
def globex(company_factory) -> Company:
    return company_factory(slug="globex", name="Globex")


@pytest.fixture
def bob(user_factory, globex) -> User:
    """An employee of another company."""
    return user_factory(
        email="bob@globex.example", first_name="Bob", last_name="Stone", companies=[globex]
    )
