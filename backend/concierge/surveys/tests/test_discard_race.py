"""Spec §4 'Request drawer flow' steps 5 and 6: 'Yes, cancel' (a discard) sent while Submit is
under way. The submit ends first and keeps its run, so the request it made keeps its answers."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, connections

from concierge.surveys import services
from concierge.surveys.models import UserRequestAnswer, UserRequestSurvey
from concierge.surveys.tests.test_flow import walker  # noqa: F401 (a fixture)

SUBMIT_PAUSE = 0.5  # seconds the submit holds the run, long enough for the discard to reach it


def _answer_all(user, run, questions) -> None:
    for key, value in [
        ("size", "small"),
        ("schedule", "Weekdays"),
        ("phone", "5551234567"),
        ("email", "ada@example.com"),
    ]:
        services.user_request_answer_save(
            user=user,
            user_request_survey_id=run.pk,
            question_id=questions[key].pk,
            object_type="Datum",
            value=value,
        )


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="row locks are PostgreSQL's; SQLite serialises writes"
)
def test_s4_cancel_sent_while_submitting_keeps_the_submitted_run_and_its_answers(
    user,
    walker,  # noqa: F811
    monkeypatch,
):
    """§4 request drawer: 'Yes, cancel' arriving during Submit does not delete the run the
    request was made from (nor its answers)."""
    run = services.user_request_survey_begin(user=user, survey_id=walker["survey"].pk)
    _answer_all(user, run, walker["q"])
    submit_holds_the_run = threading.Event()
    create_request = services.request_create

    def slow_request_create(**kwargs):
        submit_holds_the_run.set()
        time.sleep(SUBMIT_PAUSE)
        return create_request(**kwargs)

    monkeypatch.setattr(services, "request_create", slow_request_create)

    def submit() -> None:
        try:
            services.user_request_survey_submit(user=user, user_request_survey_id=run.pk)
        finally:
            connections.close_all()

    def discard() -> None:
        try:
            submit_holds_the_run.wait(5)
            services.user_request_survey_discard(user=user, user_request_survey_id=run.pk)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=submit), threading.Thread(target=discard)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    kept = UserRequestSurvey.objects.filter(pk=run.pk).first()
    assert kept is not None
    assert kept.submitted_at is not None and kept.service_request_id is not None
    assert UserRequestAnswer.objects.filter(user_request_survey=kept).count() == 4
