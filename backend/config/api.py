"""The one NinjaAPI: routers, error bodies and authentication defaults."""

from __future__ import annotations

import json
import logging

from django.conf import settings
from django.contrib.admin.views.decorators import staff_member_required
from django.db import OperationalError
from django.http import HttpRequest, HttpResponse
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, ValidationError

from concierge.accounts.api import router as accounts_router
from concierge.accounts.auth import token_auth
from concierge.common.api import router as common_router
from concierge.common.db_errors import STATEMENT_STOPPED, statement_stopped
from concierge.common.errors import ApiError, RateLimited, error_body
from concierge.common.openapi import document_error_responses
from concierge.common.parser import ApiParser
from concierge.common.validation import too_long
from concierge.company_reports.api import router as company_reports_router
from concierge.concierge_desk.api import router as concierge_desk_router
from concierge.live.api import router as live_router
from concierge.notification_settings.api import router as notification_settings_router
from concierge.offerings.api import router as offerings_router
from concierge.privacy.api import router as privacy_router
from concierge.provisioning.api import router as provisioning_router
from concierge.satisfaction.api import router as satisfaction_router
from concierge.servicerequests.api import router as servicerequests_router
from concierge.sso.api import router as sso_router
from concierge.surveys.api import router as surveys_router
from concierge.uploads.api import router as uploads_router

logger = logging.getLogger(__name__)


class Api(NinjaAPI):
    def get_openapi_schema(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        return document_error_responses(super().get_openapi_schema(*args, **kwargs))


api = Api(
    title=f"{settings.PRODUCT_NAME} API",
    version="1",
    urls_namespace="api",
    auth=token_auth,
    docs_decorator=staff_member_required,
    parser=ApiParser(),
)


def _field_name(loc: tuple | list) -> str:
    """The field an error is about: the last name of its location after Ninja's own (where
    the value came from and, for a body, the view's parameter), the spec's `{"user": {...}}`
    envelope left out. A field may itself be called `body` (a message's)."""
    names = [str(part) for part in loc if isinstance(part, str)]
    fields = names[2:] if names[:1] == ["body"] else names[1:]
    fields = [name for name in fields if name != "user"]
    return fields[-1] if fields else "non_field"


def _message(error: dict) -> str:
    if error.get("type") == "json_invalid":
        return "The request body is not valid JSON."
    if error.get("type") == "string_too_long":
        return too_long(error["ctx"]["max_length"])
    message = str(error.get("msg", "Invalid value"))
    return message.removeprefix("Value error, ")


@api.exception_handler(ValidationError)
def on_validation_error(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    errors: dict[str, list[str]] = {}
    for error in exc.errors:
        errors.setdefault(_field_name(error.get("loc", ())), []).append(_message(error))
    first = next(iter(errors.values()))[0] if errors else "Invalid request"
    return api.create_response(request, error_body(first, errors), status=422)


@api.exception_handler(ApiError)
def on_api_error(request: HttpRequest, exc: ApiError) -> HttpResponse:
    response = api.create_response(
        request, error_body(exc.message, exc.errors), status=exc.status_code
    )
    if isinstance(exc, RateLimited):
        response["Retry-After"] = str(exc.retry_after)
    return response


@api.exception_handler(AuthenticationError)
def on_authentication_error(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
    return api.create_response(request, error_body("Please sign in to continue."), status=401)


@api.exception_handler(HttpError)
def on_http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    return api.create_response(request, error_body(str(exc)), status=exc.status_code)


@api.exception_handler(OperationalError)
def on_statement_stopped(request: HttpRequest, exc: OperationalError) -> HttpResponse:
    """A query stopped by the statement timeout (DB_STATEMENT_TIMEOUT_MS): 504 and a message
    instead of a 500. A 504, not a 503: the load balancer retries a 503 on another server
    (config/nginx.conf), which would run the same slow query again."""
    if not statement_stopped(exc):
        raise exc
    logger.warning("Statement timeout: %s %s", request.method, request.path)
    return api.create_response(request, error_body(STATEMENT_STOPPED), status=504)


@api.exception_handler(json.JSONDecodeError)
def on_bad_json(request: HttpRequest, exc: Exception) -> HttpResponse:
    return api.create_response(
        request, error_body("The request body is not valid JSON."), status=400
    )


api.add_router("", common_router)
api.add_router("", accounts_router)
api.add_router("", surveys_router)
api.add_router("", offerings_router)
api.add_router("", servicerequests_router)
api.add_router("", satisfaction_router)
api.add_router("", company_reports_router)
api.add_router("", provisioning_router)
api.add_router("", uploads_router)
api.add_router("", live_router)
api.add_router("", concierge_desk_router)
api.add_router("", sso_router)
api.add_router("", privacy_router)
api.add_router("", notification_settings_router)
