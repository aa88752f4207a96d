"""Request and message reads. Each runs a fixed number of queries whatever the list length.

The desk (one shared desk: every concierge works every company's requests) reads through
the `request_queue` and `request_*_for_desk` selectors at the end.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

import orjson
from django.db import connection
from django.db.models import (
    BigIntegerField,
    BooleanField,
    DateTimeField,
    Exists,
    Expression,
    F,
    Field,
    Func,
    Min,
    OuterRef,
    Q,
    QuerySet,
    Value,
    Window,
    prefetch_related_objects,
)
from django.db.models.functions import RowNumber
from django.db.models.lookups import GreaterThan, LessThan, LessThanOrEqual, Lookup
from django.utils import timezone

from concierge.accounts.selectors.companies import companies_prefetch
from concierge.accounts.selectors.concierges import user_is_concierge
from concierge.common.errors import NotFound, ValidationFailed
from concierge.common.sql_rows import ModelColumns, api_time_sql, row_split, uuid_text_sql
from concierge.common.text_search import COLUMN as SEARCH_VECTOR
from concierge.common.text_search import prefix_tsquery, search_words
from concierge.common.validation import is_database_id
from concierge.servicerequests.models import (
    DUE_ORDER_KEYS,
    Message,
    MessageAttachment,
    ServiceRequest,
)

if TYPE_CHECKING:
    from concierge.accounts.models import User

# The list endpoints by path segment (spec §7): /requests/open, /in_progress, /completed.
LIST_STATUSES = {
    "open": ServiceRequest.Status.OPEN,
    "in_progress": ServiceRequest.Status.IN_PROGRESS,
    "completed": ServiceRequest.Status.CLOSED,
}


def _related(model: Any, field: str) -> Any:
    """The model at the other end of `model.field` (read through its relation, not imported:
    it belongs to another app)."""
    return model._meta.get_field(field).related_model


def category_image_path(name: str) -> str:
    """The address of a category's stored picture, from its name (a list row's)."""
    storage = _related(ServiceRequest, "survey_category")._meta.get_field("image").storage
    return str(storage.url(name))


class RequestListRow(NamedTuple):
    """What the employee's request list shows of a request, as plain values; times as the
    API's JSON text. Read in the order of `_list_sql`'s columns."""

    id: int
    external_id: str
    name: str
    status: str
    issued_at: str
    created_at: str
    category_id: int | None
    category_name: str | None
    category_image: str | None  # the stored file's name ('' or None: no picture)
    category_icon: str | None
    last_message_at: str | None
    unread: bool  # a concierge's reply came after the employee last opened the thread


# Before any message's time: a thread the employee never opened has all its replies unseen.
_NEVER = {"postgresql": "'-infinity'::timestamptz", "sqlite": "''"}


@cache
def _unread_sql(vendor: str) -> str:
    """SQL true when request `r` has a concierge's reply (any message but the employee's)
    newer than the employee's last look at the thread (`seen_by_employee_at`, which opening the
    thread and writing in it move on; the reply email checks the same), NULL (false) when it
    has no reply. Reads the request's own row: the database keeps its newest reply's time
    (`last_reply_at`, migration 0013)."""
    return f"r.last_reply_at > COALESCE(r.seen_by_employee_at, {_NEVER[vendor]})"


@cache
def _list_sql(vendor: str) -> str:
    """The employee's list (`request_list_for_user`), written once: compiling it through the
    ORM and reading its rows into models cost several times what the database spends on it.
    Parameters: the user's id, the status."""
    category = _related(ServiceRequest, "survey_category")._meta.db_table
    return f"""
SELECT r.id, {uuid_text_sql("r.external_id", vendor)}, r.name, r.status,
  {api_time_sql("r.issued_at", vendor)}, {api_time_sql("r.created_at", vendor)},
  g.id, g.name, g.image, g.icon, {api_time_sql("r.last_message_at", vendor)},
  {_unread_sql(vendor)}
FROM {ServiceRequest._meta.db_table} r
LEFT JOIN {category} g ON g.id = r.survey_category_id
WHERE r.user_id = %s AND r.status = %s
ORDER BY r.issued_at DESC, r.id DESC"""  # noqa: S608 (model tables)


def request_list_for_user(*, user: User, status: str) -> list[RequestListRow]:
    """`user`'s requests with this status, newest first (one query)."""
    with connection.cursor() as cursor:
        cursor.execute(_list_sql(connection.vendor), [user.pk, status])
        # The unread test is NULL without a reply; SQLite answers it as 0 or 1.
        return [
            RequestListRow._make((*values[:-1], bool(values[-1]))) for values in cursor.fetchall()
        ]


@cache
def _unread_count_sql(vendor: str) -> str:
    """`request_unread_count_for_user`'s query. Parameter: the user's id."""
    return f"""
SELECT COUNT(*) FROM {ServiceRequest._meta.db_table} r
WHERE r.user_id = %s AND {_unread_sql(vendor)}"""  # noqa: S608 (a model table)


def request_unread_count_for_user(*, user: User) -> int:
    """How many of `user`'s requests (any status) have a concierge's reply they have not seen
    (one query of the user's requests through their index)."""
    with connection.cursor() as cursor:
        cursor.execute(_unread_count_sql(connection.vendor), [user.pk])
        (count,) = cursor.fetchone()
    return int(count)


_REQUEST_COLUMNS = ModelColumns(ServiceRequest, "r")
_CATEGORY_COLUMNS = ModelColumns(_related(ServiceRequest, "survey_category"), "g")
_CLOCK_COLUMNS = ModelColumns(_related(ServiceRequest, "reply_clock"), "c")
_EMPLOYEE_COLUMNS = ModelColumns(_related(ServiceRequest, "user"), "u")
_ASSIGNEE_COLUMNS = ModelColumns(_related(ServiceRequest, "assignee"), "a")


@cache
def _request_sql(*, own: bool, people: bool, page: bool = False) -> str:
    """One request with its category and reply-time clock, and (`people`) its employee and
    assignee (`_request_read`), or (`page`, PostgreSQL) the newest page of its thread as JSON
    (`_thread_page_json_sql`). Parameters: (`page`) the page's length, the request's id, then
    (`own`) its owner's id."""
    users = _EMPLOYEE_COLUMNS.model._meta.db_table
    people_columns = f", {_EMPLOYEE_COLUMNS.sql}, {_ASSIGNEE_COLUMNS.sql}" if people else ""
    people_joins = (
        f"JOIN {users} u ON u.id = r.user_id LEFT JOIN {users} a ON a.id = r.assignee_id"
        if people
        else ""
    )
    return f"""
SELECT {_REQUEST_COLUMNS.sql}, {_CATEGORY_COLUMNS.sql}, {_CLOCK_COLUMNS.sql}{people_columns}
  {f", {_thread_page_json_sql()}" if page else ""}
FROM {ServiceRequest._meta.db_table} r
LEFT JOIN {_CATEGORY_COLUMNS.model._meta.db_table} g ON g.id = r.survey_category_id
LEFT JOIN {_CLOCK_COLUMNS.model._meta.db_table} c ON c.request_id = r.id
{people_joins}
WHERE r.id = %s{" AND r.user_id = %s" if own else ""}"""  # noqa: S608 (model tables)


def _request_row(
    request_id: int, *, owner_id: int | None, people: bool = False, page: bool = False
) -> Sequence[Any] | None:
    """`_request_sql`'s row for the request (of `owner_id` when given), None when there is no
    such request."""
    if not is_database_id(request_id):
        return None
    own = owner_id is not None
    params: list[Any] = [THREAD_PAGE_SIZE + 1] if page else []
    params += [request_id, owner_id] if own else [request_id]
    with connection.cursor() as cursor:
        cursor.execute(_request_sql(own=own, people=people, page=page), params)
        row: Sequence[Any] | None = cursor.fetchone()
    return row


def _request_of_row(row: Sequence[Any], *, people: bool = False) -> ServiceRequest:
    columns = [_REQUEST_COLUMNS, _CATEGORY_COLUMNS, _CLOCK_COLUMNS]
    if people:
        columns += [_EMPLOYEE_COLUMNS, _ASSIGNEE_COLUMNS]
    service_request, category, clock, *persons = (
        part.instance(values) if values[0] is not None else None
        for part, values in zip(columns, row_split(row, columns), strict=True)
    )
    assert isinstance(service_request, ServiceRequest)
    service_request.survey_category = category
    ServiceRequest._meta.get_field("reply_clock").set_cached_value(service_request, clock)  # type: ignore[union-attr]
    if people:
        employee, assignee = persons  # the employee's JOIN always finds one
        service_request.user = employee  # type: ignore[assignment]
        service_request.assignee = assignee
    return service_request


def _request_read(
    request_id: int, *, owner_id: int | None = None, people: bool = False
) -> ServiceRequest | None:
    """The request (of `owner_id` when given) with its category and clock and (`people`) its
    employee and assignee, read as the ORM's `select_related` would (one query); None when
    there is no such request. The SQL is written once: the ORM took longer to compile it than
    the database takes to answer it."""
    row = _request_row(request_id, owner_id=owner_id, people=people)
    return None if row is None else _request_of_row(row, people=people)


def request_get_for_user(
    *, user: User, request_id: int, allow_concierge: bool = False
) -> ServiceRequest:
    """`user`'s own request with its category and clock (one query), else NotFound (another
    person's request is a 404 too). With `allow_concierge`, a concierge gets any request (the
    desk works every request)."""
    own = not (allow_concierge and user_is_concierge(user=user))
    service_request = _request_read(request_id, owner_id=user.pk if own else None)
    if service_request is None:
        raise NotFound()
    return service_request


def request_thread_for_user(*, user: User, request_id: int) -> tuple[ServiceRequest, ThreadPage]:
    """`user`'s own request as `request_get_for_user` reads it and the newest page of its
    thread as `thread_page` does: one query on PostgreSQL (the page comes beside the request),
    two elsewhere. NotFound for anyone else's request."""
    if connection.vendor != "postgresql":
        service_request = request_get_for_user(user=user, request_id=request_id)
        return service_request, thread_page(request_id=service_request.pk)
    row = _request_row(request_id, owner_id=user.pk, page=True)
    if row is None:
        raise NotFound()
    *request_columns, page_json = row
    newest_first = [
        MessageRow(
            id_, body, source, name, at, reopened, [AttachmentRow(*f) for f in files], by_email
        )
        for id_, body, source, name, at, reopened, by_email, files in orjson.loads(page_json)
    ]
    return _request_of_row(request_columns), _page_of(newest_first, THREAD_PAGE_SIZE)


def request_attachable(user: User, request_id: int) -> bool:
    """Whether `user` may attach files to the request: their own; any request for a concierge."""
    try:
        request_get_for_user(user=user, request_id=request_id, allow_concierge=True)
    except NotFound:
        return False
    return True


THREAD_PAGE_SIZE = 50
THREAD_PAGE_MAX = 200
CURSOR_UNKNOWN = "That cursor is not a message of this thread."


class AttachmentRow(NamedTuple):
    key: str
    filename: str
    content_type: str
    size: int | None


class MessageRow(NamedTuple):
    """A message as both sides' threads show it, as plain values; its time as the API's JSON
    text."""

    id: int
    body_html: str
    source: str
    source_name: str
    external_created_at: str
    reopened_request: bool
    attachments: list[AttachmentRow]
    by_email: bool = False


@dataclass
class ThreadPage:
    """A page of a thread, oldest first, and the cursor for the messages before it (None
    when the thread starts here)."""

    messages: list[MessageRow]
    older_cursor: str | None


@cache
def _thread_page_sql(vendor: str, *, before: bool) -> str:
    """A thread's page, newest first, each message with its attachments in order (one row per
    attachment). Parameters: the request's id, (`before`) the cursor's message id, then the
    page's length."""
    messages = Message._meta.db_table
    link = MessageAttachment._meta.db_table
    upload = _related(MessageAttachment, "upload")._meta.db_table
    older = (
        f" AND (m.external_created_at, m.id) < (SELECT b.external_created_at, b.id "  # noqa: S608 (a model table)
        f"FROM {messages} b WHERE b.id = %s)"
        if before
        else ""
    )
    return f"""
SELECT p.id, p.body_html, p.source, p.source_name, {api_time_sql("p.external_created_at", vendor)},
  p.reopened_request, p.by_email, u.{connection.ops.quote_name("key")}, u.filename,
  u.content_type, u.size
FROM (
  SELECT m.id, m.body_html, m.source, m.source_name, m.external_created_at, m.reopened_request,
    m.by_email
  FROM {messages} m WHERE m.request_id = %s{older}
  ORDER BY m.external_created_at DESC, m.id DESC LIMIT %s
) p
LEFT JOIN {link} l ON l.message_id = p.id
LEFT JOIN {upload} u ON u.id = l.upload_id
ORDER BY p.external_created_at DESC, p.id DESC, l.position, l.id"""  # noqa: S608 (model tables)


@cache
def _thread_page_json_sql() -> str:
    """PostgreSQL: the newest page of request `r`'s thread as `_thread_page_sql` reads it,
    newest first, as one JSON array of [id, body_html, source, source_name, time, reopened,
    by_email, [[key, filename, content_type, size], ...]]. Parameter: the page's length."""
    messages = Message._meta.db_table
    link = MessageAttachment._meta.db_table
    upload = _related(MessageAttachment, "upload")._meta.db_table
    files = (
        f"(SELECT COALESCE(json_agg(json_build_array(u.{connection.ops.quote_name('key')}, "  # noqa: S608 (model tables)
        f"u.filename, u.content_type, u.size) ORDER BY l.position, l.id), '[]'::json) "
        f"FROM {link} l JOIN {upload} u ON u.id = l.upload_id WHERE l.message_id = p.id)"
    )
    return f"""(
  SELECT COALESCE(json_agg(json_build_array(p.id, p.body_html, p.source, p.source_name,
    {api_time_sql("p.external_created_at", "postgresql")}, p.reopened_request, p.by_email,
    {files}) ORDER BY p.external_created_at DESC, p.id DESC), '[]'::json)::text
  FROM (
    SELECT m.id, m.body_html, m.source, m.source_name, m.external_created_at,
      m.reopened_request, m.by_email
    FROM {messages} m WHERE m.request_id = r.id
    ORDER BY m.external_created_at DESC, m.id DESC LIMIT %s
  ) p)"""  # noqa: S608 (model tables)


def _page_of(newest_first: list[MessageRow], limit: int) -> ThreadPage:
    """The page of up to `limit` messages read newest first (one more tells whether older
    ones exist), oldest first."""
    page = newest_first[:limit][::-1]
    has_older = len(newest_first) > limit
    return ThreadPage(messages=page, older_cursor=str(page[0].id) if has_older else None)


def thread_page(
    *, request_id: int, before: str | None = None, limit: int = THREAD_PAGE_SIZE
) -> ThreadPage:
    """The newest `limit` messages of the thread (those before the cursor's message when
    `before` is given) with their attachments: one query, two with a cursor. The cursor is a
    message id of this thread; messages are ordered by (external_created_at, id)."""
    limit = max(1, min(limit, THREAD_PAGE_MAX))
    params: list[Any] = [request_id]
    if before is not None:
        before_id = int(before)
        if not Message.objects.filter(pk=before_id, request_id=request_id).exists():
            raise ValidationFailed.for_field("before", CURSOR_UNKNOWN)
        params.append(before_id)
    with connection.cursor() as cursor:
        cursor.execute(
            _thread_page_sql(connection.vendor, before=before is not None), [*params, limit + 1]
        )
        rows = cursor.fetchall()
    newest_first: list[MessageRow] = []
    for message_id, body, source, source_name, at, reopened, by_email, *attachment in rows:
        if not newest_first or newest_first[-1].id != message_id:
            message = MessageRow(
                message_id, body, source, source_name, at, bool(reopened), [], bool(by_email)
            )
            newest_first.append(message)
        key, filename, content_type, size = attachment
        if key is not None:
            newest_first[-1].attachments.append(AttachmentRow(key, filename, content_type, size))
    return _page_of(newest_first, limit)


@dataclass(frozen=True)
class PostedMessage:
    """A message just written, as the threads show it, and who the thread waits on now."""

    message: MessageRow
    waiting_on: Literal["concierge", "employee"]


@cache
def _posted_message_sql(vendor: str) -> str:
    """One message with its attachments in order (one row per attachment), each row with the
    source of the thread's newest message. Parameters: the message's id, the request's id."""
    messages = Message._meta.db_table
    link = MessageAttachment._meta.db_table
    upload = _related(MessageAttachment, "upload")._meta.db_table
    return f"""
SELECT p.id, p.body_html, p.source, p.source_name, {api_time_sql("p.external_created_at", vendor)},
  p.reopened_request, p.by_email, u.{connection.ops.quote_name("key")}, u.filename,
  u.content_type, u.size,
  (SELECT n.source FROM {messages} n WHERE n.request_id = p.request_id
   ORDER BY n.external_created_at DESC, n.id DESC LIMIT 1)
FROM {messages} p
LEFT JOIN {link} l ON l.message_id = p.id
LEFT JOIN {upload} u ON u.id = l.upload_id
WHERE p.id = %s AND p.request_id = %s
ORDER BY l.position, l.id"""  # noqa: S608 (model tables)


def posted_message(*, request_id: int, message_id: int) -> PostedMessage:
    """A message of the request's thread as `thread_page` shows it, and who the thread waits
    on now (from its newest message, which a retried send's may no longer be): one query."""
    with connection.cursor() as cursor:
        cursor.execute(_posted_message_sql(connection.vendor), [message_id, request_id])
        rows = cursor.fetchall()
    if not rows:
        raise NotFound(MESSAGE_NOT_FOUND)
    row_id, body, source, source_name, at, reopened, by_email, *_, newest_source = rows[0]
    message = MessageRow(row_id, body, source, source_name, at, bool(reopened), [], bool(by_email))
    for key, filename, content_type, size in (row[7:11] for row in rows):
        if key is not None:
            message.attachments.append(AttachmentRow(key, filename, content_type, size))
    return PostedMessage(message=message, waiting_on=waiting_on_source(newest_source))


# --------------------------------------------------------------------------- the desk

QUEUE_LIMIT_DEFAULT = 200
QUEUE_LIMIT_MAX = 500
# The tab counts stop counting here: past it a tab shows '1,000+', so a count costs the same
# whether the desk holds a thousand requests or a million.
QUEUE_COUNT_LIMIT = 1_000
SEARCH_TERMS_MAX = 6
# A search word that at least COMMON_SHARE of the newest COMMON_SAMPLE requests match is
# common (see _search).
COMMON_SAMPLE = 200
COMMON_SHARE = 0.1
STATUSES = tuple(ServiceRequest.Status.values)
ASSIGNEE_INVALID = "Choose 'mine', 'unassigned' or a concierge's id."
CURSOR_INVALID = "That page of the queue is not there any more: reload the queue."
DUE_SOON = timedelta(hours=1)
REQUEST_NOT_FOUND = "We couldn't find that request."
MESSAGE_NOT_FOUND = "We couldn't find that message."
# Enough of a last message's stored HTML for its excerpt, whatever the message's length.
EXCERPT_SOURCE_CHARS = 2_000
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_EMPLOYEE = Message.Source.USER.value  # a plain string: compared once per queue row
# Each order's keys (all non-null, the last one unique) and whether it runs backwards; the
# indexes on (status, keys) and (assignee, status, keys) serve them (models.ServiceRequest).
_ORDERS: dict[str, tuple[tuple[Any, ...], bool]] = {
    "due": (DUE_ORDER_KEYS, False),
    "oldest": ((F("issued_at"), F("id")), False),
    "newest": ((F("issued_at"), F("id")), True),
}


def _ascii_digits(value: str) -> bool:
    """0-9 only: str.isdigit() also accepts '²' and '①', which int() refuses."""
    return value.isascii() and value.isdigit()


def waiting_on(last_message: MessageRow | None) -> Literal["concierge", "employee"]:
    """Who has to act next: the concierge when the employee wrote last (or nobody has yet)."""
    return waiting_on_source(last_message.source if last_message is not None else None)


def waiting_on_source(source: str | None) -> Literal["concierge", "employee"]:
    """`waiting_on` from the last message's source (None: no message yet)."""
    return "concierge" if source is None or source == _EMPLOYEE else "employee"


@dataclass(frozen=True)
class QueuePage:
    """A page of the desk's queue as plain values.

    `rows`: what each row shows (`QueueRow`).
    `counts`: per status, at most QUEUE_COUNT_LIMIT; `capped`: the statuses with more.
    `next_cursor`: the position after the last row when more follow (else None)."""

    rows: list[QueueRow]
    counts: dict[str, int]
    capped: list[str]
    next_cursor: str | None


class _Row(Func):
    """A row value, `(a, b, c)`: compared to another row, key by key, as the order sorts."""

    template = "(%(expressions)s)"
    output_field = Field()


def _after(keys: tuple[Any, ...], values: tuple[Any, ...], *, backwards: bool = False) -> Lookup:
    """Rows past `values` in the order of `keys`: one row comparison, so an index on the keys
    seeks straight to the position instead of reading the rows before it."""
    return _compare(keys, LessThan if backwards else GreaterThan, values)


def _up_to(keys: tuple[Any, ...], values: tuple[Any, ...]) -> Lookup:
    """Rows up to `values` (included) in the order of `keys`, as one row comparison."""
    return _compare(keys, LessThanOrEqual, values)


def _compare(keys: tuple[Any, ...], lookup: type[Lookup], values: tuple[Any, ...]) -> Lookup:
    fields: dict[type, Field] = {
        bool: BooleanField(),
        datetime: DateTimeField(),
        int: BigIntegerField(),
    }
    bound = _Row(*(Value(v, output_field=fields[type(v)]) for v in values))
    return lookup(_Row(*keys), bound)


def _cursor(order: str, row: QueueRow) -> str:
    """The opaque position of `row` in `order`: its keys, times in microseconds."""
    issued_at = _micros(row.issued_at_utc)
    if order == "due":
        undated = row.due_at_utc is None
        due_key = issued_at if row.due_at_utc is None else _micros(row.due_at_utc)
        values: tuple[int, ...] = (int(undated), due_key, issued_at, row.id)
    else:
        values = (issued_at, row.id)
    return ".".join([order, *(str(v) for v in values)])


def _micros(utc_text: str) -> int:
    return (datetime.fromisoformat(utc_text) - _EPOCH) // timedelta(microseconds=1)


def _cursor_values(cursor: str, order: str) -> tuple[Any, ...]:
    """The keys in a cursor made by `_cursor` for this order; anything else is a 422."""
    kinds = ("flag", "time", "time", "id") if order == "due" else ("time", "id")
    name, *parts = cursor.split(".")
    if name != order or len(parts) != len(kinds):
        raise ValidationFailed.for_field("cursor", CURSOR_INVALID)
    values: list[Any] = []
    for kind, part in zip(kinds, parts, strict=True):
        number = int(part) if _ascii_digits(part) and len(part) <= 19 else -1
        try:
            if kind == "flag" and number in (0, 1):
                values.append(bool(number))
            elif kind == "time" and number >= 0:
                values.append(_EPOCH + timedelta(microseconds=number))
            elif kind == "id" and is_database_id(number):
                values.append(number)
            else:
                raise ValueError(part)
        except (ValueError, OverflowError):
            raise ValidationFailed.for_field("cursor", CURSOR_INVALID) from None
    return tuple(values)


class _HasWords(Expression):
    """The stored search vector of the query's own table (a request's, a message's) has the
    words of `term` (or their beginnings, as in the desk's search) in the parts `weights`
    marks ('A': a request's name). Read through its GIN index when the index is the way in."""

    output_field = BooleanField()
    template = "{table}.{column} @@ to_tsquery('english'::regconfig, %s)"

    def __init__(self, term: str, weights: str = "") -> None:
        super().__init__()
        self.query = prefix_tsquery(search_words(term), weights=weights)

    def as_sql(self, compiler: Any, connection: Any) -> tuple[str, tuple[str]]:
        table = compiler.quote_name_unless_alias(compiler.query.get_initial_alias())
        sql = self.template.format(
            table=table, column=SEARCH_VECTOR, messages=Message._meta.db_table
        )
        return sql, (self.query,)


class _MessageHasWords(_HasWords):
    """One of the request's messages has the words, looked up request by request through
    the messages' request index. `OFFSET 0` keeps PostgreSQL from turning it into a hashed
    set of every matching message, which costs seconds for a common word."""

    template = (
        "EXISTS (SELECT 1 FROM {messages} searched WHERE "
        "searched.request_id = {table}.id "
        "AND searched.{column} @@ to_tsquery('english'::regconfig, %s) OFFSET 0)"
    )


def _people(term: str) -> Q:
    return (
        Q(user__first_name__icontains=term)
        | Q(user__last_name__icontains=term)
        | Q(user__email__icontains=term)
    )


def request_number(term: str) -> int | None:
    """The request number `term` names ('42' or '#42'), if it names one."""
    number = term.strip().lstrip("#")
    return int(number) if _ascii_digits(number) and is_database_id(int(number)) else None


def _each_request_matches(term: str) -> Q:
    """`term` tested on each request: its employee's name or email contains it, its name or
    one of its messages has its words (SQLite: contains it), or it is its number."""
    if connection.vendor == "postgresql":
        in_name, in_messages = Q(_HasWords(term, weights="A")), Q(_MessageHasWords(term))
    else:  # the term's words, as PostgreSQL's search takes them (its punctuation is no word)
        words = search_words(term)
        in_name = Q(*(Q(name__icontains=word) for word in words))
        messages = Message.objects.filter(request_id=OuterRef("pk"))
        for word in words:
            messages = messages.filter(body_html__icontains=word)
        in_messages = Q(Exists(messages))
    match = _people(term) | in_name | in_messages
    if (number := request_number(term)) is not None:
        match |= Q(pk=number)
    return match


def _requests_matching(term: str) -> QuerySet:
    """The same requests as `_each_request_matches(term)`, as one union of id sets, each
    found through an index: the employees', the GIN indexes of names and of messages."""
    requests = ServiceRequest.objects.order_by()
    sets = [
        requests.filter(_people(term)).values("pk"),
        requests.filter(_HasWords(term, weights="A")).values("pk"),
        Message.objects.order_by().filter(_HasWords(term)).values("request_id"),
    ]
    if (number := request_number(term)) is not None:
        sets.append(requests.filter(pk=number).values("pk"))
    first, *others = sets
    return first.union(*others, all=True)


def _common(term: str) -> bool:
    """Whether at least COMMON_SHARE of the newest COMMON_SAMPLE requests match `term`."""
    newest = ServiceRequest.objects.order_by("-id").values("pk")[:COMMON_SAMPLE]
    matching = ServiceRequest.objects.filter(pk__in=newest).filter(_each_request_matches(term))
    return matching.count() >= COMMON_SAMPLE * COMMON_SHARE


def _search(requests: QuerySet[ServiceRequest], q: str) -> QuerySet[ServiceRequest]:
    """Every word must match the employee's name or email, the request's name, or the text
    of one of its messages; '#42' or '42' also finds request 42. Punctuation alone ('&',
    '-') is no word and matches anything.

    On PostgreSQL a word that many requests match is tested on each request as the queue
    reads them in its order, which stops at a page (or at the counts' limit); the requests of
    a rarer word are looked up in the indexes first (one query per word tells them apart).
    Either way would cost seconds where the other costs milliseconds."""
    for term in q.split()[:SEARCH_TERMS_MAX]:
        term = term[:100]
        if not search_words(term):
            continue
        if connection.vendor == "postgresql" and not _common(term):
            requests = requests.filter(pk__in=_requests_matching(term))
        else:
            requests = requests.filter(_each_request_matches(term))
    return requests


def _filtered(
    *,
    concierge: User,
    company_id: int | None,
    assignee: str | None,
    q: str,
    due: str | None,
) -> QuerySet[ServiceRequest]:
    requests = ServiceRequest.objects.all()
    if company_id is not None:
        requests = requests.filter(user__companies__id=company_id)
    if assignee:
        if assignee == "mine":
            requests = requests.filter(assignee=concierge)
        elif assignee == "unassigned":
            requests = requests.filter(assignee__isnull=True)
        elif _ascii_digits(assignee) and is_database_id(int(assignee)):
            requests = requests.filter(assignee_id=int(assignee))
        else:
            raise ValidationFailed.for_field("assignee", ASSIGNEE_INVALID)
    if q.strip():
        requests = _search(requests, q)
    if due is not None:
        # On the 'due' order's first two keys (running clock, deadline), so its index serves.
        now = timezone.now()
        dated = DUE_ORDER_KEYS[:2]
        if due == "overdue":
            requests = requests.filter(_up_to(dated, (False, now)))
        else:
            requests = requests.filter(_after(dated, (False, now)))
            requests = requests.filter(_up_to(dated, (False, now + DUE_SOON)))
    return requests


def _capped_counts(requests: QuerySet[ServiceRequest]) -> tuple[dict[str, int], list[str]]:
    """Per status, the number of requests up to QUEUE_COUNT_LIMIT (one query, each count an
    index range of at most QUEUE_COUNT_LIMIT + 1 entries), and the statuses with more."""
    sql, params = requests.order_by().values("id", "status").query.sql_with_params()
    count = (
        f"(SELECT COUNT(*) FROM (SELECT 1 FROM ({sql}) AS filtered WHERE filtered.status = %s "  # noqa: S608 (ORM-built SQL)
        f"LIMIT {QUEUE_COUNT_LIMIT + 1}) AS counted)"
    )
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {', '.join([count] * len(STATUSES))}",
            [value for status in STATUSES for value in (*params, status)],
        )
        numbers = cursor.fetchone()
    counts = {s: min(n, QUEUE_COUNT_LIMIT) for s, n in zip(STATUSES, numbers, strict=True)}
    return counts, [s for s, n in zip(STATUSES, numbers, strict=True) if n > QUEUE_COUNT_LIMIT]


class QueueRow(NamedTuple):
    """What a queue row shows of a request, as plain values; times as UTC text (`_UTC_TEXT`).
    Read in the order of `_queue_rows_sql`'s columns."""

    id: int
    name: str
    status: str
    user_id: int
    assignee_id: int | None
    issued_at_utc: str
    due_at_utc: str | None
    employee_first_name: str
    employee_last_name: str
    employee_email: str
    category_name: str | None
    category_icon: str | None
    assignee_first_name: str | None
    assignee_last_name: str | None
    # The clock's facts its badge needs (its deadline is the request's `due_at`).
    clock_id: int | None
    clock_completed: bool
    clock_running: bool
    clock_responded: bool
    last_message_source: str | None  # None: no message yet
    last_message_source_name: str | None
    last_message_start: str | None  # the beginning of its HTML
    last_message_at_utc: str | None
    company: tuple[int, str] | None  # the filtered one, else the employee's first by name


# A queue row: the page's requests (the ORM's query for the filters, order and position)
# joined to what the rows show in SQL written once: the ORM would spend more CPU composing
# and reading these columns than the database spends on them.
# The request's own columns the page's query reads (the rest is joined to it).
_PAGE_FIELDS = (
    "id",
    "position",
    "name",
    "status",
    "user_id",
    "assignee_id",
    "survey_category_id",
    "last_message_id",
    "issued_at",
    "due_at",
)
# Times as ISO-8601 text in UTC, 'YYYY-MM-DDTHH:MM:SS.ffffffZ' (SQLite leaves out a zero
# fraction; Django keeps its datetimes as UTC text), written by the database: Django reads a
# PostgreSQL timestamp in about 4 µs, a third of the queue's CPU for its 600 times.
_UTC_TEXT = {
    "postgresql": "to_char({} AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"')",
    "sqlite": "replace({}, ' ', 'T') || 'Z'",
}


@cache
def _queue_rows_sql(vendor: str) -> tuple[str, str]:
    """The SQL before and after the page's query (`(page_sql) r`: `_PAGE_FIELDS`)."""
    utc = _UTC_TEXT[vendor]
    user = _related(ServiceRequest, "user")
    companies: Any = user._meta.get_field("companies")
    table = {
        "user": user._meta.db_table,
        "category": _related(ServiceRequest, "survey_category")._meta.db_table,
        "clock": _related(ServiceRequest, "reply_clock")._meta.db_table,
        "membership": companies.remote_field.through._meta.db_table,
        "company": companies.related_model._meta.db_table,
    }
    before = f"""
SELECT r.id, r.name, r.status, r.user_id, r.assignee_id,
  {utc.format("r.issued_at")}, {utc.format("r.due_at")},
  u.first_name, u.last_name, u.email, g.name, g.icon, a.first_name, a.last_name,
  c.id, c.completed_at IS NOT NULL, c.running_since IS NOT NULL,
  c.first_responded_at IS NOT NULL,
  m.source, m.source_name, substr(m.body_html, 1, {EXCERPT_SOURCE_CHARS}),
  {utc.format("m.external_created_at")},
  co.id, co.name
FROM ("""  # noqa: S608 (model tables and constants)
    after = f""") r
JOIN {table["user"]} u ON u.id = r.user_id
LEFT JOIN {table["category"]} g ON g.id = r.survey_category_id
LEFT JOIN {table["user"]} a ON a.id = r.assignee_id
LEFT JOIN {table["clock"]} c ON c.request_id = r.id
LEFT JOIN {Message._meta.db_table} m ON m.id = r.last_message_id
LEFT JOIN {table["membership"]} mc ON mc.user_id = r.user_id
LEFT JOIN {table["company"]} co ON co.id = mc.company_id
ORDER BY r.position"""
    return before, after


def _queue_rows(page: QuerySet[Any], company_id: int | None) -> list[QueueRow]:
    """The rows of the page's requests, in its order (one query). The SQL answers a row per
    company of the employee; each request keeps the one to show."""
    before, after = _queue_rows_sql(connection.vendor)
    page_sql, params = page.query.sql_with_params()
    shown: dict[int, tuple[tuple[Any, ...], tuple[int, str] | None]] = {}
    with connection.cursor() as cursor:
        cursor.execute(before + page_sql + after, params)
        for values in cursor.fetchall():
            company = (values[-2], values[-1]) if values[-2] is not None else None
            first = shown.get(values[0])
            if first is None:
                shown[values[0]] = (values, company)
            elif company is not None and _shown_first(company, first[1], company_id):
                shown[values[0]] = (first[0], company)
    return [QueueRow._make((*values[:-2], company)) for values, company in shown.values()]


def _shown_first(
    company: tuple[int, str], other: tuple[int, str] | None, filtered: int | None
) -> bool:
    """Whether `company` is shown rather than `other`: the filtered one, else by name."""
    if other is None:
        return True
    if filtered is not None and filtered in (company[0], other[0]):
        return company[0] == filtered
    return (company[1], company[0]) < (other[1], other[0])


def request_queue(
    *,
    concierge: User,
    status: str | None = None,
    company_id: int | None = None,
    assignee: str | None = None,
    q: str = "",
    order: str = "due",
    due: str | None = None,
    cursor: str | None = None,
    limit: int = QUEUE_LIMIT_DEFAULT,
) -> QueuePage:
    """The desk's queue: requests of every company (one shared desk), filtered and searched,
    due soonest first by default (the reply-time clock's next deadline; requests whose clock
    is paused or stopped, or without one, follow, oldest first), with per-status counts under
    the same filters. `due`: 'overdue' (deadline passed) or 'soon' (deadline within the hour,
    not passed). `cursor`: a page's `next_cursor`, for the rows after it.

    Two queries whatever the number of requests, each reading an index range no longer than
    the page (or QUEUE_COUNT_LIMIT for the counts) when a status is chosen: the counts, and
    the page with the employee and their companies, category, assignee, clock and last
    message.
    """
    keys, backwards = _ORDERS.get(order, _ORDERS["due"])
    position = _cursor_values(cursor, order) if cursor is not None else None
    requests = _filtered(
        concierge=concierge, company_id=company_id, assignee=assignee, q=q, due=due
    )
    counts, capped = _capped_counts(requests)
    if status is not None:
        requests = requests.filter(status=status)
    if position is not None:
        requests = requests.filter(_after(keys, position, backwards=backwards))
    limit = max(1, min(limit, QUEUE_LIMIT_MAX))
    ordering = [k.desc() if backwards else k.asc() for k in keys]
    page = (
        requests.annotate(position=Window(RowNumber(), order_by=ordering))
        .order_by(*ordering)
        .values(*_PAGE_FIELDS)[: limit + 1]
    )
    rows = _queue_rows(page, company_id)
    next_cursor = _cursor(order, rows[limit - 1]) if len(rows) > limit else None
    return QueuePage(rows=rows[:limit], counts=counts, capped=capped, next_cursor=next_cursor)


def request_get_for_desk(*, request_id: int) -> ServiceRequest:
    """Any request (one shared desk) with its employee, assignee, category and clock (one
    query), else NotFound."""
    service_request = _request_read(request_id, people=True)
    if service_request is None:
        raise NotFound(REQUEST_NOT_FOUND)
    return service_request


def request_lock_with_employee(*, request_id: int) -> ServiceRequest | None:
    """The request with its employee, its row locked until the caller's transaction ends (as
    status changes lock it): what a follow-up of a completion checks before acting, so a
    status change cannot slip in between. None when it was deleted."""
    return (
        ServiceRequest.objects.select_for_update(of=("self",))
        .select_related("user")
        .filter(pk=request_id)
        .first()
    )


def request_with_employee_for_desk(*, request_id: int) -> ServiceRequest:
    """`request_get_for_desk`'s request with the employee's companies (two queries); its thread
    is read by pages (`thread_page`)."""
    service_request = request_get_for_desk(request_id=request_id)
    prefetch_related_objects([service_request.user], companies_prefetch(path="companies"))
    return service_request


def requests_for_desk_by_ids(*, request_ids: Sequence[int]) -> dict[int, ServiceRequest]:
    """Requests by id with their employee, the employee's companies and the assignee (two
    queries), for the desk's search results."""
    requests = (
        ServiceRequest.objects.select_related("user", "assignee")
        .prefetch_related(companies_prefetch(path="user__companies"))
        .filter(pk__in=list(request_ids))
    )
    return {r.pk: r for r in requests}


# --------------------------------------------------------------------------- company reports


def company_requests_created(*, company_id: int, since: datetime) -> list[dict[str, Any]]:
    """Aggregation rows (no names, no texts) of the requests a company's employees made since
    `since`: id, employee id, issue time, the first concierge reply's time, category name.
    One query."""
    rows: Any = (
        ServiceRequest.objects.filter(user__companies__id=company_id, issued_at__gte=since)
        .annotate(
            first_response_at=Min(
                "messages__external_created_at",
                filter=~Q(messages__source=Message.Source.USER),
            )
        )
        .values("id", "user_id", "issued_at", "first_response_at", "survey_category__name")
    )
    return list(rows)


def company_requests_completed(*, company_id: int, since: datetime) -> list[dict[str, Any]]:
    """Issue and completion times of a company's requests completed since `since`."""
    rows: Any = ServiceRequest.objects.filter(
        user__companies__id=company_id, completed_at__gte=since
    ).values("issued_at", "completed_at")
    return list(rows)


def request_with_employee(*, request_id: int) -> ServiceRequest | None:
    """The request with its employee (reply by email: the request a reply address names), or
    None when it no longer exists."""
    return ServiceRequest.objects.select_related("user").filter(pk=request_id).first()
