"""Serves the built single-page app for every path the API and admin do not own."""

from __future__ import annotations

import gzip
import re
from functools import cache
from pathlib import Path

import brotli
from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET, require_safe

PARTNER_PRODUCTS = {
    "term-life-insurance",
    "auto-insurance",
    "home-insurance",
    "home-warranty",
    "renters-insurance",
    "pet-insurance",
    "wills-and-trusts",
}


# index.html carries a static first paint for these families of paths, shown while the script
# loads (see frontend/index.html): the sign-in family's layout, or the signed-in skeleton.
SHELLS = (
    ("sign-in", re.compile(r"^/sign-in/?$")),
    (
        "auth",
        re.compile(
            r"^/(sign-up|forgot-password|reset-password|unlock|mfa-enrollment|users/sign_)"
            r"|^/[^/]+/unlock$"
        ),
    ),
    ("app", re.compile(r"^/(dashboard|requests|benefits-and-offers|account)(/|$)")),
)
ENCODINGS = ("br", "gzip")


def _shell_for(path: str) -> str:
    return next((name for name, pattern in SHELLS if pattern.search(path)), "")


@cache
def _index_html(path: Path, mtime: float, shell: str) -> dict[str, bytes]:
    """index.html marked with its shell, plain and compressed (computed once per build)."""
    html = path.read_bytes()
    if shell:
        html = html.replace(b"<html ", f'<html data-shell="{shell}" '.encode(), 1)
    return {"": html, "br": brotli.compress(html), "gzip": gzip.compress(html)}


def _accepted_encoding(request: HttpRequest) -> str:
    accepted = {
        part.split(";")[0].strip().lower()
        for part in request.headers.get("Accept-Encoding", "").split(",")
    }
    return next((encoding for encoding in ENCODINGS if encoding in accepted), "")


@require_safe
def spa_index(request: HttpRequest, path: str = "") -> HttpResponse:
    index = Path(settings.SPA_DIST_DIR) / "index.html"
    if not index.exists():
        return HttpResponse(
            "The web app has not been built yet: run `make run` (or `make build`).",
            status=503,
            content_type="text/plain",
        )
    variants = _index_html(index, index.stat().st_mtime, _shell_for(request.path))
    encoding = _accepted_encoding(request)
    response = HttpResponse(variants[encoding], content_type="text/html; charset=utf-8")
    if encoding:
        response["Content-Encoding"] = encoding
    patch_vary_headers(response, ("Accept-Encoding",))
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def partner_quote(request: HttpRequest, product: str) -> HttpResponse:
    """/products/{product}: sends the browser to the partner quote site (spec §2 route table)."""
    if product not in PARTNER_PRODUCTS:
        return spa_index(request)
    return HttpResponseRedirect(f"{settings.PARTNER_QUOTE_BASE_URL}/{product}")
