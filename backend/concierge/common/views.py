"""Serves the built single-page app for every path the API and admin do not own."""

from __future__ import annotations

import gzip
import re
import secrets
from functools import cache
from pathlib import Path

import brotli
from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.http.response import HttpResponseBase
from django.utils.cache import patch_vary_headers
from django.views import defaults
from django.views.decorators.http import require_GET, require_safe
from django.views.static import serve as static_serve

from concierge.common.errors import NotFound, error_body

PARTNER_PRODUCTS = {
    "term-life-insurance",
    "auto-insurance",
    "home-insurance",
    "home-warranty",
    "renters-insurance",
    "pet-insurance",
    "wills-and-trusts",
}


# The names index.html knows a path by (see frontend/index.html and vite.config.ts): the first
# picks the static first paint shown while the script loads (the sign-in page, the rest of the
# sign-in family, or the signed-in skeleton), the second (<html data-page>) what a screen adds to
# it; each name keeps its screens' code preloads.
PAGE_NAMES = (
    (re.compile(r"^/sign-in/?$"), ("sign-in",)),
    (
        re.compile(
            r"^/(sign-up|forgot-password|reset-password|unlock|mfa-enrollment|users/sign_)"
            r"|^/[^/]+/unlock$"
        ),
        ("auth",),
    ),
    (re.compile(r"^/dashboard/?$"), ("app", "dashboard")),
    (re.compile(r"^/requests/?$"), ("app", "requests")),
    (re.compile(r"^/benefits-and-offers/?$"), ("app", "benefits-and-offers")),
    (re.compile(r"^/(requests|benefits-and-offers|account)(/|$)"), ("app",)),
)
# The sign-in family's first names: no session yet, and a customer quote in the first paint.
SIGN_IN_FAMILY = ("sign-in", "auth")
PRELOAD_LINK = re.compile(
    rb'\s*<link rel="modulepreload" crossorigin href="[^"]+"(?: media="[^"]+")? data-for="([^"]+)">'
)
# The document's first script starts a signed-in page's first API requests (frontend/src/early.ts):
# the sign-in family has none to start, so its pages go without it.
EARLY_SCRIPT = re.compile(
    rb'\s*<script type="module" crossorigin src="/assets/early-[\w-]+\.js"></script>'
)
# The app's stylesheet goes inline, so the first paint needs the document alone: the shell then
# paints while the script is still on its way, instead of waiting for a second round trip.
STYLESHEET_LINK = re.compile(rb'<link rel="stylesheet" crossorigin href="/assets/([\w.-]+\.css)">')
ENCODINGS = ("br", "gzip")


def _page_names(path: str) -> tuple[str, ...]:
    return next((names for pattern, names in PAGE_NAMES if pattern.search(path)), ())


# The sign-in family's first paint holds every customer quote; each answer keeps one at random
# and names it on <html data-quote>, so the layout goes on showing the same one (spec §2).
QUOTE_FIGURE = re.compile(rb'<figure data-quote-for="(\d+)".*?</figure>', re.DOTALL)


@cache
def _quote_count(path: Path, mtime: float) -> int:
    return len(QUOTE_FIGURE.findall(path.read_bytes()))


@cache
def _index_html(
    path: Path, mtime: float, names: tuple[str, ...], quote: int | None
) -> dict[str, bytes]:
    """index.html for a path's names and quote, plain and compressed (computed once per build)."""
    html = path.read_bytes()
    attributes = f'data-shell="{names[0]}" ' if names else ""
    attributes += f'data-page="{names[1]}" ' if len(names) > 1 else ""
    attributes += f'data-quote="{quote}" ' if quote is not None else ""
    html = html.replace(b"<html ", f"<html {attributes}".encode(), 1)

    def keep_own_preloads(link: re.Match[bytes]) -> bytes:
        wanted = set(link.group(1).decode().split())
        return link.group(0) if wanted.intersection(names) else b""

    def keep_picked_quote(figure: re.Match[bytes]) -> bytes:
        return figure.group(0) if int(figure.group(1)) == quote else b""

    def inline_stylesheet(link: re.Match[bytes]) -> bytes:
        stylesheet = path.parent / "assets" / link.group(1).decode()
        css = stylesheet.read_bytes() if stylesheet.is_file() else b""
        if not css or b"</style" in css.lower():
            return link.group(0)
        return b"<style>" + css + b"</style>"

    html = PRELOAD_LINK.sub(keep_own_preloads, html)
    if names and names[0] in SIGN_IN_FAMILY:
        html = EARLY_SCRIPT.sub(b"", html)
    html = QUOTE_FIGURE.sub(keep_picked_quote, html)
    html = STYLESHEET_LINK.sub(inline_stylesheet, html)
    return {"": html, "br": brotli.compress(html), "gzip": gzip.compress(html)}


def _pick_quote(index: Path, mtime: float, names: tuple[str, ...]) -> int | None:
    count = _quote_count(index, mtime)
    if not count or not names or names[0] not in SIGN_IN_FAMILY:
        return None
    return secrets.randbelow(count)


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
    mtime = index.stat().st_mtime
    names = _page_names(request.path)
    variants = _index_html(index, mtime, names, _pick_quote(index, mtime, names))
    encoding = _accepted_encoding(request)
    response = HttpResponse(variants[encoding], content_type="text/html; charset=utf-8")
    if encoding:
        response["Content-Encoding"] = encoding
    patch_vary_headers(response, ("Accept-Encoding",))
    response["Cache-Control"] = "no-cache"
    return response


# Catalogue images keep their name until an admin replaces them (a new file gets a new name).
PUBLIC_MEDIA_MAX_AGE_SECONDS = 24 * 60 * 60


# A drawing (SVG) opened on its own is a page of this site: it runs no script, loads nothing
# and reaches nothing of the app (its own origin, sandboxed), whatever an admin uploaded.
PUBLIC_MEDIA_POLICY = "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox"


@require_safe
def public_media(request: HttpRequest, path: str) -> HttpResponseBase:
    """A public catalogue file on local storage, cacheable for a day (uploads never come here)."""
    response = static_serve(request, path, document_root=str(settings.MEDIA_ROOT))
    response["Cache-Control"] = f"public, max-age={PUBLIC_MEDIA_MAX_AGE_SECONDS}"
    if response.get("Content-Type") != "application/pdf":  # the browser's PDF viewer needs scripts
        response["Content-Security-Policy"] = PUBLIC_MEDIA_POLICY
    return response


@require_GET
def partner_quote(request: HttpRequest, product: str) -> HttpResponse:
    """/products/{product}: sends the browser to the partner quote site (spec §2 route table)."""
    if product not in PARTNER_PRODUCTS:
        return spa_index(request)
    return HttpResponseRedirect(f"{settings.PARTNER_QUOTE_BASE_URL}/{product}")


API_ERROR_500 = "Something went wrong on our side. Please try again later."


def _is_api(request: HttpRequest) -> bool:
    """Under /api/ every error is the API's JSON error body; elsewhere Django's page."""
    return request.path.startswith("/api/")


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _is_api(request):
        return JsonResponse(error_body(NotFound().message), status=404)
    return defaults.page_not_found(request, exception)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _is_api(request):
        return JsonResponse(error_body("The request is not valid."), status=400)
    return defaults.bad_request(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    if _is_api(request):
        return JsonResponse(error_body(API_ERROR_500), status=500)
    return defaults.server_error(request)
