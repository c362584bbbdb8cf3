"""A researcher's own jsPsych experiment (issue #24 points 1, 2 and 5), through the API: the sync refuses pages that
cannot run and keeps the previous version; rows are stored as plan-less trials, once each, within the row limit;
completion needs the "timeline finished" signal and the study's minimum of rows; the experiment's page is served
sandboxed, with its inline scripts allowed by hash."""

from __future__ import annotations

import base64
import hashlib
import re
import uuid
from pathlib import Path

import pytest

from server.db import db
from server.models import ParticipantSession, Study, Trial
from server.studies.definitions import StudyFileError, sync_studies
from server.web.openapi import ROW_EXAMPLE
from tests.helpers import enter
from tests.jspsych_study import EXPERIMENT, HEAD, jspsych_app, write_study


@pytest.fixture
def app(tmp_path):
    with jspsych_app(tmp_path, own=EXPERIMENT) as app:
        yield app


def row(n, **fields):
    return {"trial_type": "html-button-response", "trial_index": n, "rt": 500 + n, "response": 0, **fields}


def post_row(client, token, data, trial_id=None):
    body = {"trial_id": trial_id or str(uuid.uuid4()), "row": data, "client_time": "2026-11-25T12:00:00+00:00"}
    return client.post(f"/api/sessions/{token}/rows", json=body)


def stored(token):
    db.session.rollback()
    return db.session.execute(
        db.select(Trial.trial_index, Trial.stimulus_id, Trial.response, Trial.rt_ms)
        .join(ParticipantSession)
        .where(ParticipantSession.token == token)
        .order_by(Trial.trial_index)
    ).all()


def test_rows_are_stored_once_in_order_with_a_server_index(client):
    token = enter(client, slug="own")
    assert post_row(client, token, row(0)).status_code == 201
    again = str(uuid.uuid4())
    assert post_row(client, token, row(1, nested={"a": [1, 2]}), again).status_code == 201
    repeat = post_row(client, token, row(1, nested={"a": [1, 2]}), again)  # a retry whose answer was lost
    assert repeat.status_code == 200 and repeat.get_json()["duplicate"] is True
    assert post_row(client, token, row(0)).status_code == 201  # jsPsych's own index restarts after a reload
    rows = stored(token)
    assert [r.response["trial_index"] for r in rows] == [0, 1, 0]
    assert len({r.trial_index for r in rows}) == 3 and all(r.stimulus_id is None for r in rows)
    assert rows[1].response["nested"] == {"a": [1, 2]} and [r.rt_ms for r in rows] == [500, 501, 500]
    replay = client.get(f"/api/sessions/{token}/rows").get_json()
    assert [r["row"] for r in replay["rows"]] == [r.response for r in rows]


def test_rows_need_consent_and_fit_the_limit(client):
    token = enter(client, slug="own", consent=False)
    early = post_row(client, token, row(0))
    assert early.status_code == 409 and early.get_json()["error"] == "out_of_order"
    token = enter(client, slug="own")
    big = post_row(client, token, row(0, text="x" * 70_000))
    assert big.status_code == 413 and big.get_json()["error"] == "row_too_large"
    assert post_row(client, token, ["not", "a", "row"]).status_code == 422
    nan = '{"trial_id": "row-with-nan", "row": {"rt": NaN}}'
    refused = client.post(f"/api/sessions/{token}/rows", data=nan, content_type="application/json")
    assert refused.status_code == 422 and refused.get_json()["field"] == "row"
    assert stored(token) == []


def test_completion_needs_the_finished_signal_and_enough_rows(client):
    token = enter(client, slug="own")
    for n in range(7):
        assert post_row(client, token, row(n)).status_code == 201
    refused = client.post(f"/api/sessions/{token}/complete", json={})
    assert refused.status_code == 409 and refused.get_json()["error"] == "timeline_not_finished"
    assert client.post(f"/api/sessions/{token}/timeline-finished", json={}).status_code == 200
    short = client.post(f"/api/sessions/{token}/complete", json={})
    assert short.status_code == 409 and short.get_json()["error"] == "too_few_rows"
    session = db.session.scalars(db.select(ParticipantSession).filter_by(token=token)).one()
    assert session.flag == "too_few_rows" and session.status == "started"
    assert post_row(client, token, row(7)).status_code == 201
    done = client.post(f"/api/sessions/{token}/complete", json={})
    assert done.status_code == 200 and done.get_json()["status"] == "completed"


def test_the_experiment_page_is_sandboxed_and_its_inline_script_allowed_by_hash(client):
    token = enter(client, slug="own")
    page = client.get(f"/study/own/s/{token}/experiment")
    assert page.status_code == 200 and b'sandbox="allow-scripts allow-forms allow-modals"' in page.data
    frame = client.get("/study/own/x/1/experiment.html")
    csp = frame.headers["Content-Security-Policy"]
    assert csp.startswith("sandbox allow-scripts allow-forms allow-modals;") and "allow-same-origin" not in csp
    inline = EXPERIMENT.split("<script>", 1)[1].split("</script>", 1)[0]
    assert f"'sha256-{base64.b64encode(hashlib.sha256(inline.encode()).digest()).decode()}'" in csp
    # the runtime right after the jsPsych script, before the experiment's own code
    html = frame.data.decode()
    jspsych = re.search(r'<script src="/pkg/[0-9a-f]{64}/index.browser.min.js" crossorigin="anonymous"></script>', html)
    assert jspsych and jspsych.end() == html.index('<script src="/tasks/jspsych/runtime.js" crossorigin="anonymous">')
    assert html.index("/tasks/jspsych/runtime.js") < html.index("initJsPsych({")


def test_the_runtime_follows_jspsychs_script_when_its_stylesheet_is_linked_first(app, client):
    """A page that links jspsych@…/css/jspsych.css above jsPsych's script (Schiwo/jsPsychWorkflow_FlankerTask does):
    the runtime goes after the script, not after the stylesheet, where initJsPsych would not be defined yet."""
    link = '  <link href="https://unpkg.com/jspsych@8.3.0/css/jspsych.css" rel="stylesheet">\n'
    html = EXPERIMENT.replace(link, "").replace(
        "  <title>My experiment</title>\n", "  <title>My experiment</title>\n" + link
    )
    assert html.index("jspsych.css") < html.index('<script src="https://unpkg.com/jspsych@8.3.0">')
    write_study(Path(app.config["STUDIES_DIR"]), "linkfirst", html)
    sync_studies(Path(app.config["STUDIES_DIR"]))
    token = enter(client, slug="linkfirst")
    assert client.get(f"/study/linkfirst/s/{token}/experiment").status_code == 200
    frame = client.get("/study/linkfirst/x/1/experiment.html").data.decode()
    jspsych = re.search(
        r'<script src="/pkg/[0-9a-f]{64}/index.browser.min.js" crossorigin="anonymous"></script>', frame
    )
    assert jspsych and jspsych.end() == frame.index('<script src="/tasks/jspsych/runtime.js" crossorigin="anonymous">')
    assert frame.index("jspsych.css") < jspsych.start()


def test_before_consent_the_experiment_page_sends_back_to_studyhives_own(client):
    token = enter(client, slug="own", consent=False)
    assert client.get(f"/study/own/s/{token}/experiment").headers["Location"].endswith(f"/study/own/s/{token}")


@pytest.mark.parametrize(
    "html, message",
    [
        (None, "experiment.html: study.toml: the experiment file experiment.html is not in the study folder"),
        (HEAD + "<script>var x = 1;</script>", "experiment.html: <script>: no script calls initJsPsych()"),
        (HEAD + "<script>jsPsych.init({timeline: []});</script>", "<script>: this script calls jsPsych.init(), but"),
        ("<script>var jsPsych = initJsPsych();</script>", "experiment.html: <script src=…jspsych…>: no script tag"),
    ],
    ids=["no experiment file", "no initJsPsych", "jsPsych 6 start on 8", "no jsPsych tag"],
)
def test_a_page_that_cannot_run_is_a_sync_error_and_the_previous_version_keeps_serving(app, client, html, message):
    folder = write_study(Path(app.config["STUDIES_DIR"]), "own")
    if html is None:
        (folder / "experiment.html").unlink()
    else:
        (folder / "experiment.html").write_text(html)
    with pytest.raises(StudyFileError) as raised:
        sync_studies(folder.parent)
    assert message in str(raised.value) and str(folder / "study.toml") in str(raised.value)
    db.session.rollback()
    study = db.session.scalars(db.select(Study).filter_by(slug="own")).one()
    assert study.version == 1
    assert b"initJsPsych({" in client.get("/study/own/x/1/experiment.html").data


def test_the_documented_row_example_is_stored(client):
    token = enter(client, slug="own")
    assert client.post(f"/api/sessions/{token}/rows", json=ROW_EXAMPLE).status_code == 201
    assert client.post(f"/api/sessions/{token}/rows", json=ROW_EXAMPLE).get_json() == {
        "stored": True,
        "duplicate": True,
    }


def test_once_studyhives_steps_are_done_the_study_page_goes_on_to_the_experiment(client):
    token = enter(client, slug="own", consent=False)
    assert client.get(f"/study/own/s/{token}").status_code == 200  # consent first, on studyhive's own page
    client.put(f"/api/sessions/{token}/surveys/consent", json={"answers": {"agreed": True}})
    again = client.get(f"/study/own/s/{token}")  # a reload after consent: the experiment, not consent again
    assert again.status_code == 302 and again.headers["Location"].endswith(f"/study/own/s/{token}/experiment")
    assert client.get("/study/own/x/2/experiment.html").status_code == 404  # no such version
    assert client.get("/study/own/x/1/other.html").status_code == 404
