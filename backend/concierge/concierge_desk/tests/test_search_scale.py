"""Issue 30 'Desk search can stall the API': on PostgreSQL the desk's search and the queue's
search box read the stored search vectors through their GIN indexes, and a word found in every
message costs the same number of rows whether it is in 12,000 messages or in 18,000."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from concierge.concierge_desk import services as desk_services
from concierge.concierge_desk.models import InternalNote
from concierge.concierge_desk.search import CANDIDATES, RESULTS_DEFAULT, WINDOW
from concierge.servicerequests.models import Message, ServiceRequest

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="PostgreSQL's plans (SQLite searches FTS5)"
    ),
]


def add_requests(user, count, *, messages=6):
    """`count` requests of `user`, each with `messages` messages saying 'please' and a note,
    created in bulk, then the planner's statistics refreshed."""
    requests = ServiceRequest.objects.bulk_create(
        ServiceRequest(user=user, name=f"Errand {n}", details="Category: Home")
        for n in range(count)
    )
    Message.objects.bulk_create(
        [
            Message(
                request=request,
                author=user,
                body_html=f"<p>Please confirm the booking, reference {request.pk} {k}.</p>",
            )
            for request in requests
            for k in range(messages)
        ],
        batch_size=2000,  # PostgreSQL takes at most 65,535 parameters per statement
    )
    InternalNote.objects.bulk_create(
        InternalNote(request=request, body=f"Called about {request.pk}") for request in requests
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def statements_with(marker: str, run) -> list[str]:
    """The SQL statements `run` sent that contain `marker`."""
    with CaptureQueriesContext(connection) as queries:
        run()
    statements = [q["sql"] for q in queries if marker in q["sql"]]
    assert statements, [q["sql"] for q in queries]
    return statements


def plan(sql: str) -> str:
    """The statement's plan with table scans ruled out: these test tables are so small that a
    scan would be cheaper; at a real desk's size the planner picks the indexes by itself
    (`make bench`)."""
    with connection.cursor() as cursor:
        cursor.execute("SET enable_seqscan = off")
        try:
            cursor.execute(f"EXPLAIN {sql}")
            return "\n".join(row[0] for row in cursor.fetchall())
        finally:
            cursor.execute("RESET enable_seqscan")


def rows_read(sql: str, table: str, alias: str | None = None) -> int:
    """Rows the statement read from `table` (named `alias` in it, if given), every scan of it
    counted (EXPLAIN ANALYZE)."""
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN (ANALYZE, FORMAT JSON) {sql}")
        (document,) = cursor.fetchone()
    nodes = [(json.loads(document) if isinstance(document, str) else document)[0]["Plan"]]
    total = 0
    while nodes:
        node = nodes.pop()
        if node.get("Relation Name") == table and alias in (None, node.get("Alias")):
            total += node["Actual Rows"] * node["Actual Loops"]
        nodes.extend(node.get("Plans", []))
    return total


def queue(api, q):
    response = api.get("concierge/requests", query={"q": q})
    assert response.status_code == 200, response.content
    return response.json()


def search(api, q):
    response = api.get("concierge/search", query={"q": q})
    assert response.status_code == 200, response.content
    return response.json()["results"]


def test_desk_search_reads_the_gin_indexes(concierge_api, concierge, user, make_request):
    """A rare word is looked up in the GIN indexes of requests, messages and notes."""
    add_requests(user, 300)
    target = make_request(user, name="Tune the harpsichord")
    desk_services.note_create(request=target, author=concierge, body="Harpsichord tuner booked")

    (statement,) = statements_with("ts_rank", lambda: search(concierge_api, "harpsichord"))
    shown = plan(statement)
    for index in ("request_search", "message_search", "note_search"):
        assert f"Bitmap Index Scan on {index}" in shown, shown


def test_common_word_reads_a_bounded_number_of_rows(concierge_api, user):
    """Ranking sees each source's newest matches only: a word in all of 18,000 messages reads
    as many message rows as in 12,000: CANDIDATES to rank, and the results' own to quote."""
    add_requests(user, 2_000)
    assert Message.objects.count() > WINDOW
    (statement,) = statements_with("ts_rank", lambda: search(concierge_api, "please"))
    few = rows_read(statement, "servicerequests_message")

    add_requests(user, 1_000)
    (statement,) = statements_with("ts_rank", lambda: search(concierge_api, "please"))
    many = rows_read(statement, "servicerequests_message")

    assert Message.objects.count() == 18_000
    assert few == many <= CANDIDATES + RESULTS_DEFAULT
    assert len(search(concierge_api, "please")) == RESULTS_DEFAULT


def test_queue_search_box_reads_the_gin_indexes(concierge_api, user, make_request):
    """The queue's search box finds names and messages through the same GIN indexes."""
    add_requests(user, 300)
    make_request(user, name="Tune the harpsichord")

    statements = statements_with(
        "servicerequests_message", lambda: queue(concierge_api, "harpsichord")
    )
    shown = "\n".join(plan(sql) for sql in statements)
    for index in ("request_search", "message_search"):
        assert f"Bitmap Index Scan on {index}" in shown, shown


def test_queue_search_box_tests_a_common_word_request_by_request(concierge_api, user):
    """A word in every message is tested on the requests the queue reads (its page and its
    counts stop early), reading one message of each, instead of collecting all 12,000
    messages that have it from the GIN index first."""
    add_requests(user, 2_000)

    statements = statements_with("searched", lambda: queue(concierge_api, "please"))
    searched = [rows_read(sql, "servicerequests_message", "searched") for sql in statements]

    assert 0 < max(searched) <= ServiceRequest.objects.count() < Message.objects.count()
    assert not any("message_search" in plan(sql) for sql in statements)


def test_a_mistyped_word_finds_names_like_it(concierge_api, user, make_request):
    """Issue 29 desk search: a typo ('handymn') finds 'Get a handyman' by its name's likeness,
    when the words themselves match nothing; a word that matches is searched as ever."""
    handyman = make_request(user, name="Get a handyman")
    make_request(user, name="Book a restaurant")
    (hit,) = search(concierge_api, "handymn")
    assert (hit["id"], hit["match"], hit["snippet_html"]) == (
        handyman.pk,
        "request",
        "Get a handyman",
    )
    (hit,) = search(concierge_api, "handyman")
    assert "<mark>handyman</mark>" in hit["snippet_html"]
    assert search(concierge_api, "zzqx") == []


def test_the_typo_fallback_reads_the_names_trigram_index(concierge_api, user, make_request):
    """Issue 29 desk search: the likeness of names is looked up in their trigram index."""
    add_requests(user, 300)
    make_request(user, name="Get a handyman")
    (statement,) = statements_with("word_similarity", lambda: search(concierge_api, "handymn"))
    shown = plan(statement)
    assert "request_name_trigrams" in shown, shown
