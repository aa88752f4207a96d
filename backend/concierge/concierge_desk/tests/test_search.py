"""Issue 'Full-text search': the desk searches request names, survey answers, messages and
internal notes across all time, ranked, with the matching words highlighted; the index is kept
up to date on every write. These tests run on the suite's database (PostgreSQL full-text with
GIN indexes, or SQLite FTS5); on PostgreSQL the last one runs them again on SQLite."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connection
from django.utils import timezone

from concierge.concierge_desk import services as desk_services
from concierge.servicerequests import services

pytestmark = pytest.mark.django_db

BACKEND = Path(__file__).resolve().parents[3]


def search(api, q, **query):
    response = api.get("concierge/search", query={"q": q, **query})
    assert response.status_code == 200, response.content
    return response.json()["results"]


def test_search_finds_names_answers_messages_and_notes(
    concierge_api, concierge, user, make_request
):
    """Each source is searched; the result says where the best match is, highlighted."""
    named = make_request(user, name="Plumber for the kitchen sink")
    answered = make_request(
        user, name="Find a dog walker", details="Dog size: Large\nBreed: Beagle"
    )
    messaged = make_request(user, name="Dinner")
    services.message_create(request=messaged, author=user, body="Somewhere with a terrace & view")
    noted = make_request(user, name="Gift")
    desk_services.note_create(request=noted, author=concierge, body="Prefers the florist on 5th")

    (hit,) = search(concierge_api, "plumber")
    assert (hit["id"], hit["match"]) == (named.pk, "request")
    assert "<mark>Plumber</mark>" in hit["snippet_html"]
    (hit,) = search(concierge_api, "beagle")
    assert (hit["id"], hit["match"]) == (answered.pk, "request")
    assert "<mark>Beagle</mark>" in hit["snippet_html"]
    (hit,) = search(concierge_api, "terrace")
    assert (hit["id"], hit["match"]) == (messaged.pk, "message")
    assert hit["snippet_html"] == "Somewhere with a <mark>terrace</mark> &amp; view"
    (hit,) = search(concierge_api, "florist")
    assert (hit["id"], hit["match"]) == (noted.pk, "note")
    assert hit["employee"]["full_name"] == "Ada Lovelace"
    assert hit["company"]["name"] == "Acme Corp"


def test_a_message_is_searched_by_its_words_not_its_markup(concierge_api, user, make_request):
    """A message is stored as HTML (line breaks, links, '&' escaped): its markup finds nothing,
    and its snippet shows the words as they were written."""
    cleaning = make_request(user, name="Cleaning")
    services.message_create(
        request=cleaning,
        author=user,
        body="Sparkle & Shine <b>twice</b>\nsee https://example.com/q?a=1&b=2",
    )
    for q in ("amp", "lt", "br", "href", "nofollow", "blank"):
        assert search(concierge_api, q) == [], q
    (hit,) = search(concierge_api, "sparkle")
    assert hit["snippet_html"].startswith("<mark>Sparkle</mark> &amp; Shine &lt;b&gt;twice")
    (hit,) = search(concierge_api, "twice")
    assert hit["id"] == cleaning.pk


def test_a_request_number_finds_that_request_first(concierge_api, user, make_request):
    """The desk writes requests as '#42' (the queue's search box takes that too): the number,
    with or without '#', finds the request before any text that holds the number."""
    numbered = make_request(user, name="Renew my passport")
    mentions = make_request(user, name=f"Room {numbered.pk} at the hotel")
    for q in (f"#{numbered.pk}", str(numbered.pk), f" #{numbered.pk} "):
        hits = search(concierge_api, q)
        assert [(hit["id"], hit["match"]) for hit in hits] == [
            (numbered.pk, "request"),
            (mentions.pk, "request"),
        ], q
        assert hits[0]["snippet_html"] == f"<mark>#{numbered.pk}</mark>"
    assert search(concierge_api, "#999999") == []  # no such request


def test_search_stems_and_prefixes_and_needs_every_word(concierge_api, user, make_request):
    """'walk' finds 'walkers' and 'walking'; every word must match."""
    walkers = make_request(user, name="Dog walkers near the park")
    make_request(user, name="Cat sitter near the park")
    assert [r["id"] for r in search(concierge_api, "walk")] == [walkers.pk]
    assert [r["id"] for r in search(concierge_api, "walking park")] == [walkers.pk]
    assert search(concierge_api, "walk piano") == []


def test_search_ranking_name_first_then_more_matches(concierge_api, concierge, user, make_request):
    """Ranked: a match in the name (or survey answers) comes first; then the more texts
    match, the higher."""
    in_message = make_request(user, name="Weekend plans")
    services.message_create(
        request=in_message, author=user, body="Could you find a passport photo booth?"
    )
    in_name = make_request(user, name="Renew my passport")
    twice = make_request(user, name="Travel documents")
    services.message_create(request=twice, author=user, body="My passport expires soon")
    desk_services.note_create(request=twice, author=concierge, body="Passport office opens at 9")
    ranked = [r["id"] for r in search(concierge_api, "passport")]
    assert ranked[0] == in_name.pk
    assert ranked.index(twice.pk) < ranked.index(in_message.pk)
    ranks = [r["rank"] for r in search(concierge_api, "passport")[1:]]
    assert ranks == sorted(ranks, reverse=True)


def test_search_covers_all_time_and_is_kept_up_to_date(concierge_api, user, make_request):
    """An old request is found; a new message is searchable at once; a deleted one is not."""
    old = make_request(user, name="Old request")
    old.issued_at = timezone.now() - timedelta(days=3 * 365)
    old.save(update_fields=["issued_at"])
    message = services.message_create(request=old, author=user, body="The harpsichord needs tuning")
    assert [r["id"] for r in search(concierge_api, "harpsichord")] == [old.pk]
    message.delete()
    assert search(concierge_api, "harpsichord") == []


def test_search_escapes_html_and_odd_input(concierge_api, user, make_request):
    """Snippets are escaped HTML; quotes, operators and symbols never break the query."""
    service_request = make_request(user, name="Party")
    services.message_create(
        request=service_request, author=user, body="<script>alert(1)</script> balloons"
    )
    (hit,) = search(concierge_api, "balloons")
    assert "<script>" not in hit["snippet_html"]
    assert "<mark>balloons</mark>" in hit["snippet_html"]
    for odd in ('"', "a & | ! ( ) :*", "NEAR(", "'; DROP TABLE x; --", "é ü", "*", "-x"):
        assert concierge_api.get("concierge/search", query={"q": odd}).status_code == 200
    assert concierge_api.get("concierge/search", query={"q": ""}).status_code == 422


def test_search_fixed_query_count_and_concierges_only(
    concierge_api, signed_in_api, user, make_request, django_assert_max_num_queries
):
    for n in range(8):
        make_request(user, name=f"Concert tickets {n}")
    with django_assert_max_num_queries(8):
        assert len(search(concierge_api, "concert")) == 8
    assert signed_in_api.get("concierge/search", query={"q": "concert"}).status_code == 403


def test_the_queue_search_box_takes_words_as_the_search_does(concierge_api, user, make_request):
    """The queue's search box and the desk search agree: punctuation around a word ('"storage',
    'gift*', '(storage)') is no part of it, on either database."""
    stored = make_request(user, name="Find a storage unit")
    services.message_create(request=stored, author=user, body="A gift for my sister")
    make_request(user, name="Dinner for two")

    def queue_ids(q: str) -> list[int]:
        response = concierge_api.get("concierge/requests", query={"q": q, "status": "open"})
        assert response.status_code == 200, response.content
        return [r["id"] for r in response.json()["requests"]]

    for q in ('"storage', "storage!", "gift*", "(storage)", '"find unit"', "-gift"):
        assert queue_ids(q) == [stored.pk], q
        assert [hit["id"] for hit in search(concierge_api, q)] == [stored.pk], q


@pytest.mark.skipif(
    connection.vendor != "postgresql" or os.environ.get("SEARCH_ON_SQLITE") == "1",
    reason="runs the same tests again on SQLite when the suite runs on PostgreSQL",
)
def test_search_on_sqlite_fts5(tmp_path):
    """The same search tests on SQLite, the embedded default (FTS5)."""
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'search.sqlite3'}",
        "VAR_DIR": str(tmp_path),  # the test database's folder (a fresh clone has no var/)
        "SEARCH_ON_SQLITE": "1",
    }
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", __file__],
        cwd=BACKEND,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "9 passed" in result.stdout
