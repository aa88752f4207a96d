"""Issue 26 SCIM: no input causes a 500. Hypothesis sends arbitrary JSON bodies to create,
replace and patch, and arbitrary filters and paging parameters to the list; every answer is
a SCIM response below 500 (an error has a SCIM error body)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from concierge.provisioning.tests.conftest import new_user

pytestmark = pytest.mark.django_db

FUZZ = settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
scalars = (
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=40)
)
json_values = st.recursive(
    scalars,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4)
    ),
    max_leaves=12,
)
keys = st.sampled_from(
    [
        "userName",
        "active",
        "name",
        "externalId",
        "emails",
        "schemas",
        "Operations",
        "op",
        "path",
        "value",
        "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User",
        "givenName",
        "x",
    ]
)
user_bodies = st.dictionaries(keys, json_values, max_size=6) | json_values
operation = st.fixed_dictionaries(
    {},
    optional={
        "op": st.sampled_from(["add", "Replace", "remove", "REMOVE", "copy"]) | st.text(max_size=8),
        "path": st.sampled_from(
            [
                "active",
                "userName",
                "name.givenName",
                "name",
                'emails[type eq "work"].value',
                "externalId",
                "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:employeeNumber",
                "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User",
                "displayName",
                "",
            ]
        )
        | st.text(max_size=20)
        | st.integers(),
        "value": json_values,
    },
)
patch_bodies = st.fixed_dictionaries({"Operations": st.lists(operation, max_size=4) | json_values})


def assert_scim_answer(response) -> None:
    assert response.status_code < 500, response.content
    if response.status_code >= 400:
        assert response.json()["status"] == str(response.status_code)


@FUZZ
@given(body=user_bodies)
def test_create_and_replace_never_fail_with_a_500(scim, body):
    """Issue 26 SCIM: arbitrary POST/PUT bodies are answered with SCIM errors, never a 500."""
    assert_scim_answer(scim.post("Users", body))
    target = (
        new_user(scim, "fuzz.target@example.com") if not hasattr(scim, "target") else scim.target
    )
    scim.target = target
    assert_scim_answer(scim.put(f"Users/{target['id']}", body))


@FUZZ
@given(body=patch_bodies)
def test_patch_never_fails_with_a_500(scim, body):
    """Issue 26 SCIM: arbitrary PATCH operations are applied or refused, never a 500."""
    if not hasattr(scim, "target"):
        scim.target = new_user(scim, "fuzz.patch@example.com")
    assert_scim_answer(scim.patch(f"Users/{scim.target['id']}", body))


@FUZZ
@given(
    text=st.text(max_size=60)
    | st.builds(
        lambda a, op, v: f"{a} {op} {v}",
        st.sampled_from(
            [
                "userName",
                'emails[type eq "work"].value',
                "id",
                "active",
                "externalId",
                "meta.created",
            ]
        ),
        st.sampled_from(["eq", "ne", "co", "sw", "gt", "pr", "xx"]),
        st.sampled_from(['"a"', "true", "null", "12", '"\\u0000"', '"x\\"y"', "("]),
    ),
    start=st.text(max_size=6),
    count=st.text(max_size=6),
)
def test_list_filters_and_paging_never_fail_with_a_500(scim, text, start, count):
    """Issue 26 SCIM: arbitrary filters, startIndex and count: answered, never a 500."""
    assert_scim_answer(
        scim.get("Users", query={"filter": text, "startIndex": start, "count": count})
    )
