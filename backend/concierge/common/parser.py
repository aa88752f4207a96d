"""The API's request parser: JSON bodies and query strings, refusing text no database column
can store (NUL, unpaired UTF-16 surrogates) with a 422 instead of a server error."""

from __future__ import annotations

import json
import re
from typing import Any, cast

from django.http import HttpRequest
from django.utils.datastructures import MultiValueDict
from ninja.parser import Parser

from concierge.common.errors import ValidationFailed

UNSTORABLE_TEXT = "Please remove the characters that are not allowed in this text."
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def _first_unstorable(value: Any, field: str) -> str | None:
    """The name of the first field (or key) holding unstorable text, else None."""
    if isinstance(value, str):
        return field if _UNSTORABLE.search(value) else None
    if isinstance(value, dict):
        for key, item in value.items():
            if _UNSTORABLE.search(key):
                return field
            if found := _first_unstorable(item, key):
                return found
    if isinstance(value, list):
        for item in value:
            if found := _first_unstorable(item, field):
                return found
    return None


def _refuse_unstorable(data: Any) -> None:
    if field := _first_unstorable(data, "non_field"):
        raise ValidationFailed.for_field(field, UNSTORABLE_TEXT)


class ApiParser(Parser):
    def parse_body(self, request: HttpRequest) -> dict[str, Any]:
        data = json.loads(request.body)
        _refuse_unstorable(data)
        return cast(dict[str, Any], data)

    def parse_querydict(
        self, data: MultiValueDict, list_fields: list[str], request: HttpRequest
    ) -> dict[str, Any]:
        result = super().parse_querydict(data, list_fields, request)
        _refuse_unstorable(result)
        return result
