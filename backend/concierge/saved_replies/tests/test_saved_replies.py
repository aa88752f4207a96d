"""Issue 'Saved replies': shared by every concierge, managed in the desk (create, edit,
delete), with placeholders {first_name}, {request_name} and {concierge_first_name} filled in
for the request and the concierge inserting them."""

from __future__ import annotations

import pytest

from concierge.saved_replies.models import SavedReply
from concierge.saved_replies.services import saved_reply_fill

pytestmark = pytest.mark.django_db

BODY = 'Hi {first_name}! "{request_name}" is on its way. {concierge_first_name}'


@pytest.fixture
def dana_api(make_api, user_factory):
    user_factory(
        email="dana@example.com", first_name="Dana", last_name="Reyes", groups=["Concierges"]
    )
    api = make_api()
    api.sign_in("dana@example.com")
    return api


def create(api, title="On it", body=BODY):
    return api.post("concierge/saved-replies", {"title": title, "body": body})


def test_saved_replies_create_edit_delete_shared(concierge_api, dana_api):
    """Create, edit and delete from the desk; every concierge sees the same replies."""
    response = create(concierge_api)
    assert response.status_code == 201, response.content
    reply = response.json()["saved_reply"]
    assert reply["title"] == "On it" and reply["updated_by"]["full_name"] == "Casey Jones"

    listed = dana_api.get("concierge/saved-replies").json()["saved_replies"]
    assert [r["title"] for r in listed] == ["On it"]

    edited = dana_api.put(
        f"concierge/saved-replies/{reply['id']}", {"title": "On it now", "body": "Hi {first_name}"}
    )
    assert edited.status_code == 200
    assert edited.json()["saved_reply"]["updated_by"]["full_name"] == "Dana Reyes"
    assert concierge_api.delete(f"concierge/saved-replies/{reply['id']}").status_code == 204
    assert not SavedReply.objects.exists()
    assert concierge_api.delete(f"concierge/saved-replies/{reply['id']}").status_code == 404


def test_saved_replies_placeholders_filled_for_the_request(concierge_api, user, make_request):
    """Placeholders: the employee's first name, the request's name, my first name."""
    create(concierge_api)
    service_request = make_request(user, name="Find a dog walker")
    body = concierge_api.get(f"concierge/requests/{service_request.pk}/saved-replies").json()
    assert body["saved_replies"][0]["text"] == ('Hi Ada! "Find a dog walker" is on its way. Casey')
    assert concierge_api.get("concierge/requests/999999/saved-replies").status_code == 404


def test_saved_replies_without_a_first_name_use_the_name_there_is(
    concierge_api, concierge, user, make_request
):
    """An employee (or a concierge) with no first name: their full name, never 'Hi !'."""
    create(concierge_api)
    user.first_name, user.last_name = "", "Lovelace"
    user.save(update_fields=["first_name", "last_name"])
    concierge.first_name = ""
    concierge.save(update_fields=["first_name"])
    service_request = make_request(user, name="Find a dog walker")
    body = concierge_api.get(f"concierge/requests/{service_request.pk}/saved-replies").json()
    assert body["saved_replies"][0]["text"] == (
        'Hi Lovelace! "Find a dog walker" is on its way. Jones'
    )


def test_saved_replies_fill_is_plain_substitution():
    """A value that looks like a placeholder is not filled in again; braces stay."""
    text = saved_reply_fill(
        "{first_name} / {request_name} / {x}",
        first_name="{request_name}",
        request_name="Walk {Rex}",
        concierge_first_name="Casey",
    )
    assert text == "{request_name} / Walk {Rex} / {x}"


@pytest.mark.parametrize(
    ("title", "body", "field", "message"),
    [
        ("", BODY, "title", "Please give the saved reply a title."),
        ("x" * 101, BODY, "title", "Please use at most 100 characters."),
        ("Ok", "   ", "body", "Please write the reply."),
        (
            "Ok",
            "Hi {name}",
            "body",
            "Unknown placeholder {name}: use {first_name}, {request_name} or "
            "{concierge_first_name}.",
        ),
    ],
)
def test_saved_replies_validation(concierge_api, title, body, field, message):
    """Server-side rules, each a 422 on its field."""
    response = create(concierge_api, title=title, body=body)
    assert response.status_code == 422
    assert response.json()["errors"][field] == [message]


def test_saved_replies_titles_unique_ignoring_case(concierge_api):
    create(concierge_api, title="On it")
    response = create(concierge_api, title="ON IT")
    assert response.status_code == 422
    assert response.json()["errors"]["title"] == ["A saved reply with this title already exists."]


def test_saved_replies_concierges_only(signed_in_api, make_api, concierge_api):
    """Employees get 403, anonymous 401."""
    reply_id = create(concierge_api).json()["saved_reply"]["id"]
    assert signed_in_api.get("concierge/saved-replies").status_code == 403
    assert signed_in_api.delete(f"concierge/saved-replies/{reply_id}").status_code == 403
    assert make_api().get("concierge/saved-replies").status_code == 401
    assert create(signed_in_api).status_code == 403
