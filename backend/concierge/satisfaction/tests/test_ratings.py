"""Issue 'Satisfaction (CSAT)': a completed request can be rated 1–5 with an optional comment
from its page or from the completion email's one-tap link (signed, single use, expiring, no
sign-in); the desk shows the rating and the averages per concierge and per company."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from freezegun import freeze_time

import config.urls  # noqa: F401  (the API's schemas are built before any clock is frozen)
from concierge.satisfaction.models import Rating
from concierge.servicerequests import services

pytestmark = pytest.mark.django_db

RATE_LINK = re.compile(r"/rate/([A-Za-z0-9_.\-]+)\?score=(\d)")


@pytest.fixture
def completed(user, make_request, concierge):
    service_request = make_request(user, name="Find a dog walker")
    services.concierge_reply_create(request=service_request, author=concierge, body="Done!")
    services.request_status_change(request=service_request, action="complete")
    return service_request


def complete_from_desk(concierge_api, service_request):
    response = concierge_api.post(
        f"concierge/requests/{service_request.pk}/status", {"action": "complete"}
    )
    assert response.status_code == 200, response.content


def rate_links(outbox, to):
    emails = [e for e in outbox.emails(to) if "is complete" in e.subject]
    assert emails, "no completion email"
    return dict((int(score), token) for token, score in RATE_LINK.findall(emails[0].body))


def test_csat_rate_from_the_request_page_once(signed_in_api, completed):
    """Request page: a completed request offers the rating; it is recorded once."""
    state = signed_in_api.get(f"requests/{completed.pk}/rating").json()
    assert state == {"can_rate": True, "rating": None}
    response = signed_in_api.post(
        f"requests/{completed.pk}/rating", {"score": 5, "comment": "  Lovely walker!  "}
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["can_rate"] is False
    assert (body["rating"]["score"], body["rating"]["comment"]) == (5, "Lovely walker!")
    again = signed_in_api.post(f"requests/{completed.pk}/rating", {"score": 1})
    assert again.status_code == 409
    assert again.json()["error"] == "You already rated this request. Thank you!"
    assert Rating.objects.get().score == 5


def test_csat_only_completed_requests_and_valid_scores(signed_in_api, user, make_request):
    """A request still in the queue can't be rated; a score outside 1–5 is a 422."""
    service_request = make_request(user)
    assert signed_in_api.get(f"requests/{service_request.pk}/rating").json()["can_rate"] is False
    response = signed_in_api.post(f"requests/{service_request.pk}/rating", {"score": 4})
    assert response.status_code == 422
    assert response.json()["error"] == "You can rate a request once it is completed."
    services.request_status_change(request=service_request, action="complete")
    for bad in (0, 6, "five"):
        assert (
            signed_in_api.post(f"requests/{service_request.pk}/rating", {"score": bad}).status_code
            == 422
        )
    too_long = {"score": 3, "comment": "x" * 1001}
    assert signed_in_api.post(f"requests/{service_request.pk}/rating", too_long).status_code == 422


def test_csat_another_employees_request_is_a_404(make_api, completed, user_factory, company):
    """Ownership: another employee can neither read nor rate the request."""
    other = user_factory(email="eve@example.com", companies=[company])
    api = make_api()
    api.sign_in(other.email)
    assert api.get(f"requests/{completed.pk}/rating").status_code == 404
    assert api.post(f"requests/{completed.pk}/rating", {"score": 1}).status_code == 404
    assert not Rating.objects.exists()


def test_csat_completion_email_one_tap_link_single_use(
    concierge_api, user, make_request, outbox, api
):
    """Completion email: one link per score; the link records the rating without signing in,
    once (another tap answers that rating, unchanged, without a key); the optional comment is
    added once with the key the rating answered."""
    service_request = make_request(user)
    complete_from_desk(concierge_api, service_request)
    links = rate_links(outbox, user.email)
    assert sorted(links) == [1, 2, 3, 4, 5]
    token = links[5]

    response = api.post("ratings/link", {"token": token, "score": 5})  # not signed in
    assert response.status_code == 201, response.content
    key = response.json()["comment_key"]
    rating = Rating.objects.get()
    assert (rating.score, rating.via, rating.request_id) == (5, "email", service_request.pk)

    second = api.post("ratings/link", {"token": links[1], "score": 1})
    assert second.status_code == 200, second.content
    assert second.json()["already_rated"] is True
    assert (second.json()["rating"]["score"], second.json()["comment_key"]) == (5, None)
    assert Rating.objects.get().score == 5

    comment = {"token": token, "comment_key": key, "comment": "Quick and kind"}
    assert api.post("ratings/link/comment", comment).status_code == 200
    assert Rating.objects.get().comment == "Quick and kind"
    assert api.post("ratings/link/comment", {**comment, "comment": "Changed"}).status_code == 409
    wrong_key = {**comment, "comment_key": "nope"}
    assert api.post("ratings/link/comment", wrong_key).status_code == 409
    assert Rating.objects.get().comment == "Quick and kind"


def test_csat_link_tampered_or_expired(concierge_api, user, make_request, outbox, api, settings):
    """A tampered token is a 404; an expired one a 410; neither records anything."""
    service_request = make_request(user)
    complete_from_desk(concierge_api, service_request)
    token = rate_links(outbox, user.email)[4]
    payload, stamp, signature = token.split(".")
    forged = f"{payload[:-2]}xx.{stamp}.{signature}"
    assert api.post("ratings/link", {"token": forged, "score": 4}).status_code == 404
    assert api.post("ratings/link", {"token": "garbage", "score": 4}).status_code == 404
    later = timezone.now() + timedelta(seconds=settings.RATING_LINK_MAX_AGE_SECONDS + 60)
    with freeze_time(later):
        response = api.post("ratings/link", {"token": token, "score": 4})
    assert response.status_code == 410
    assert not Rating.objects.exists()


def test_csat_completion_by_any_caller_emails_the_rating_links(user, make_request, outbox):
    """Issue 24 status changes: the rating email goes with the completion itself, not with the
    desk's endpoint: completing through the requests service sends it too."""
    service_request = make_request(user)
    services.request_status_change(request=service_request, action="complete")
    assert sorted(rate_links(outbox, user.email)) == [1, 2, 3, 4, 5]


def test_csat_no_email_when_already_rated_and_reopened(
    concierge_api, signed_in_api, user, make_request, outbox
):
    """Completing a request again after it was rated sends no second rating email."""
    service_request = make_request(user)
    complete_from_desk(concierge_api, service_request)
    assert len([e for e in outbox.emails(user.email) if "is complete" in e.subject]) == 1
    signed_in_api.post(f"requests/{service_request.pk}/rating", {"score": 4})
    concierge_api.post(f"concierge/requests/{service_request.pk}/status", {"action": "reopen"})
    complete_from_desk(concierge_api, service_request)
    assert len([e for e in outbox.emails(user.email) if "is complete" in e.subject]) == 1


def test_csat_desk_shows_rating_and_averages(
    concierge_api, concierge, other_concierge, user, bob, make_request, signed_in_api, api
):
    """Desk: the rating on the request; the average per concierge and per company."""
    mine = make_request(user, name="Mine")
    services.request_assign(request=mine, assignee=concierge)
    services.request_status_change(request=mine, action="complete")
    signed_in_api.post(f"requests/{mine.pk}/rating", {"score": 5, "comment": "Great"})
    second = make_request(user, name="Second")
    services.request_assign(request=second, assignee=concierge)
    services.request_status_change(request=second, action="complete")
    signed_in_api.post(f"requests/{second.pk}/rating", {"score": 4})
    theirs = make_request(bob, name="Bob's")
    services.request_assign(request=theirs, assignee=other_concierge)
    services.request_status_change(request=theirs, action="complete")
    api.sign_in(bob.email)
    api.post(f"requests/{theirs.pk}/rating", {"score": 2})
    nobodys = make_request(bob, name="Completed while unassigned")
    services.request_status_change(request=nobodys, action="complete")
    rated = api.post(f"requests/{nobodys.pk}/rating", {"score": 1})  # still signed in as Bob
    assert rated.status_code == 201, rated.content

    detail = concierge_api.get(f"concierge/requests/{mine.pk}").json()["request"]
    assert detail["rating"]["score"] == 5 and detail["rating"]["comment"] == "Great"
    summary = concierge_api.get("concierge/ratings").json()
    assert summary["overall"] == {"id": None, "name": "All", "average": 3.0, "count": 4}
    # The rows add up to the overall count: a request rated while unassigned has its own, last.
    by_concierge = [(c["name"], c["average"], c["count"]) for c in summary["concierges"]]
    assert by_concierge == [("Casey Jones", 4.5, 2), ("Dana Reyes", 2.0, 1), ("Unassigned", 1.0, 1)]
    assert summary["concierges"][-1]["id"] is None
    by_company = {c["name"]: (c["average"], c["count"]) for c in summary["companies"]}
    assert by_company == {"Acme Corp": (4.5, 2), "Globex": (1.5, 2)}
    assert signed_in_api.get("concierge/ratings").status_code == 403


def test_csat_one_tap_on_the_page_then_an_optional_comment_once(signed_in_api, completed):
    """Request page: one tap records the score; the comment can follow, once."""
    tapped = signed_in_api.post(f"requests/{completed.pk}/rating", {"score": 4})
    assert tapped.status_code == 201
    assert tapped.json()["rating"]["comment"] == ""
    path = f"requests/{completed.pk}/rating"
    assert signed_in_api.patch(path, {"comment": "   "}).status_code == 422
    added = signed_in_api.patch(path, {"comment": "Very kind"})
    assert added.status_code == 200
    assert added.json()["rating"] == {**added.json()["rating"], "score": 4, "comment": "Very kind"}
    assert signed_in_api.patch(path, {"comment": "Changed"}).status_code == 409
    assert Rating.objects.get().comment == "Very kind"


def test_csat_rating_link_after_an_in_app_rating_thanks_and_keeps_the_in_app_score(
    concierge_api, signed_in_api, user, make_request, outbox, api, settings
):
    """A link opened after the employee rated in the app answers their recorded score
    (already_rated, without their comment or a comment key) and changes nothing; a forged or
    expired link still fails."""
    service_request = make_request(user)
    complete_from_desk(concierge_api, service_request)
    links = rate_links(outbox, user.email)
    rated = signed_in_api.post(
        f"requests/{service_request.pk}/rating", {"score": 2, "comment": "Slow reply"}
    )
    assert rated.status_code == 201

    response = api.post("ratings/link", {"token": links[5], "score": 5})
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["already_rated"] is True and body["comment_key"] is None
    assert (body["rating"]["score"], body["rating"]["comment"]) == (2, "")
    rating = Rating.objects.get()
    assert (rating.score, rating.comment, rating.via) == (2, "Slow reply", "page")
    assert rating.comment_key_hash == ""
    no_key = {"token": links[5], "comment_key": "guess", "comment": "Great!"}
    assert api.post("ratings/link/comment", no_key).status_code == 409
    assert Rating.objects.get().comment == "Slow reply"

    payload, stamp, signature = links[5].split(".")
    forged = f"{payload[:-2]}xx.{stamp}.{signature}"
    assert api.post("ratings/link", {"token": forged, "score": 5}).status_code == 404
    later = timezone.now() + timedelta(seconds=settings.RATING_LINK_MAX_AGE_SECONDS + 60)
    with freeze_time(later):
        assert api.post("ratings/link", {"token": links[5], "score": 5}).status_code == 410
    assert Rating.objects.get().score == 2


def test_csat_rating_link_racing_another_rating_answers_the_recorded_one(
    completed, api, monkeypatch
):
    """A rating recorded between the link's check and its insert: the link answers that
    rating (200, already_rated) rather than an error."""
    from concierge.satisfaction import services as rating_services

    token = rating_services.rating_link_token(request=completed)
    original = rating_services.rating_create

    def rated_meanwhile(**kwargs):
        original(request=kwargs["request"], score=3)
        return original(**kwargs)

    monkeypatch.setattr(rating_services, "rating_create", rated_meanwhile)
    response = api.post("ratings/link", {"token": token, "score": 5})
    assert response.status_code == 200, response.content
    assert response.json()["rating"]["score"] == 3
    assert Rating.objects.get().score == 3
