"""The SCIM 2.0 service at /scim/v2/ (RFC 7644), one company per bearer token.

Plain Django views rather than the Ninja API: SCIM has its own media type
(application/scim+json), error bodies and authentication. Every request is scoped to the
token's company; no input reaches another company's records."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.views.decorators.csrf import csrf_exempt

from concierge.accounts.models import Company, EmployeeRecord
from concierge.audit.middleware import acting_as
from concierge.provisioning import selectors
from concierge.provisioning.scim import discovery
from concierge.provisioning.scim.errors import ScimError, invalid_syntax, invalid_value, not_found
from concierge.provisioning.scim.filters import filter_q
from concierge.provisioning.scim.patch import patched_fields
from concierge.provisioning.scim.resources import attributes_project, user_fields, user_resource
from concierge.provisioning.services.records import (
    RecordExists,
    RecordInvalid,
    RecordLocked,
    record_create,
    record_scim_delete,
    record_update,
)
from concierge.provisioning.services.tokens import scim_token_used

SCIM_MEDIA_TYPE = "application/scim+json"
BASE_PATH = "/scim/v2"
DEFAULT_COUNT = 100

View = Callable[..., HttpResponse]


def scim_response(body: dict[str, Any] | None, status: int = 200) -> HttpResponse:
    if body is None:
        return HttpResponse(status=status)
    response = HttpResponse(
        json.dumps(body), status=status, content_type=f"{SCIM_MEDIA_TYPE}; charset=utf-8"
    )
    if status == 401:
        response["WWW-Authenticate"] = 'Bearer realm="SCIM"'
    return response


def _company(request: HttpRequest) -> Company:
    scheme, _, raw = request.headers.get("Authorization", "").partition(" ")
    token = selectors.scim_token_by_raw(raw=raw.strip()) if scheme.lower() == "bearer" else None
    if token is None:
        raise ScimError(401, "A valid SCIM bearer token is required.")
    scim_token_used(token=token)
    return token.company


def scim_endpoint(*methods: str) -> Callable[[View], View]:
    """Authenticates the token, answers a method the endpoint lacks with 405 and turns a
    ScimError (or a record that cannot be saved) into a SCIM error response."""

    def decorate(view: View) -> View:
        @csrf_exempt
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            try:
                company = _company(request)
                if request.method not in methods:
                    raise ScimError(405, f"{request.method} is not supported here.")
                with acting_as(via="scim"):  # no person: the company's SCIM client
                    return view(request, company, *args, **kwargs)
            except ScimError as exc:
                return scim_response(exc.body(), exc.status)
            except RecordInvalid as exc:
                return scim_response(invalid_value(exc.message).body(), 400)
            except RecordExists as exc:
                return scim_response(ScimError(409, exc.message, "uniqueness").body(), 409)
            except RecordLocked as exc:
                return scim_response(ScimError(400, exc.message, "mutability").body(), 400)
            except RequestDataTooBig:
                return scim_response(ScimError(413, "The request is too large.").body(), 413)

        return wrapped

    return decorate


def _base_url(request: HttpRequest) -> str:
    return request.build_absolute_uri(BASE_PATH)


def _body(request: HttpRequest) -> Any:
    try:
        return json.loads(request.body or b"null")
    except (ValueError, UnicodeDecodeError):
        raise invalid_syntax("The request body is not valid JSON.") from None


def _names(request: HttpRequest, key: str) -> list[str]:
    raw = request.GET.get(key, "")
    return [name for name in (part.strip() for part in raw.split(",")) if name][:50]


def _resource(request: HttpRequest, record: EmployeeRecord) -> dict[str, Any]:
    return attributes_project(
        user_resource(record, base_url=_base_url(request)),
        attributes=_names(request, "attributes"),
        excluded=_names(request, "excludedAttributes"),
    )


def _int_param(params: dict[str, Any], key: str, default: int) -> int:
    value = params.get(key)
    if value in (None, ""):
        return default
    try:
        return int(str(value)[:40])
    except ValueError:
        raise invalid_value(f"{key} must be a whole number.") from None


@scim_endpoint("GET")
def service_provider_config(request: HttpRequest, company: Company) -> HttpResponse:
    return scim_response(discovery.service_provider_config(base_url=_base_url(request)))


@scim_endpoint("GET")
def resource_types(request: HttpRequest, company: Company, name: str = "") -> HttpResponse:
    found = discovery.resource_types(base_url=_base_url(request))
    if not name:
        return scim_response(discovery.list_response(found, total=len(found)))
    match = next((rt for rt in found if rt["id"] == name), None)
    if match is None:
        raise not_found(f"There is no resource type '{name[:100]}'.")
    return scim_response(match)


@scim_endpoint("GET")
def schemas(request: HttpRequest, company: Company, schema_id: str = "") -> HttpResponse:
    found = discovery.schemas(base_url=_base_url(request))
    if not schema_id:
        return scim_response(discovery.list_response(found, total=len(found)))
    match = next((s for s in found if s["id"] == schema_id), None)
    if match is None:
        raise not_found(f"There is no schema '{schema_id[:200]}'.")
    return scim_response(match)


@scim_endpoint("GET", "POST")
def users(request: HttpRequest, company: Company) -> HttpResponse:
    if request.method == "POST":
        return _user_create(request, company)
    return _users_list(request, company, dict(request.GET.items()))


@scim_endpoint("POST")
def users_search(request: HttpRequest, company: Company) -> HttpResponse:
    """POST /Users/.search (RFC 7644 §3.4.3): the list's parameters in the body."""
    body = _body(request)
    if not isinstance(body, dict):
        raise invalid_syntax("The request body must be a JSON object.")
    params = {str(k): v for k, v in body.items() if k != "schemas"}
    for key in ("attributes", "excludedAttributes"):
        if isinstance(params.get(key), list):
            params[key] = ",".join(str(v) for v in params[key])
    return _users_list(request, company, params)


def _users_list(request: HttpRequest, company: Company, params: dict[str, Any]) -> HttpResponse:
    records = selectors.scim_records(company=company)
    filter_text = params.get("filter")
    if filter_text:
        if not isinstance(filter_text, str):
            raise ScimError(400, "filter must be a string.", "invalidFilter")
        records = records.filter(filter_q(filter_text))
    start_index = min(max(_int_param(params, "startIndex", 1), 1), 2**31)
    count = min(max(_int_param(params, "count", DEFAULT_COUNT), 0), discovery.PAGE_MAX)
    total = records.count()
    page = list(records[start_index - 1 : start_index - 1 + count]) if count else []
    attributes = [a.strip() for a in str(params.get("attributes") or "").split(",") if a.strip()]
    excluded = [
        a.strip() for a in str(params.get("excludedAttributes") or "").split(",") if a.strip()
    ]
    base_url = _base_url(request)
    resources = [
        attributes_project(
            user_resource(r, base_url=base_url), attributes=attributes, excluded=excluded
        )
        for r in page
    ]
    return scim_response(discovery.list_response(resources, total=total, start_index=start_index))


def _user_create(request: HttpRequest, company: Company) -> HttpResponse:
    fields = user_fields(_body(request), replace=False)
    record = record_create(company=company, fields=fields, source=EmployeeRecord.Source.SCIM)
    response = scim_response(_resource(request, record), 201)
    response["Location"] = f"{_base_url(request)}/Users/{record.pk}"
    return response


@scim_endpoint("GET", "PUT", "PATCH", "DELETE")
def user(request: HttpRequest, company: Company, record_id: str) -> HttpResponse:
    with transaction.atomic():
        record = selectors.scim_record(company=company, record_id=record_id)
        if record is None:
            raise not_found(f"There is no user with id '{record_id[:100]}'.")
        if request.method == "DELETE":
            record_scim_delete(record=record)
            return scim_response(None, 204)
        if request.method == "PUT":
            record = record_update(record=record, fields=user_fields(_body(request), replace=True))
        elif request.method == "PATCH":
            record = record_update(record=record, fields=patched_fields(record, _body(request)))
    return scim_response(_resource(request, record))


@csrf_exempt
def unknown(request: HttpRequest, rest: str = "") -> HttpResponse:
    """Any other path under /scim/v2/ (Groups, /.search across types, ...): a SCIM 404,
    after the same authentication as every endpoint."""
    try:
        _company(request)
    except ScimError as exc:
        return scim_response(exc.body(), exc.status)
    return scim_response(not_found(f"There is no SCIM endpoint {request.path[:200]}.").body(), 404)
