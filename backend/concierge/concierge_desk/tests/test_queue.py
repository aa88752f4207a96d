"""Issue #5 'Queue': requests by status with company, employee, category, age, last message,
who it waits on; oldest first; filters by company and assignee; search; fixed query count."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from concierge.servicerequests import services
from concierge.surveys.models import SurveyCategory

pytestmark = pytest.mark.django_db


def queue(api, **query):
    response = api.get("concierge/requests", query=query)
    assert response.status_code == 200, response.content
    return response.json()


def ids(body):
    return [r["id"] for r in body["requests"]]


def issued(service_request, minutes_ago):
    service_request.issued_at = timezone.now() - timedelta(minutes=minutes_ago)
    service_request.save(update_fields=["issued_at"])
    return service_request


def test_queue_item_shape(concierge_api, concierge, user, make_request):
    category = SurveyCategory.objects.create(name="Pet", icon="pet")
    service_request = issued(
        make_request(user, name="Walk Rex", survey_category_id=category.pk), 90
    )
    services.message_create(
        request=service_request, author=user, body="Also <b>Tuesday</b> & Friday"
    )
    services.request_assign(request=service_request, assignee=concierge)

    body = queue(concierge_api)
    item = body["requests"][0]
    assert item["id"] == service_request.pk
    assert item["name"] == "Walk Rex"
    assert item["status"] == "open"
    assert item["company"] == {"id": user.companies.get().pk, "name": "Acme Corp"}
    assert item["employee"] == {"full_name": "Ada Lovelace", "email": user.email}
    assert (item["survey_category_name"], item["survey_category_icon"]) == ("Pet", "pet")
    assert datetime.fromisoformat(item["issued_at"]) == service_request.issued_at.replace(
        microsecond=service_request.issued_at.microsecond // 1000 * 1000
    )
    assert item["last_message"]["body_text"] == "Also <b>Tuesday</b> & Friday"  # plain text
    assert item["last_message"]["source"] == "user"
    assert item["waiting_on"] == "concierge"
    assert item["assignee"] == {"id": concierge.pk, "full_name": "Casey Jones"}
    assert body["counts"] == {"open": 1, "in_progress": 0, "closed": 0}


def test_waiting_on_follows_who_wrote_last(concierge_api, concierge, user, make_request):
    fresh = issued(make_request(user, name="Nobody wrote yet"), 3)
    asked = issued(make_request(user, name="Employee wrote last"), 2)
    answered = issued(make_request(user, name="Concierge wrote last"), 1)
    services.message_create(request=asked, author=user, body="Any news?")
    services.message_create(request=answered, author=user, body="Any news?")
    services.concierge_reply_create(request=answered, author=concierge, body="Yes! " + "x" * 300)
    body = queue(concierge_api)
    by_id = {r["id"]: r for r in body["requests"]}
    assert by_id[fresh.pk]["waiting_on"] == "concierge"
    assert by_id[fresh.pk]["last_message"] is None
    assert by_id[asked.pk]["waiting_on"] == "concierge"
    assert by_id[answered.pk]["waiting_on"] == "employee"
    excerpt = by_id[answered.pk]["last_message"]["body_text"]
    assert excerpt.startswith("Yes! xxx") and len(excerpt) == 160 and excerpt.endswith("…")
    assert by_id[answered.pk]["last_message"]["source_name"] == "Casey from Concierge"


def test_oldest_first_by_default_and_newest_on_request(concierge_api, user, make_request):
    middle = issued(make_request(user, name="Middle"), 20)
    newest = issued(make_request(user, name="Newest"), 10)
    oldest = issued(make_request(user, name="Oldest"), 30)
    assert ids(queue(concierge_api)) == [oldest.pk, middle.pk, newest.pk]
    assert ids(queue(concierge_api, order="newest")) == [newest.pk, middle.pk, oldest.pk]
    assert concierge_api.get("concierge/requests", query={"order": "sideways"}).status_code == 422


def test_status_filter_and_counts(concierge_api, user, make_request):
    open_one = make_request(user, name="Open")
    started = make_request(user, name="Started", status="in_progress")
    make_request(user, name="Done", status="closed")
    make_request(user, name="Done too", status="closed")
    body = queue(concierge_api, status="open")
    assert ids(body) == [open_one.pk]
    assert body["counts"] == {"open": 1, "in_progress": 1, "closed": 2}
    assert ids(queue(concierge_api, status="in_progress")) == [started.pk]
    assert len(queue(concierge_api, status="closed")["requests"]) == 2
    assert len(queue(concierge_api)["requests"]) == 4  # no status: all of them
    assert concierge_api.get("concierge/requests", query={"status": "lost"}).status_code == 422


def test_company_filter(concierge_api, user, bob, globex, make_request):
    make_request(user, name="Acme's")
    globex_request = make_request(bob, name="Globex's")
    body = queue(concierge_api, company=globex.pk)
    assert ids(body) == [globex_request.pk]
    assert body["requests"][0]["company"]["name"] == "Globex"
    assert body["counts"]["open"] == 1


def test_company_filter_beyond_any_id_is_refused_not_a_server_error(concierge_api):
    """A company id no database id can be (a hand-edited or mangled link): 422, not a 500."""
    response = concierge_api.get("concierge/requests", query={"company": str(2**63)})
    assert response.status_code == 422, response.content
    assert response.json()["errors"] == {"company": ["Choose a company from the list."]}


def test_employee_of_two_companies_shows_the_filtered_one(
    concierge_api, user, globex, make_request
):
    user.companies.add(globex)
    service_request = make_request(user)
    body = queue(concierge_api, company=globex.pk)
    assert body["requests"][0]["company"] == {"id": globex.pk, "name": "Globex"}
    assert ids(body) == [service_request.pk]


def test_assignee_filters(concierge_api, concierge, other_concierge, user, make_request):
    mine = make_request(user, name="Mine")
    danas = make_request(user, name="Dana's")
    nobodys = make_request(user, name="Nobody's")
    services.request_assign(request=mine, assignee=concierge)
    services.request_assign(request=danas, assignee=other_concierge)
    assert ids(queue(concierge_api, assignee="mine")) == [mine.pk]
    assert ids(queue(concierge_api, assignee="unassigned")) == [nobodys.pk]
    assert ids(queue(concierge_api, assignee=str(other_concierge.pk))) == [danas.pk]
    response = concierge_api.get("concierge/requests", query={"assignee": "someone"})
    assert response.status_code == 422
    assert response.json()["errors"] == {
        "assignee": ["Choose 'mine', 'unassigned' or a concierge's id."]
    }


def test_search_over_employee_request_name_and_message_text(
    concierge_api, concierge, user, bob, make_request
):
    walker = make_request(user, name="Find a dog walker")
    plumber = make_request(bob, name="Fix the sink")
    services.message_create(request=plumber, author=bob, body="It leaks under the cabinet & floor")
    services.concierge_reply_create(request=walker, author=concierge, body="Marvellous news")

    assert ids(queue(concierge_api, q="lovelace")) == [walker.pk]  # employee last name
    assert ids(queue(concierge_api, q="Bob Stone")) == [plumber.pk]  # full name, both words
    assert ids(queue(concierge_api, q="globex.example")) == [plumber.pk]  # email
    assert ids(queue(concierge_api, q="DOG walker")) == [walker.pk]  # request name
    assert ids(queue(concierge_api, q="cabinet")) == [plumber.pk]  # employee's message
    assert ids(queue(concierge_api, q="marvellous")) == [walker.pk]  # concierge's message
    assert ids(queue(concierge_api, q="cabinet & floor")) == [plumber.pk]  # escaped in HTML
    assert ids(queue(concierge_api, q=f"#{walker.pk}")) == [walker.pk]
    assert ids(queue(concierge_api, q="nothing-matches-this")) == []
    body = queue(concierge_api, q="sink")
    assert body["counts"] == {"open": 1, "in_progress": 0, "closed": 0}  # counts follow search


def test_queue_runs_a_fixed_number_of_queries(concierge_api, concierge, user, bob, make_request):
    """ARCHITECTURE §4: the query count does not grow with the number of requests."""
    category = SurveyCategory.objects.create(name="Home", icon="home")

    def add(n):
        for i in range(n):
            owner = user if i % 2 else bob
            service_request = make_request(
                owner, name=f"Request {i}", survey_category_id=category.pk
            )
            services.message_create(request=service_request, author=owner, body=f"Hello {i}")
            services.concierge_reply_create(request=service_request, author=concierge, body="Hi")

    def count_queries():
        with CaptureQueriesContext(connection) as queries:
            body = queue(concierge_api, q="request")
        return len(queries), len(body["requests"])

    add(1)
    few, listed = count_queries()
    assert listed == 1
    add(12)
    many, listed = count_queries()
    assert listed == 13
    assert many == few
    assert many <= 8  # session + groups + counts + requests + companies + last messages
