"""Results off the participants' path (issue #23 row 14, point 6): the results page and its CSV downloads serve the
analysis `flask analyze --store` stored, with its age and the data generation it read; every change an analysis sees
(completion, early end, exclusion, reinstatement, imports, a study edit) bumps the generation so the stored result
shows as stale, a trial save does not; a recompute runs in its own process, one at a time per study."""

from __future__ import annotations

import csv
import io
import random
import re
import time
from pathlib import Path

import pytest

from analysis.reports.render import Document, Items, Paragraph, Section, Table, render_html
from server.db import db
from server.models import ParticipantSession, Recompute, StoredResult, Study, current_generation
from server.results import analyze, stored
from tests.helpers import answer_all, enter, take_study3_like_people

PAGE = "/researcher/studies/study3/results"


def study3() -> Study:
    db.session.rollback()
    return db.session.scalars(db.select(Study).filter_by(slug="study3")).one()


def generation() -> int:
    db.session.rollback()
    return current_generation(study3().id)


def complete(client, rng) -> str:
    token = take_study3_like_people(client, rng)
    assert client.post(f"/api/sessions/{token}/complete").status_code == 200
    return token


@pytest.fixture
def three(client):
    rng = random.Random(23)
    return [complete(client, rng) for _ in range(3)]


def store(runner, *args) -> str:
    result = runner.invoke(args=["analyze", "study3", "--store", "--n-boot", "50", *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_the_page_serves_the_stored_result_without_computing(app, client, auth, runner, three, monkeypatch):
    output = store(runner)
    assert re.search(r"stored the result of study3's data generation \d+ \(exclude_outliers=True;mlae=", output)
    assert "MLAE" in output  # the report is printed as without --store

    def no_analysis(*args, **kwargs):
        raise AssertionError("the page ran the analysis")

    monkeypatch.setattr(analyze, "run_analysis", no_analysis)
    monkeypatch.setattr(stored, "run_analysis", no_analysis)
    auth.login()
    page = client.get(PAGE)
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert 'id="current"' in html and 'id="stale"' not in html and 'id="result-age"' in html
    report = html.split('id="report"', 1)[1].split('id="figures"', 1)[0]
    assert "<pre" not in html and report.count('<table class="report-table">') >= 3  # HTML tables, not a text block
    assert "<th>observer</th>" in report and '<td class="num">' in report  # numbers right-aligned
    assert html.count('src="data:image/png;base64,') == 3  # the figures `flask analyze --out` writes
    assert not re.search(r"\d\.\d{8,}", re.sub(r'src="data:[^"]*"', "", html))  # rounded for reading
    assert '<form method="post" action="/researcher/studies/study3/results/recompute"' in html


def test_csv_downloads_are_the_stored_tables_of_flask_analyze_out(app, client, auth, runner, three, tmp_path):
    auth.login()
    none = client.get(f"{PAGE}/mlae.csv")
    assert none.status_code == 409 and none.get_json()["error"] == "no_stored_result"
    assert 'id="no-stored"' in client.get(PAGE).get_data(as_text=True)
    store(runner, "--out", str(tmp_path))
    html = client.get(PAGE).get_data(as_text=True)
    links = re.findall(r'href="(/researcher/studies/study3/results/[a-z_]+\.csv\?stage=live)"', html)
    assert [link.rsplit("/", 1)[1].split("?")[0] for link in links] == [
        "participants.csv",
        "mlae.csv",
        "mae.csv",
        "effects.csv",
        "consistency.csv",
        "distance.csv",  # model error against training–test distance (no rows: these models carry no distances)
        "distance_runs.csv",
    ]
    for link in links:
        answer = client.get(link)
        assert answer.status_code == 200 and answer.mimetype == "text/csv"
        name = link.rsplit("/", 1)[1].split("?")[0]
        assert answer.get_data(as_text=True) == (tmp_path / name).read_text(encoding="utf-8")
    rows = list(csv.DictReader(io.StringIO(client.get(links[1]).get_data(as_text=True))))
    assert rows and {"observer", "chart_type", "mlae"} <= set(rows[0])
    assert client.get(f"{PAGE}/nope.csv").status_code == 404


def test_a_problem_in_the_data_is_stored_and_shown(app, client, auth, runner):
    result = runner.invoke(args=["analyze", "study3", "--store", "--n-boot", "50"])
    assert result.exit_code == 1 and "stored the problem" in result.output
    auth.login()
    html = client.get(PAGE).get_data(as_text=True)
    assert 'id="no-results"' in html and "no completed participants" in html
    assert client.get(f"{PAGE}/mlae.csv").status_code == 409


def test_every_change_an_analysis_sees_makes_the_stored_result_stale(app, client, auth, runner, three, tmp_path):
    auth.login()
    store(runner)
    before = generation()
    assert 'id="current"' in client.get(PAGE).get_data(as_text=True)

    # trial saves do not bump (they stay one statement); the completion does, once
    token = enter(client)
    answer_all(client, token)
    assert generation() == before
    assert client.post(f"/api/sessions/{token}/complete").status_code == 200
    assert client.post(f"/api/sessions/{token}/complete").status_code == 200  # a repeat changes nothing
    assert generation() == before + 1
    assert re.search(rf'id="stale">Stale: .*now generation {before + 1}', client.get(PAGE).get_data(as_text=True))

    # an early end
    early = enter(client, consent=False)
    assert client.post(f"/api/sessions/{early}/end", json={"outcome": "no_consent"}).status_code == 200
    assert generation() == before + 2

    # exclusion and reinstatement, from the CLI and the page
    person = db.session.scalars(db.select(ParticipantSession.id).filter_by(token=token)).one()
    assert runner.invoke(args=["participants", "exclude", "study3", str(person), "--reason", "dup"]).exit_code == 0
    assert generation() == before + 3
    url = f"/researcher/studies/study3/participants/{person}/reinstate"
    assert client.post(url, data={"reason": "not a duplicate"}).status_code == 303
    assert generation() == before + 4

    # model predictions
    assert runner.invoke(args=["stimuli", "export", "study3", "--out", str(tmp_path / "stimuli")]).exit_code == 0
    with open(tmp_path / "stimuli" / "manifest.csv", newline="") as fh:
        manifest = list(csv.DictReader(fh))
    (tmp_path / "p.csv").write_text(
        "stimulus_id,prediction\n" + "".join(f"{m['stimulus_id']},{m['true_percent']}\n" for m in manifest)
    )
    imported = runner.invoke(
        args=["import-predictions", "study3", str(tmp_path / "p.csv"), "--observer", "cnn", "--unit", "percent"]
    )
    assert imported.exit_code == 0, imported.output
    assert generation() == before + 5

    # recomputing makes it current again
    store(runner)
    assert 'id="current"' in client.get(PAGE).get_data(as_text=True)
    assert db.session.scalars(db.select(StoredResult.generation)).one() == before + 5  # one row per options


def test_a_study_edit_bumps_the_generation_and_an_unchanged_sync_does_not(app, runner, tmp_path):
    folder = tmp_path / "studies" / "study3"
    folder.mkdir(parents=True)
    toml = Path(app.config["STUDIES_DIR"]) / "study3" / "study.toml"
    (folder / "study.toml").write_text(toml.read_text())
    app.config["STUDIES_DIR"] = str(folder.parent)
    before = generation()
    assert "unchanged" in runner.invoke(args=["studies", "sync"]).output
    assert generation() == before
    (folder / "study.toml").write_text(toml.read_text().replace("trials_per_type = 5", "trials_per_type = 4"))
    assert "updated (version 2)" in runner.invoke(args=["studies", "sync"]).output
    assert generation() == before + 1


def test_a_second_recompute_is_refused_while_one_runs(app, client, auth, runner, three, monkeypatch):
    launched = []
    monkeypatch.setattr(stored, "launch", lambda slug, options, env, by: launched.append((slug, options)))
    auth.login()
    with stored.recompute_lock(study3().id) as taken:
        assert taken
        refused = runner.invoke(args=["analyze", "study3", "--store", "--n-boot", "50"])
        assert refused.exit_code == 1 and "already running" in refused.output
        assert 'id="running"' in client.get(PAGE).get_data(as_text=True)
        answer = client.post(f"{PAGE}/recompute", follow_redirects=True)
        assert "already running" in answer.get_data(as_text=True) and launched == []
    assert db.session.scalars(db.select(StoredResult)).first() is None  # the refused one stored nothing
    assert not stored.running(study3().id)
    client.post(f"{PAGE}/recompute")
    assert launched == [("study3", analyze.Options(n_boot=app.config["DASHBOARD_N_BOOT"]))]


def test_the_recompute_button_runs_flask_analyze_store_in_its_own_process(app, client, auth, three, monkeypatch):
    app.config["DASHBOARD_N_BOOT"] = 50
    processes = []
    real = stored.launch
    monkeypatch.setattr(stored, "launch", lambda *args: processes.append(real(*args)))
    auth.login()
    assert client.post(f"{PAGE}/recompute").status_code == 303
    [process] = processes
    assert process.args[:3] == ["chrt", "--idle", "0"]  # a core only when the workers serving participants leave one
    command = process.args[process.args.index("analyze") :]
    assert command[:3] == ["analyze", "study3", "--store"] and command[command.index("--n-boot") + 1] == "50"
    running = client.get(PAGE).get_data(as_text=True)  # the process is still starting: Python imports the app
    assert "Recompute started." in running and 'id="recompute-running">Recompute running: started by ada at' in running
    assert '<meta http-equiv="refresh" content="5">' in running  # the page reloads itself until it is done
    assert process.wait(timeout=300) == 0
    html = page_after_recompute(client)
    assert 'id="recompute-done">Recompute done: started by ada' in html and "refresh" not in html
    assert 'id="current"' in html and "n_boot=50" in html and '<table class="report-table">' in html


def page_after_recompute(client) -> str:
    """The results page once the launched recompute's end is noted (the thread that waited for it writes that)."""
    deadline = time.monotonic() + 60
    while True:
        db.session.rollback()
        row = db.session.scalars(db.select(Recompute).order_by(Recompute.id.desc())).first()
        if row.finished_at is not None or time.monotonic() > deadline:
            return client.get(PAGE).get_data(as_text=True)
        time.sleep(0.1)


def test_a_recompute_that_fails_shows_its_error(app, client, auth, runner, three, monkeypatch):
    store(runner)
    # A stored result whose options the command line no longer takes (as after an upgrade that dropped a value):
    # the button's recompute uses them, and `flask analyze` refuses them.
    row = db.session.scalars(db.select(StoredResult)).one()
    row.options = {**row.options, "mlae": "median"}
    db.session.commit()
    processes = []
    real = stored.launch
    monkeypatch.setattr(stored, "launch", lambda *args: processes.append(real(*args)))
    auth.login()
    client.post(f"{PAGE}/recompute")
    assert processes[0].wait(timeout=300) != 0
    html = page_after_recompute(client)
    failed = html[html.index('id="recompute-failed"') :].split("</div>")[0]
    assert "The recompute started by ada at" in failed and "Its error:" in failed
    assert "Invalid value for &#39;--mlae&#39;: &#39;median&#39; is not one of" in failed
    assert "refresh" not in html and 'id="current"' in html  # the earlier result is still shown, as it was


def test_render_html_lays_out_every_block_as_html_and_escapes_text():
    doc = Document(
        "Study <3>",
        lead=["n = 3 & more"],
        sections=[
            Section(
                "Errors",
                [
                    Paragraph("a < b"),
                    Table(["chart", "MLAE"], [["bar <b>", "1.50"]], "lr"),
                    Table(["", "n"], [["live", "3"]], "lr"),
                    Table(["x"], [], "l", empty="(no models)"),
                    Items(["note 'one'"]),
                ],
            )
        ],
    )
    assert render_html(doc) == (
        '<article class="report"><h2>Study &lt;3&gt;</h2><p class="lead">n = 3 &amp; more</p>'
        "<section><h3>Errors</h3><p>a &lt; b</p>"
        '<table class="report-table"><thead><tr><th>chart</th><th class="num">MLAE</th></tr></thead>'
        '<tbody><tr><td>bar &lt;b&gt;</td><td class="num">1.50</td></tr></tbody></table>'
        # an empty corner heading is a plain cell: a <th> without text names no column (axe's empty-table-header)
        '<table class="report-table"><thead><tr><td></td><th class="num">n</th></tr></thead>'
        '<tbody><tr><td>live</td><td class="num">3</td></tr></tbody></table>'
        '<p class="empty">(no models)</p><ul><li>note &#39;one&#39;</li></ul></section></article>\n'
    )
