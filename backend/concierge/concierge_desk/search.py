"""The desk's full-text search: request names and their survey answers (the request's
details), messages and internal notes, across all time, ranked, with the matching words
highlighted.

PostgreSQL ranks with `ts_rank` over the GIN-indexed `to_tsvector('english', ...)`
expressions of migration 0002 and highlights with `ts_headline`; SQLite ranks with FTS5's
`bm25` over the `desk_search` table the migration's triggers keep filled, and highlights
with `snippet`. Both stem English words and match word prefixes, so 'walk' finds 'walkers'.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import escape

from django.db import connection

from concierge.servicerequests.html import html_to_text

TERMS_MAX = 8
TERM_CHARS = 40
RESULTS_MAX = 50
RESULTS_DEFAULT = 20
# Marks around the matching words, swapped for <mark> once the snippet is plain, escaped text.
START, STOP = "\u2063[[", "]]\u2063"
_TERM = re.compile(r"\w+", re.UNICODE)
_TAG = re.compile(r"<[^<>]*>|^[^<]*>|<[^>]*$")


@dataclass(frozen=True)
class SearchHit:
    request_id: int
    rank: float
    kind: str  # 'request', 'message' or 'note'
    snippet_html: str


def search_terms(q: str) -> list[str]:
    """The words of a search (letters and digits), at most TERMS_MAX of TERM_CHARS each."""
    return [t[:TERM_CHARS] for t in _TERM.findall(q or "")][:TERMS_MAX]


def _snippet_html(raw: str, kind: str) -> str:
    """A database snippet as safe HTML: tags of a message's HTML dropped, everything escaped,
    the matching words in <mark>."""
    text = raw or ""
    if kind == "message":
        text = html_to_text(_TAG.sub(" ", text.replace("<br>", "\n")))
    text = " ".join(text.split())
    html = escape(text, quote=False)
    return html.replace(escape(START), "<mark>").replace(escape(STOP), "</mark>")


def _postgres(terms: list[str], limit: int) -> list[SearchHit]:
    query = " & ".join(f"{term}:*" for term in terms)
    request_vector = (
        "(setweight(to_tsvector('english'::regconfig, r.name), 'A') || "
        "setweight(to_tsvector('english'::regconfig, r.details), 'B'))"
    )
    message_vector = "to_tsvector('english'::regconfig, m.body_html)"
    note_vector = "to_tsvector('english'::regconfig, n.body)"
    sql = f"""
        WITH q AS (SELECT to_tsquery('english', %s) AS query),
        hits AS (
            SELECT r.id AS request_id, 'request' AS kind, r.id AS source_id,
                   ts_rank({request_vector}, q.query) * 2 AS rank
              FROM servicerequests_servicerequest r, q WHERE {request_vector} @@ q.query
            UNION ALL
            SELECT m.request_id, 'message', m.id, ts_rank({message_vector}, q.query)
              FROM servicerequests_message m, q WHERE {message_vector} @@ q.query
            UNION ALL
            SELECT n.request_id, 'note', n.id, ts_rank({note_vector}, q.query)
              FROM concierge_desk_internalnote n, q WHERE {note_vector} @@ q.query
        ),
        best AS (
            SELECT DISTINCT ON (request_id) request_id, kind, source_id,
                   SUM(rank) OVER (PARTITION BY request_id) AS score,
                   MAX(CASE WHEN kind = 'request' THEN 1 ELSE 0 END)
                       OVER (PARTITION BY request_id) AS named
              FROM hits ORDER BY request_id, rank DESC, source_id
        ),
        top AS (SELECT * FROM best ORDER BY named DESC, score DESC, request_id DESC LIMIT %s)
        SELECT top.request_id, top.score, top.kind,
               CASE top.kind
                 WHEN 'request' THEN ts_headline('english', r.name || ' — ' || r.details,
                                                 q.query, %s)
                 WHEN 'message' THEN ts_headline('english', m.body_html, q.query, %s)
                 ELSE ts_headline('english', n.body, q.query, %s)
               END
          FROM top CROSS JOIN q
          LEFT JOIN servicerequests_servicerequest r
                 ON top.kind = 'request' AND r.id = top.source_id
          LEFT JOIN servicerequests_message m ON top.kind = 'message' AND m.id = top.source_id
          LEFT JOIN concierge_desk_internalnote n ON top.kind = 'note' AND n.id = top.source_id
         ORDER BY top.named DESC, top.score DESC, top.request_id DESC
    """  # noqa: S608  (only the constant expressions above are formatted in)
    options = f'StartSel="{START}", StopSel="{STOP}", MaxWords=30, MinWords=12, MaxFragments=2'
    with connection.cursor() as cursor:
        cursor.execute(sql, [query, limit, options, options, options])
        rows = cursor.fetchall()
    return [
        SearchHit(
            request_id=r[0], rank=float(r[1]), kind=r[2], snippet_html=_snippet_html(r[3], r[2])
        )
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
                snippet_html=_snippet_html(snippet, kind),
            )
        )
    return hits


def request_search(*, q: str, limit: int = RESULTS_DEFAULT) -> list[SearchHit]:
    """The requests whose name, survey answers, messages or notes contain every word of `q`
    (as a word or a word's beginning), best first: requests whose name or survey answers match
    come first, then by relevance (the better and the more of its texts match, the higher).
    Each with its best match highlighted. One query."""
    terms = search_terms(q)
    if not terms:
        return []
    limit = max(1, min(limit, RESULTS_MAX))
    if connection.vendor == "postgresql":
        return _postgres(terms, limit)
    return _sqlite(terms, limit)
