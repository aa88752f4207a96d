"""SCIM filters (RFC 7644 §3.4.2.2) over a company's records, as a Django Q.

Supported: `eq ne co sw ew gt ge lt le pr`, `and`, `or`, `not (...)` and parentheses, on
userName, emails (also `emails[type eq "work"].value`), externalId, id, name.givenName,
name.familyName, active and the enterprise employeeNumber: what Okta and Microsoft Entra
ask (`userName eq "..."`, `externalId eq "..."`) and more. Anything else is `invalidFilter`."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from django.db.models import Q

from concierge.provisioning.scim.attributes import ENTERPRISE_USER, path_normalise
from concierge.provisioning.scim.errors import ScimError
from concierge.provisioning.services.records import storable

FILTER_MAX = 1000
_TOKEN = re.compile(
    r'\s*(?:(?P<string>"(?:[^"\\]|\\.)*")|(?P<paren>[()])|(?P<word>[^\s()"\[]+(?:\[[^\]]*\][^\s()]*)?))'
)
_STRING_LOOKUPS = {
    "eq": "exact",
    "co": "contains",
    "sw": "startswith",
    "ew": "endswith",
    "gt": "gt",
    "ge": "gte",
    "lt": "lt",
    "le": "lte",
}
_OPERATORS = {*_STRING_LOOKUPS, "ne", "pr"}


@dataclass(frozen=True)
class _Attribute:
    field: str
    kind: str  # "text", "text_exact" (case-exact), "bool", "id"


def _attribute(path: str) -> _Attribute:
    lowered = path_normalise(path)
    if lowered in ("username", "emails", "emails.value") or (
        lowered.startswith("emails[") and lowered.endswith("].value")
    ):
        return _Attribute("email", "text")
    simple = {
        "externalid": _Attribute("external_id", "text_exact"),
        "id": _Attribute("pk", "id"),
        "name.givenname": _Attribute("first_name", "text"),
        "name.familyname": _Attribute("last_name", "text"),
        "active": _Attribute("active", "bool"),
        f"{ENTERPRISE_USER}:employeenumber".lower(): _Attribute("employee_id", "text"),
    }
    if lowered in simple:
        return simple[lowered]
    raise invalid_filter(f"Filtering on '{path[:100]}' is not supported.")


def invalid_filter(detail: str) -> ScimError:
    return ScimError(400, detail, "invalidFilter")


def filter_q(text: str) -> Q:
    """The Q for a filter expression, or ScimError (400 invalidFilter)."""
    if len(text) > FILTER_MAX:
        raise invalid_filter(f"The filter is longer than {FILTER_MAX} characters.")
    tokens = _tokens(text)
    parser = _Parser(tokens)
    q = parser.expression()
    if parser.position != len(tokens):
        raise invalid_filter("The filter has something after its end.")
    return q


def _tokens(text: str) -> list[tuple[str, str]]:
    tokens: list[tuple[str, str]] = []
    position = 0
    text = text.rstrip()
    while position < len(text):
        match = _TOKEN.match(text, position)
        if match is None or match.end() == position:
            raise invalid_filter("The filter could not be read.")
        kind = match.lastgroup or "word"
        tokens.append((kind, match.group(kind)))
        position = match.end()
    if not tokens:
        raise invalid_filter("The filter is empty.")
    return tokens


class _Parser:
    def __init__(self, tokens: list[tuple[str, str]]) -> None:
        self.tokens = tokens
        self.position = 0
        self.depth = 0

    def _peek_word(self) -> str | None:
        if self.position < len(self.tokens) and self.tokens[self.position][0] == "word":
            return self.tokens[self.position][1].lower()
        return None

    def _next(self) -> tuple[str, str]:
        if self.position >= len(self.tokens):
            raise invalid_filter("The filter ends too early.")
        token = self.tokens[self.position]
        self.position += 1
        return token

    def expression(self) -> Q:
        q = self._and()
        while self._peek_word() == "or":
            self.position += 1
            q = q | self._and()
        return q

    def _and(self) -> Q:
        q = self._unary()
        while self._peek_word() == "and":
            self.position += 1
            q = q & self._unary()
        return q

    def _unary(self) -> Q:
        negate = self._peek_word() == "not"
        if negate:
            self.position += 1
        token = self.tokens[self.position] if self.position < len(self.tokens) else None
        if token == ("paren", "("):
            self.position += 1
            self.depth += 1
            if self.depth > 20:
                raise invalid_filter("The filter is nested too deeply.")
            q = self.expression()
            if self._next() != ("paren", ")"):
                raise invalid_filter("A parenthesis is not closed.")
            self.depth -= 1
        elif negate:
            raise invalid_filter("'not' needs a parenthesised expression.")
        else:
            q = self._comparison()
        return ~q if negate else q

    def _comparison(self) -> Q:
        kind, path = self._next()
        if kind != "word":
            raise invalid_filter("An attribute name was expected.")
        attribute = _attribute(path)
        kind, operator = self._next()
        operator = operator.lower()
        if kind != "word" or operator not in _OPERATORS:
            raise invalid_filter(f"'{operator[:20]}' is not a filter operator.")
        if operator == "pr":
            return _present(attribute)
        return _compare(attribute, operator, _value(self._next()))


def _value(token: tuple[str, str]) -> Any:
    kind, text = token
    if kind == "string":
        try:
            return json.loads(text)
        except ValueError:
            raise invalid_filter("A string in the filter could not be read.") from None
    literals = {"true": True, "false": False, "null": None}
    if kind == "word" and text.lower() in literals:
        return literals[text.lower()]
    if kind == "word" and re.fullmatch(r"-?\d+(\.\d+)?", text):
        return text
    raise invalid_filter("A value was expected (a quoted string, true, false or null).")


def _present(attribute: _Attribute) -> Q:
    if attribute.kind in ("bool", "id"):
        return Q()
    return ~Q(**{attribute.field: ""})


def _compare(attribute: _Attribute, operator: str, value: Any) -> Q:
    if value is None:
        return ~_present(attribute) if operator == "eq" else _present(attribute)
    if attribute.kind == "bool":
        if not isinstance(value, bool) or operator not in ("eq", "ne"):
            raise invalid_filter("active is compared with eq or ne and true or false.")
        q = Q(active=value)
    elif attribute.kind == "id":
        if operator not in ("eq", "ne"):
            raise invalid_filter("id is compared with eq or ne.")
        text = str(value)
        q = Q(pk=int(text)) if re.fullmatch(r"[0-9]{1,18}", text) else Q(pk__in=[])
    else:
        if not isinstance(value, str) or not storable(value):
            raise invalid_filter(f"{attribute.field} is compared with a quoted string.")
        lookup = _STRING_LOOKUPS["eq" if operator == "ne" else operator]
        if attribute.kind == "text" and lookup in ("exact", "contains", "startswith", "endswith"):
            lookup = "i" + lookup
        q = Q(**{f"{attribute.field}__{lookup}": value})
    return ~q if operator == "ne" else q
