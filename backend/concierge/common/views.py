"""Serves the built single-page app for every path the API and admin do not own."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.views import defaults
from django.views.decorators.http import require_GET

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
