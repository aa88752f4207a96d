"""The demo data files (`data/*.toml`), read with the standard library's tomllib.

The files name things the way a person would (a survey's category by key, a question's
pre-fill by onboarding answer name); `seed_demo` turns those names into rows.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from concierge.accounts.onboarding import Answer
from concierge.surveys.models import Question

DATA_DIR = Path(__file__).resolve().parent / "data"

# A question's `type` in surveys.toml, and the input and pre-fill it stands for.
QUESTION_TYPES: dict[str, tuple[str, Answer | None]] = {
    "text": (Question.InputType.TEXT, None),
    "multiline": (Question.InputType.MULTILINE_TEXT, None),
    "phone": (Question.InputType.PHONE_NUMBER, Answer.PHONE),
    "email": (Question.InputType.MANAGED_EMAIL, Answer.PREFERRED_EMAIL),
    "upload": (Question.InputType.SINGLE_UPLOAD, None),
    "select": (Question.InputType.SINGLE_SELECT, None),
}


@cache
def demo_data(name: str) -> dict[str, Any]:
    """One file of demo data: 'people', 'surveys', 'offerings', 'desk' or 'requests'."""
    with (DATA_DIR / f"{name}.toml").open("rb") as handle:
        return tomllib.load(handle)


@dataclass(frozen=True)
class Colleague:
    """An employee of people.toml's `colleagues` (no password: they cannot sign in)."""

    email: str
    first_name: str
    last_name: str
    company: str  # slug


def colleagues() -> list[Colleague]:
    """The colleagues of people.toml: 'Alex Rivera' of Acme is alex.rivera@acme.example."""
    found = []
    for group in demo_data("people").get("colleagues", []):
        for name in group["names"]:
            first_name, last_name = name.split(" ", 1)
            email = f"{first_name}.{last_name.replace(' ', '')}@{group['domain']}".lower()
            found.append(Colleague(email, first_name, last_name, group["company"]))
    return found


def onboarding_answers(user: dict[str, Any]) -> dict[int, Any]:
    """A demo user's onboarding answers by id (the file names them: `owns_home = true`)."""
    return {Answer[name.upper()].value: value for name, value in user.get("onboarding", {}).items()}


def question_fields(question: dict[str, Any]) -> dict[str, Any]:
    """A question of surveys.toml as Question fields (without `show_if`, which names a row)."""
    input_type, prefill = QUESTION_TYPES[question["type"]]
    if "prefill" in question:
        prefill = Answer[question["prefill"].upper()]
    return {
        "label": question["label"],
        "input_type": input_type,
        "optional": question.get("optional", question["type"] == "upload"),
        "universal_answer": prefill.value if prefill is not None else None,
    }


def select_options(question: dict[str, Any]) -> list[tuple[str, str]]:
    """A select question's (label, value) pairs; a bare label's value is made from it."""
    pairs = []
    for option in question.get("options", []):
        if isinstance(option, str):
            pairs.append((option, option_value(option)))
        else:
            pairs.append((option["label"], option["value"]))
    return pairs


def option_value(label: str) -> str:
    """'Yes, please!' → 'yes_please': lower case, words joined by '_', at most 60 characters."""
    cleaned = "".join(ch if ch.isalnum() else "_" for ch in label.lower())
    return "_".join(part for part in cleaned.split("_") if part)[:60]
