"""What the Prolific tests share: a Prolific sketch-recognition study with two conditions and a catch trial, an app
on it talking to a fake Prolific (tests/fake_prolific.py), participants who enter through the Prolific link and
answer through the JSON API, and `flask …` run in a separate process (to be killed)."""

from __future__ import annotations

import os
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from server.db import db, dispose_engines
from server.models import Stimulus
from server.studies.definitions import get_study, sync_studies
from tests.conftest import ROOT, make_app
from tests.fake_prolific import FakeProlific
from tests.helpers import answer_surveys, go_live

SLUG = "psketch"
PROLIFIC_STUDY = "60f0a1b2c3d4e5f6a7b8c9d0"
CODES = {
    "completed": "C1D0NE00",
    "failed_attention_check": "C1FA1LAC",
    "no_consent": "C1N0C0NS",
    "incompatible_device": "C1DEV1CE",
}
QUOTAS = {"a": 18, "b": 17}
TABLES = f"""
[[conditions]]
name = "a"
quota = {QUOTAS["a"]}
[[conditions]]
name = "b"
quota = {QUOTAS["b"]}

[prolific]
study_id = "{PROLIFIC_STUDY}"
max_bonus = 2.50
[prolific.codes]
""" + "".join(f'{outcome} = "{code}"\n' for outcome, code in CODES.items())


def write_study(folder: Path, tables: str = TABLES, slug: str = SLUG) -> Path:
    """The sketch demo as a Prolific study: 3 sketches and 1 catch sketch per participant."""
    text = (ROOT / "studies" / "sketch-demo" / "study.toml").read_text()
    text = text.replace('platform = "direct"', 'platform = "prolific"').replace("trials = 8 ", "trials = 3 ")
    path = folder / slug / "study.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text + tables)
    return path


@contextmanager
def prolific_app(tmp_path: Path, **config):
    """An app whose only study is the Prolific sketch study, its Prolific study on a fresh fake; yields both."""
    fake = FakeProlific().start()
    fake.add_study(PROLIFIC_STUDY, sum(QUOTAS.values()), CODES)
    write_study(tmp_path / "studies")
    app = make_app(
        tmp_path,
        STUDIES_DIR=str(tmp_path / "studies"),
        PROLIFIC_API_URL=fake.url,
        PROLIFIC_API_TOKEN=fake.token,
        PROLIFIC_API_BACKOFF=0.01,
        PROLIFIC_API_TIMEOUT=5.0,
        **config,
    )
    try:
        with app.app_context():
            db.drop_all()
            db.create_all()
            sync_studies(Path(app.config["STUDIES_DIR"]))
            go_live()  # recruiting for real (tests/test_stages.py has the Prolific study in pilot)
            yield app, fake
            db.session.remove()
            db.drop_all()
            dispose_engines()
    finally:
        fake.stop()


def pid(n: int) -> str:
    return f"5f{n:022x}"


def enter(client, participant: str, session_id: str, slug: str = SLUG) -> str | None:
    """Open the Prolific study URL; the session token, or None when the study is full."""
    response = client.get(
        f"/study/{slug}",
        query_string={"PROLIFIC_PID": participant, "STUDY_ID": PROLIFIC_STUDY, "SESSION_ID": session_id},
    )
    if response.status_code == 503:
        return None
    assert response.status_code == 303, response.data
    return response.headers["Location"].rsplit("/", 1)[1]


def answer(client, token: str, fail_catch: bool = False, trials: int | None = None) -> None:
    """Consent, then the sketches (the first `trials` of them): each named right, the catch sketch wrongly if
    `fail_catch`."""
    answer_surveys(client, token)
    study = get_study(SLUG)
    params = {s.key: s.params for s in db.session.scalars(db.select(Stimulus).filter_by(study_id=study.id))}
    decoy = next(p["concept"] for p in params.values() if not p["catch"])
    plan = client.get(f"/api/sessions/{token}").get_json()["plan"]
    for item in plan[:trials]:
        stimulus = params[item["stimulus_id"]]
        label = stimulus["concept"]
        if stimulus["catch"] and fail_catch:
            label = decoy if decoy != label else next(p["concept"] for p in params.values() if p["concept"] != label)
        response = client.post(
            f"/api/sessions/{token}/trials",
            json={
                "trial_id": f"{token[:20]}-{item['index']:04d}",
                "trial_index": item["index"],
                "stimulus_id": item["stimulus_id"],
                "response": {"guesses": [{"label_id": label, "rt_ms": 1500}]},
                "rt_ms": 1600,
            },
        )
        assert response.status_code == 201, response.get_json()


def complete(client, token: str) -> dict:
    response = client.post(f"/api/sessions/{token}/complete", json={})
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def code_of(url: str) -> str:
    return parse_qs(urlsplit(url).query)["cc"][0]


def flask_process(app, fake, *args: str) -> subprocess.Popen:
    """`flask ARGS` in its own process on the test's database and fake Prolific (so that it can be killed)."""
    env = {
        **os.environ,
        "FLASK_APP": "server",
        "DATABASE_URL": app.config["SQLALCHEMY_DATABASE_URI"],
        "STUDYHIVE_STUDIES_DIR": app.config["STUDIES_DIR"],
        "SECRET_KEY": "test-secret",
        "PROLIFIC_API_URL": fake.url,
        "PROLIFIC_API_TOKEN": fake.token,
    }
    return subprocess.Popen(
        [sys.executable, "-m", "flask", *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
