"""The desk search scenario: `GET /api/v1/concierge/search` for a word found in nearly every
request and message and for a word found once, side by side at a fixed rate, as the bench
concierge. Goal: p99 <= 100 ms for both at 10x data (`--scale 10`: 100,000 requests, 1,000,000
messages).

The words are the first of each list below that the data set answers as expected: the bench
seed's (every message quotes plumbers; one request is 'Request 17 of 042') or those of
`python -m bench.search_data` (a desk's vocabulary with a long tail, booking references).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol
from urllib.parse import urlencode

import httpx

if TYPE_CHECKING:
    from bench.cli import Bench, LayoutFigures, Prepared
    from bench.layouts import Layout

SEARCH_PATH = "/api/v1/concierge/search"
COMMON_WORDS = ("please", "plumber")
RARE_WORDS = ("request 17 042", "zq00042")
RATE = 5.0  # searches per second of each kind: two concierges typing
# Every worker thread and pooled connection has run (and prepared) the search before it is
# measured, as on a desk that searches all day.
WARM_UP_SECONDS = 3.0
P99_GOAL_MS = 100.0
FULL_PAGE = 20  # a common word fills the default page


class Each(Protocol):
    def __call__(self, step: Callable[[LayoutFigures, Layout, Prepared], None]) -> None: ...


def search_path(words: str) -> str:
    return f"{SEARCH_PATH}?{urlencode({'q': words})}"


def chosen_words(layout: Layout, prepared: Prepared) -> tuple[str, str]:
    """(common, rare): a common word fills a page of results, a rare one finds 1 to 3."""
    with httpx.Client(base_url=layout.api_url, headers=prepared.concierge_auth, timeout=300) as c:

        def found(words: str) -> int:
            answer = c.get(SEARCH_PATH, params={"q": words})
            return len(answer.json()["results"]) if answer.status_code == 200 else -1

        common = next((w for w in COMMON_WORDS if found(w) == FULL_PAGE), None)
        rare = next((w for w in RARE_WORDS if 1 <= found(w) <= 3), None)
    if common is None or rare is None:
        raise SystemExit(f"{layout.spec.key}: the desk search finds none of its words; reseed.")
    return common, rare


def run(bench: Bench, each: Each) -> None:
    """Common and rare words at RATE each, together, on each layout in turn."""
    print(
        f"desk search: a common and a rare word at {RATE:g}/s each for {bench.args.seconds:g} s",
        flush=True,
    )
    each(lambda f, lay, p: _measure(bench, f, lay, p))


def _always(payload: bytes) -> Callable[[], bytes]:
    return lambda: payload


def _measure(bench: Bench, figures: LayoutFigures, layout: Layout, prepared: Prepared) -> None:
    from bench.load import Stream, http_request, open_loop

    common, rare = chosen_words(layout, prepared)
    host = layout.api_url.removeprefix("http://")
    streams = []
    for label, words in (("search-common", common), ("search-rare", rare)):
        payload = http_request("GET", search_path(words), host, prepared.concierge_auth)
        streams.append(Stream(label, RATE, _always(payload)))
    args = bench.args
    warm_up = [Stream(s.name, 4 * RATE, s.next_request) for s in streams]
    open_loop(
        layout.api_url,
        warm_up,
        seconds=WARM_UP_SECONDS,
        timeout=args.timeout,
        max_in_flight=args.max_in_flight,
    )
    layout.wait_idle()
    rows_before = len(figures.rows)
    bench.fixed(figures, layout, "desk-search", streams)
    for row, words in zip(figures.rows[rows_before:], (common, rare), strict=True):
        row.note = f"q={words!r}"
        if not row.p99 <= P99_GOAL_MS:
            figures.problems.append(
                f"desk search {words!r}: p99 {row.p99:.0f} ms (goal <= {P99_GOAL_MS:g} ms)"
            )
