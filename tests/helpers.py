"""Small helpers shared by the tests: entering a study and answering its trials through the JSON API."""

from __future__ import annotations

import itertools
import random
import uuid

from server.db import db
from server.models import Study


def go_live() -> None:
    """Put every study in the database live, as `make run` does for the demo studies (a new study starts in pilot,
    and `flask analyze`, the dashboard and the quotas count the live stage by default): the tests' participants
    are then the data every view counts. tests/test_stages.py covers the pilot stage."""
    db.session.execute(db.update(Study).values(stage="live"))
    db.session.commit()


def to_pilot() -> None:
    """Put every study in the database back in pilot (the stage a new study starts in), for tests whose sessions
    are a pilot."""
    db.session.execute(db.update(Study).values(stage="pilot"))
    db.session.commit()


PROLIFIC = {"PROLIFIC_PID": "5f1a2b3c4d5e6f7a8b9c0d1e", "STUDY_ID": "study-abc", "SESSION_ID": "sess-xyz"}


def enter(client, slug="study3", consent=True, **params) -> str:
    """Open the entry link and (unless consent=False) agree to take part, as the page's first step does; return the
    session token from the redirect. The server takes trials and surveys only after consent."""
    response = client.get(f"/study/{slug}", query_string=params)
    assert response.status_code == 303, response.data
    token = response.headers["Location"].rsplit("/", 1)[1]
    if consent:
        agree(client, token)
    return token


def agree(client, token):
    response = client.put(f"/api/sessions/{token}/surveys/consent", json={"answers": {"agreed": True}})
    assert response.status_code == 200, response.get_json()


def trial_body(item, percent=50.0, trial_id=None, **extra):
    return {
        "trial_id": trial_id or str(uuid.uuid4()),
        "trial_index": item["index"],
        "stimulus_id": item["stimulus_id"],
        "response": {"percent": percent},
        "rt_ms": 1234,
        "client_time": "2026-11-22T12:00:00+00:00",
        **extra,
    }


DEMOGRAPHICS = {"gender": "female", "age": 30, "education": "doctorate", "nationality": "Chilean"}


def answer_surveys(client, token, **answers):
    """Answer consent and every survey of the session's flow (demographics with DEMOGRAPHICS unless given)."""
    state = client.get(f"/api/sessions/{token}").get_json()
    agree(client, token)
    for name in state["surveys"]:
        response = client.put(
            f"/api/sessions/{token}/surveys/{name}", json={"answers": answers.get(name, DEMOGRAPHICS)}
        )
        assert response.status_code == 200, response.get_json()


def answer_all(client, token, percent_for=lambda item: 50.0):
    """Answer the surveys and every planned trial (so that /complete succeeds)."""
    answer_surveys(client, token)
    state = client.get(f"/api/sessions/{token}").get_json()
    for item in state["plan"]:
        response = client.post(f"/api/sessions/{token}/trials", json=trial_body(item, percent_for(item)))
        assert response.status_code == 201, response.get_json()
    return state


# The seed paper's people (Jiang et al., Study III) err by MAE 0.056 in ratio units. A simulated participant who
# answers the true percent plus Gaussian noise with these SDs (points; growing with the chart type, Cleveland &
# McGill's order; mean 7.0) errs by about 0.8 × 7.0 = 5.6 points on average.
PAPER_SIGMA = {1: 5.5, 2: 6.5, 3: 6.5, 4: 8.0, 5: 8.5}


def take_study3_like_people(client, rng: random.Random, slug: str = "study3") -> str:
    """One simulated participant with the paper's human error takes a ratio-estimation study through the JSON API,
    practice included, and completes it; returns the session token."""
    token = enter(client, slug)

    def answer(item):
        kind, short, tall, _ = item["stimulus_id"].split("-")
        true = 100 * int(short[1:]) / int(tall[1:])
        return min(100.0, max(0.0, true + rng.gauss(0, PAPER_SIGMA[int(kind[1:])])))

    answer_all(client, token, answer)
    response = client.post(f"/api/sessions/{token}/complete")
    assert response.status_code == 200, response.get_json()
    return token


def rate_all(client, token, rating):
    """Rate every statement of a hypothesis-rating session `rating` (1–7) through the API; or, given a list of
    ratings, the first statements of the plan one each."""
    ratings = rating if isinstance(rating, list) else itertools.repeat(rating)
    for item, rating in zip(client.get(f"/api/sessions/{token}").get_json()["plan"], ratings):
        response = client.post(
            f"/api/sessions/{token}/trials",
            json={
                "trial_id": str(uuid.uuid4()),
                "trial_index": item["index"],
                "stimulus_id": item["stimulus_id"],
                "response": {"rating": rating},
                "rt_ms": 2000,
                "client_time": "2026-11-22T12:00:00+00:00",
            },
        )
        assert response.status_code == 201
