"""The desk's full-text search: request names and their survey answers (the request's
details), messages and internal notes, across all time, ranked, with the matching words
highlighted.

PostgreSQL ranks with `ts_rank` over the stored, GIN-indexed `search_vector` columns the
database keeps (servicerequests 0007, concierge_desk 0003) and highlights with `ts_headline`.
Its cost stays bounded whatever the words: each source (requests, messages, notes) offers only
its CANDIDATES newest matches to ranking, found without reading every row of a common word, so
a word in every one of a million messages costs no more than a rare one.

SQLite ranks with FTS5's `bm25` over the `desk_search` table the triggers of migration 0002
keep filled, and highlights with `snippet`. Both stem English words and match word prefixes,
so 'walk' finds 'walkers'. When the words match nothing, PostgreSQL looks for request names
with a word like them (a typo: 'handymn' finds 'Get a handyman'), by trigram likeness.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import escape

from django.db import connection

from concierge.common.text_search import COLUMN, prefix_tsquery, search_words
from concierge.servicerequests.html import html_to_text
from concierge.servicerequests.selectors import request_number

RESULTS_MAX = 50
RESULTS_DEFAULT = 20
# Marks around the matching words, swapped for <mark> once the snippet is plain, escaped text.
START, STOP = "\u2063[[", "]]\u2063"
# PostgreSQL ranks each source's newest CANDIDATES matches (requests, messages, notes), found
# among its newest WINDOW rows or, for rarer words, through the GIN index.
CANDIDATES = 200
WINDOW = 10_000
_TAG = re.compile(r"<[^<>]*>|^[^<]*>|<[^>]*$")


@dataclass(frozen=True)
class SearchHit:
    request_id: int
    rank: float
    kind: str  # 'request', 'message' or 'note'
    snippet_html: str


def _snippet_html(raw: str, kind: str) -> str:
    """A database snippet as safe HTML: tags of a message's HTML dropped (PostgreSQL's
    snippets are of the stored HTML), everything escaped, the matching words in <mark>."""
    text = raw or ""
    if kind == "message":
        text = html_to_text(_TAG.sub(" ", text.replace("<br>", "\n")))
    text = " ".join(text.split())
    html = escape(text, quote=False)
    return html.replace(escape(START), "<mark>").replace(escape(STOP), "</mark>")


def _count(cte: str) -> str:
    return f"(SELECT count(*) FROM {cte})"  # noqa: S608  (a constant name)


def _indexed(table: str, request_id: str, query: str, run_if: str) -> str:
    """The table's newest CANDIDATES rows whose vector matches `q.<query>`, through the GIN
    index, when `run_if` holds (else none, at no cost). The query comes from a join with `q`,
    which the planner cannot estimate, behind an `OFFSET 0` it cannot see past: it always
    takes the GIN index, never the primary key's order nor a table scan."""
    return f"""
            SELECT id, request_id, {COLUMN} FROM (
                SELECT t.id, t.{request_id} AS request_id, t.{COLUMN} FROM {table} t, q
                 WHERE t.{COLUMN} @@ q.{query} AND {run_if}
                OFFSET 0
            ) matches ORDER BY id DESC LIMIT {CANDIDATES}"""  # noqa: S608  (constant names only)


def _candidates(source: str, table: str, request_id: str, weight: int = 1) -> str:
    """CTE `<source>_hits` (request_id, kind, source_id, rank): the source's newest CANDIDATES
    matches, ranked, found the cheapest way the words allow:

    1. Newest first among its newest WINDOW rows, stopping at CANDIDATES: a common word costs
       at most WINDOW rows, however many rows have it.
    2. Else (fewer than CANDIDATES there: rarer words) through the GIN index, as whole words:
       a lookup that skips through a common word's entries to a rarer word's.
    3. Else through the GIN index, the words or their beginnings ('walk' finds 'walkers'),
       which reads each word's entries whole. Its newest CANDIDATES include all of 1 and 2.

    In 1 the query is a parameter (`SELECT query FROM q`), so the newest rows stream through
    the filter in the primary key's order. Only the rows kept are ranked."""
    recent, whole = _count(f"{source}_recent"), _count(f"{source}_whole_words")
    whole_words = _indexed(table, request_id, "whole_words", f"{recent} < {CANDIDATES}")
    prefixes = _indexed(
        table, request_id, "query", f"{recent} < {CANDIDATES} AND {whole} < {CANDIDATES}"
    )
    return f"""
        {source}_recent AS (
            SELECT id, request_id, {COLUMN} FROM (
                SELECT id, {request_id} AS request_id, {COLUMN} FROM {table}
                 ORDER BY id DESC LIMIT {WINDOW}
            ) newest_rows
             WHERE {COLUMN} @@ (SELECT query FROM q) ORDER BY id DESC LIMIT {CANDIDATES}
        ),
        {source}_whole_words AS ({whole_words}),
        {source}_prefixes AS ({prefixes}),
        {source}_hits AS (
            SELECT request_id, '{source}' AS kind, id AS source_id,
                   ts_rank({COLUMN}, (SELECT query FROM q)) * {weight} AS rank
              FROM (SELECT * FROM {source}_recent WHERE {recent} >= {CANDIDATES}
                    UNION ALL
                    SELECT * FROM {source}_whole_words WHERE {whole} >= {CANDIDATES}
                    UNION ALL
                    SELECT * FROM {source}_prefixes) found
        )"""  # noqa: S608  (constant names only)


def _postgres(terms: list[str], limit: int) -> list[SearchHit]:
    sql = f"""
        WITH q AS (SELECT to_tsquery('english'::regconfig, %(query)s) AS query,
                          to_tsquery('english'::regconfig, %(whole_words)s) AS whole_words),
        {_candidates("request", "servicerequests_servicerequest", "id", weight=2)},
        {_candidates("message", "servicerequests_message", "request_id")},
        {_candidates("note", "concierge_desk_internalnote", "request_id")},
        hits AS (
            SELECT * FROM request_hits
            UNION ALL SELECT * FROM message_hits
            UNION ALL SELECT * FROM note_hits
        ),
        best AS (
            SELECT DISTINCT ON (request_id) request_id, kind, source_id,
                   SUM(rank) OVER (PARTITION BY request_id) AS score,
                   MAX(CASE WHEN kind = 'request' THEN 1 ELSE 0 END)
                       OVER (PARTITION BY request_id) AS named
              FROM hits ORDER BY request_id, rank DESC, source_id
        ),
        top AS (SELECT * FROM best ORDER BY named DESC, score DESC, request_id DESC
                LIMIT {limit:d})
        SELECT top.request_id, top.score, top.kind,
               CASE top.kind
                 WHEN 'request' THEN ts_headline('english', r.name || ' — ' || r.details,
                                                 q.query, %(options)s)
                 WHEN 'message' THEN ts_headline('english', m.body_html, q.query, %(options)s)
                 ELSE ts_headline('english', n.body, q.query, %(options)s)
               END
          FROM top CROSS JOIN q
          LEFT JOIN servicerequests_servicerequest r
                 ON top.kind = 'request' AND r.id = top.source_id
          LEFT JOIN servicerequests_message m ON top.kind = 'message' AND m.id = top.source_id
          LEFT JOIN concierge_desk_internalnote n ON top.kind = 'note' AND n.id = top.source_id
         ORDER BY top.named DESC, top.score DESC, top.request_id DESC
    """  # noqa: S608  (only the constant names and numbers above are formatted in)
    params: dict[str, str | int] = {
        "query": prefix_tsquery(terms),
        "whole_words": " & ".join(terms),
        "options": f'StartSel="{START}", StopSel="{STOP}", MaxWords=30, MinWords=12, '
        "MaxFragments=2",
    }
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    return [
        SearchHit(
            request_id=r[0], rank=float(r[1]), kind=r[2], snippet_html=_snippet_html(r[3], r[2])
        )
        for r in rows
    ]


def _similar_names(text: str, limit: int) -> list[SearchHit]:
    """Requests whose name holds a word like `text` (pg_trgm's word similarity, at its
    threshold), the likest first, through the names' trigram index (concierge_desk 0005)."""
    sql = """
        SELECT id, word_similarity(%(text)s, name) AS score, name
          FROM servicerequests_servicerequest
         WHERE %(text)s <%% name
         ORDER BY score DESC, id DESC LIMIT %(limit)s
    """
    with connection.cursor() as cursor:
        cursor.execute(sql, {"text": text, "limit": limit})
        rows = cursor.fetchall()
    return [
        SearchHit(request_id=r[0], rank=float(r[1]), kind="request", snippet_html=escape(r[2]))
        for r in rows
    ]


def _sqlite(terms: list[str], limit: int) -> list[SearchHit]:
    query = " ".join(f'"{term}"*' for term in terms)
    sql = """
        WITH hits AS (
            SELECT request_id, kind, source_id,
                   -bm25(desk_search, 0, 0, 0, 4.0, 1.0) AS rank,
                   CASE kind
                     WHEN 'request' THEN title || ' — ' ||
                                         snippet(desk_search, 4, %s, %s, '…', 24)
                     ELSE snippet(desk_search, 4, %s, %s, '…', 24)
                   END AS snippet,
                   highlight(desk_search, 3, %s, %s) AS title_marked
              FROM desk_search WHERE desk_search MATCH %s
        ),
        ranked AS (
            SELECT request_id, kind, snippet, title_marked, rank,
                   SUM(rank) OVER (PARTITION BY request_id) AS score,
                   MAX(CASE WHEN kind = 'request' THEN 1 ELSE 0 END)
                       OVER (PARTITION BY request_id) AS named,
                   ROW_NUMBER() OVER (PARTITION BY request_id ORDER BY rank DESC, source_id)
                       AS n
              FROM hits
        )
        SELECT request_id, score, kind, snippet, title_marked FROM ranked WHERE n = 1
         ORDER BY named DESC, score DESC, request_id DESC LIMIT %s
    """
    params: list[str | int] = [START, STOP, START, STOP, START, STOP, query, limit]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    hits = []
    for request_id, score, kind, snippet, title_marked in rows:
        if kind == "request" and START in (title_marked or ""):
            # The name matched: show it highlighted, then the details' snippet.
            details = (snippet or "").split(" — ", 1)[1] if " — " in (snippet or "") else ""
            snippet = f"{title_marked} — {details}" if details else title_marked
        hits.append(
            SearchHit(
                request_id=int(request_id),
                rank=float(score),
                kind=kind,
                snippet_html=_snippet_html(snippet, "text"),  # FTS5 indexes plain text
            )
        )
    return hits


def request_search(*, q: str, limit: int = RESULTS_DEFAULT) -> list[SearchHit]:
    """The requests whose name, survey answers, messages or notes contain every word of `q`
    (as a word or a word's beginning), best first: requests whose name or survey answers match
    come first, then by relevance (the better and the more of its texts match, the higher);
    a request's number ('42', '#42') finds that request before them. Each with its best match
    highlighted. One query; on PostgreSQL, when it finds nothing, a
    second for names with a word like the words (a typo)."""
    terms = search_words(q)
    if not terms:
        return []
    limit = max(1, min(limit, RESULTS_MAX))
    if connection.vendor == "postgresql":
        hits = _postgres(terms, limit) or _similar_names(" ".join(terms), limit)
    else:
        hits = _sqlite(terms, limit)
    number = request_number(q)
    if number is None:
        return hits
    # A request's number ('#42', as the desk writes it) finds that request first.
    by_number = SearchHit(
        request_id=number,
        rank=max((hit.rank for hit in hits), default=0.0) + 1.0,
        kind="request",
        snippet_html=f"<mark>#{number}</mark>",
    )
    return [by_number, *(hit for hit in hits if hit.request_id != number)][:limit]
