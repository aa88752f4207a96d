"""Hardening 5: text no column can store (NUL, unpaired surrogates), values of the wrong JSON
type and Unicode digits never cause a server error: every text field of every write endpoint
(and every query parameter), taken from the OpenAPI document so new endpoints are covered,
answers 400/422 with the API's error body."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from concierge.accounts.services.identity import user_sign_in
from concierge.accounts.services.mfa.totp import totp_enrol_start
from concierge.offerings.models import Offering
from concierge.saved_replies import services as saved_reply_services
from concierge.servicerequests import services as request_services
from concierge.surveys import services as survey_services
from concierge.surveys.models import Question, RequestSurvey, SurveyCategory
from config.api import api
from conftest import DEFAULT_PASSWORD, ApiClient, CompanyFactory, UserFactory

DOCUMENT = api.get_openapi_schema()
SCHEMAS = DOCUMENT["components"]["schemas"]
WRITE_METHODS = {"post", "put", "patch", "delete"}
SKIPPED = {("delete", "/api/v1/users/sign_out")}  # would end the session under test

# Text a database cannot store (PostgreSQL refuses NUL; no UTF-8 has lone surrogates).
unstorable = st.builds(
    lambda before, bad, after: before + bad + after,
    st.text(max_size=5),
    st.sampled_from(["\x00", "\ud800", "\udfff", "\udc80x"]),
    st.text(max_size=5),
)
wrong_type = st.one_of(
    st.integers(), st.booleans(), st.just({}), st.just([]), st.just({"a": "b"}), st.floats()
)
unicode_digits = st.text(st.sampled_from("²³①⑨٣۷߂१০"), min_size=1, max_size=6)


def _resolve(schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = SCHEMAS[schema["$ref"].rsplit("/", 1)[1]]
    if "anyOf" in schema:
        typed = [s for s in schema["anyOf"] if s.get("type") != "null"]
        return _resolve(typed[0]) if typed else {}
    return schema


def _example(schema: dict[str, Any]) -> Any:
    """A plausible value for `schema`: the base each test case changes one field of."""
    schema = _resolve(schema)
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type")
    if kind == "object" or "properties" in schema:
        return {name: _example(sub) for name, sub in schema.get("properties", {}).items()}
    if kind == "array":
        return [_example(schema.get("items", {}))]
    return {"integer": 1, "number": 1, "boolean": True}.get(kind, "text")


def _text_fields(schema: dict[str, Any], path: tuple = ()) -> Iterator[tuple]:
    """Paths to every field a client can put text in (strings, and values of any type)."""
    schema = _resolve(schema)
    if schema.get("type") == "object" or "properties" in schema:
        for name, sub in schema.get("properties", {}).items():
            yield from _text_fields(sub, (*path, name))
    elif schema.get("type") == "array":
        yield from _text_fields(schema.get("items", {}), (*path, 0))
    elif schema.get("type") in (None, "string") and "enum" not in schema:
        yield path


def _cases() -> Iterator[Any]:
    for route, operations in DOCUMENT["paths"].items():
        for method, operation in operations.items():
            if (method, route) in SKIPPED:
                continue
            body = operation.get("requestBody", {}).get("content", {}).get("application/json")
            if method in WRITE_METHODS and body:
                for field in _text_fields(body["schema"]):
                    yield pytest.param(method, route, "body", field, id=f"{method} {route} {field}")
            for parameter in operation.get("parameters", []):
                if parameter["in"] == "query":
                    name = parameter["name"]
                    yield pytest.param(
                        method, route, "query", (name,), id=f"{method} {route} ?{name}"
                    )


CASES = list(_cases())


def _with(value: Any, path: tuple, new: Any) -> Any:
    if not path:
        return new
    head, *rest = path
    copy = list(value) if isinstance(value, list) else dict(value)
    copy[head] = _with(value[head], tuple(rest), new)
    return copy


@pytest.fixture
def world(db) -> dict[str, Any]:
    """A concierge who is also an employee: a request, a survey run, an offering; signed in."""
    company = CompanyFactory(slug="acme")
    person = UserFactory(email="casey@example.com", companies=[company], groups=["Concierges"])
    service_request = request_services.request_create(user=person, name="Find a dog walker")
    category = SurveyCategory.objects.create(name="Pet", icon="pet")
    survey = RequestSurvey.objects.create(name="Walker", slug="walker", category=category)
    question = Question.objects.create(
        survey=survey, position=1, label="When?", input_type="TextInput"
    )
    run = survey_services.user_request_survey_begin(user=person, survey_id=survey.pk)
    offering = Offering.objects.first()
    saved_reply = saved_reply_services.saved_reply_create(
        title="On it", body="Hi {first_name}", author=person
    )
    api_client = ApiClient()
    result = user_sign_in(email=person.email, password=DEFAULT_PASSWORD)
    api_client.token = result.token
    ids = {
        "request_id": service_request.pk,
        "survey_id": survey.pk,
        "run_id": run.pk,
        "category_id": category.pk,
        "offering_id": offering.pk if offering else 1,
        "question_id": question.pk,
        # An authenticator app being added (not confirmed: the session needs no MFA step).
        "factor_id": totp_enrol_start(user=person).factor_id,
        "reply_id": saved_reply.pk,
        "company_id": company.pk,
        "slug": company.slug,
    }
    return {"api": api_client, "ids": ids}


def _send(world: dict[str, Any], method: str, route: str, where: str, field: tuple, value: Any):
    operation = DOCUMENT["paths"][route][method]
    path = route.format(**world["ids"]).removeprefix("/api/v1/")
    if where == "query":
        # What a client sends for a lone surrogate: its 3 bytes, percent-encoded.
        raw = quote(str(value).encode("utf-8", "surrogatepass"))
        return world["api"].request(method.upper(), f"{path}?{field[0]}={raw}")
    schema = operation["requestBody"]["content"]["application/json"]["schema"]
    body = _with(_example(schema), field, value)
    if "object_satisfied_id" in json.dumps(body):
        body["user_request_answer"]["object_satisfied_id"] = world["ids"]["question_id"]
    return world["api"].request(method.upper(), path, raw=json.dumps(body))


def _assert_error_body(response) -> None:
    body = response.json()
    assert body["success"] is False and isinstance(body["error"], str), body


HYPOTHESIS = settings(
    max_examples=6,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.mark.parametrize(("method", "route", "where", "field"), CASES)
@HYPOTHESIS
@given(bad=unstorable)
def test_hardening_5_unstorable_text_is_a_clear_422(world, method, route, where, field, bad):
    """Hardening 5: NUL and lone surrogates in any text field or query parameter: 400/422"""
    response = _send(world, method, route, where, field, bad)
    if where == "query" and "\x00" not in bad:
        # A URL cannot carry a lone surrogate: its bytes arrive as U+FFFD, ordinary text.
        assert response.status_code < 500, response.content
    else:
        assert response.status_code in (400, 422), (response.status_code, response.content)
    if response.status_code >= 400:
        _assert_error_body(response)


@pytest.mark.parametrize(
    ("method", "route", "where", "field"), [c for c in CASES if c.values[2] == "body"]
)
@HYPOTHESIS
@given(bad=wrong_type)
def test_hardening_5_wrong_json_types_are_a_clear_4xx(world, method, route, where, field, bad):
    """Hardening 5: a number, boolean, object or list where text belongs: never a 500"""
    response = _send(world, method, route, where, field, bad)
    assert response.status_code < 500, response.content
    if response.status_code >= 400:
        _assert_error_body(response)


@pytest.mark.parametrize(("method", "route", "where", "field"), CASES)
@HYPOTHESIS
@given(bad=unicode_digits)
def test_hardening_5_unicode_digits_never_fail(world, method, route, where, field, bad):
    """Hardening 5: digits other than 0-9 ('²', '①', '٣') are text like any other"""
    response = _send(world, method, route, where, field, bad)
    assert response.status_code < 500, response.content
    if response.status_code >= 400:
        _assert_error_body(response)
