"""Idempotence under real concurrency: requests race each other through a threaded server."""

import json
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

from sqlalchemy import func

from server.db import db
from server.models import ParticipantSession, SurveyResponse, Trial
from tests.helpers import PROLIFIC, trial_body


def call(url, body=None, method="GET"):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def enter(base, pid):
    opener = urllib.request.build_opener(NoRedirect)
    try:
        opener.open(f"{base}/study/study3?PROLIFIC_PID={pid}&STUDY_ID=s&SESSION_ID=x")
    except urllib.error.HTTPError as exc:
        assert exc.code == 303
        return exc.headers["Location"].rsplit("/", 1)[1]
    raise AssertionError("no redirect")


def test_racing_first_entries_of_one_prolific_id_share_one_session(app, live_server):
    with ThreadPoolExecutor(8) as pool:
        tokens = set(pool.map(lambda _: enter(live_server, PROLIFIC["PROLIFIC_PID"]), range(8)))
    db.session.rollback()
    assert len(tokens) == 1
    assert db.session.scalar(db.select(func.count()).select_from(ParticipantSession)) == 1


def test_same_trial_sent_five_times_at_once_is_stored_once(app, live_server):
    token = enter(live_server, "racer")
    api = f"{live_server}/api/sessions/{token}"
    assert call(f"{api}/surveys/consent", {"answers": {"agreed": True}}, "PUT")[0] == 200
    plan = json.loads(call(api)[1])["plan"]
    body = trial_body(plan[0], 33.0)
    with ThreadPoolExecutor(5) as pool:
        statuses = sorted(status for status, _ in pool.map(lambda _: call(f"{api}/trials", body, "POST"), range(5)))
    assert statuses == [200, 200, 200, 200, 201]
    # Two tabs answering the same trial differently: the first answer stands, the other is told so.
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda p: call(f"{api}/trials", trial_body(plan[1], p), "POST"), (1.0, 2.0, 3.0, 4.0)))
    assert sorted(status for status, _ in results) == [201, 409, 409, 409]
    db.session.rollback()
    rows = db.session.scalars(db.select(Trial).order_by(Trial.trial_index)).all()
    assert [(t.trial_index, t.client_trial_id) for t in rows][0] == (0, body["trial_id"])
    assert len(rows) == 2
    winner = next(json.loads(b) for s, b in results if s == 201)
    assert winner["trial_index"] == 1


def test_two_tabs_answering_surveys_and_completing_at_once_store_one_of_each(app, live_server):
    token = enter(live_server, "tabs")
    api = f"{live_server}/api/sessions/{token}"
    # Consent first (the server takes nothing else before it), then the questionnaire, each from five tabs at once.
    for name, answers in [
        ("consent", {"agreed": True}),
        ("demographics", {"gender": "male", "age": 52, "education": "doctorate", "nationality": "Irish"}),
    ]:
        with ThreadPoolExecutor(5) as pool:  # every call returns before the loop moves on
            statuses = list(
                pool.map(
                    lambda _: call(f"{api}/surveys/{name}", {"answers": answers}, "PUT")[0],  # noqa: B023
                    range(5),
                )
            )
        assert statuses == [200] * 5
    for item in json.loads(call(api)[1])["plan"]:
        assert call(f"{api}/trials", trial_body(item), "POST")[0] == 201
    with ThreadPoolExecutor(5) as pool:
        done = list(pool.map(lambda _: call(f"{api}/complete", {}, "POST"), range(5)))
    assert {status for status, _ in done} == {200} and len({body for _, body in done}) == 1
    db.session.rollback()
    assert db.session.scalar(db.select(func.count()).select_from(SurveyResponse)) == 2
    session = db.session.scalars(db.select(ParticipantSession)).one()
    assert session.status == "completed" and session.completed_at is not None
