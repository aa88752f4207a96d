"""Serves the built single-page app for every path the API and admin do not own."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.views.decorators.http import require_GET

PARTNER_PRODUCTS = {
    "term-life-insurance",
    "auto-insurance",
    "home-insurance",
    "home-warranty",
    "renters-insurance",
    "pet-insurance",
    "wills-and-trusts",
}


@cache
def _index_html(path: Path, mtime: float) -> bytes:
    return path.read_bytes()


@require_GET
def spa_index(request: HttpRequest, path: str = "") -> HttpResponse:
    index = Path(settings.SPA_DIST_DIR) / "index.html"
    if not index.exists():
        return HttpResponse(
            "The web app has not been built yet: run `make run` (or `make build`).",
            status=503,
            content_type="text/plain",
        )
    response = HttpResponse(_index_html(index, index.stat().st_mtime), content_type="text/html")
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def partner_quote(request: HttpRequest, product: str) -> HttpResponse:
    """/products/{product}: sends the browser to the partner quote site (spec §2 route table)."""
    if product not in PARTNER_PRODUCTS:
        return spa_index(request)
    return HttpResponseRedirect(f"{settings.PARTNER_QUOTE_BASE_URL}/{product}")
