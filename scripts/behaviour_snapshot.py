"""Record what studyhive does with a fixed dataset, so a refactoring can be checked to change nothing:

    .venv/bin/python scripts/behaviour_snapshot.py OUTDIR
    diff -r BEFORE AFTER

A fresh SQLite database gets the demo studies (`flask studies sync`) and deterministic participants through the
participant API (every plan drawn from a seeded generator instead of `secrets`): study3 (the paper's human error,
tests/helpers.py, plus an imported model with two runs, one excluded and one unfinished participant), two4two-demo,
every HIVE demo and sketch-demo (plus imported label predictions). Then, per study, OUTDIR/<slug>/ holds:

- export/: `flask export <slug> --out` (times, which are wall-clock, replaced by "<time>");
- analyze.json, analyze.txt: `flask analyze <slug> --format json|text --n-boot 200 --seed 1`, the exit code and
  output as given (a study whose analysis refuses those options records the refusal, and analyze-plain.* the
  analysis without options);
- analyze-out/: the files `--out` writes (PNG figures as their SHA-256, with --n-boot/--seed where accepted);
- summary.json: the results-page summary (GET /api/sessions/<token>/summary) of the last participant;
- refusals.txt: the messages of analyses that must be refused;
- stimuli/: `flask stimuli export` of the test (study3, hive-distinction) and of a training set (study3): manifests,
  sampling.json and a SHA-256 per image.
Uses only the CLI and the HTTP API, so it runs unchanged on either side of a refactoring."""

from __future__ import annotations

import csv
import hashlib
import json
import random
import re
import secrets
import sys
import tempfile
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from server import create_app  # noqa: E402
from server.db import db, dispose_engines  # noqa: E402
from server.models import ParticipantSession, Stimulus, Study  # noqa: E402
from server.studies.definitions import sync_studies  # noqa: E402
from tests.helpers import answer_surveys, enter, take_study3_like_people  # noqa: E402

TIME_COLUMNS = {"started_at", "consented_at", "completed_at", "created_at", "excluded_at", "duration_s"}
HIVE = ("hive-agreement", "hive-distinction", "hive-output-prediction", "hive-prototree")
OPTIONS = ["--n-boot", "200", "--seed", "1"]
HIVE_ANSWERS = {
    "consent": {"agreed": True},
    "hive_demographics": {"ml_experience": 3},
    "hive_tradeoff": {"low_risk": 66, "medium_risk": 68, "high_risk": 71, "reason": "risk"},
    "hive_feedback": {},
    **{f"hive_understanding_{n}": {"understanding": n + 1} for n in (1, 2, 3)},
}
WRONG_GUESSES = ("shark", "mug", "tree", "bowl")  # THINGS unique ids near the demo's concepts


def deterministic_secrets(seed: int) -> None:
    """Plans are drawn with random.Random(secrets.randbits(64)); tokens come from secrets.token_urlsafe."""
    rng = random.Random(seed)
    secrets.randbits = rng.getrandbits
    secrets.token_urlsafe = lambda n=32: "t" + format(rng.getrandbits(8 * (n or 32)), "x")


def trial_id(rng: random.Random) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128)))


def post_trial(client, token, item, response, rng, rt_ms=900):
    body = {
        "trial_id": trial_id(rng),
        "trial_index": item["index"],
        "stimulus_id": item["stimulus_id"],
        "response": response,
        "rt_ms": rt_ms,
        "client_time": "2026-11-22T12:00:00+00:00",
    }
    answer = client.post(f"/api/sessions/{token}/trials", json=body)
    assert answer.status_code == 201, answer.get_json()


def complete(client, token):
    answer = client.post(f"/api/sessions/{token}/complete", json={})
    assert answer.status_code == 200, answer.get_json()


def study3(client, runner, tmp: Path, rng: random.Random) -> str:
    tokens = [take_study3_like_people(client, rng) for _ in range(8)]
    enter(client, "study3")  # one who never finished
    excluded = db.session.scalars(db.select(ParticipantSession.id).filter_by(token=tokens[2])).one()
    run(runner, ["participants", "exclude", "study3", str(excluded), "--reason", "snapshot: excluded"])
    keys = db.session.execute(
        db.select(Stimulus.key, Stimulus.params)
        .join(Study)
        .where(Study.slug == "study3", Stimulus.practice.is_(False))
        .order_by(Stimulus.key)
    ).all()
    rows = ["stimulus_id,prediction,run"]
    for run_number in (0, 1):
        rows += [
            f"{key},{min(100.0, max(0.0, p['true_percent'] + rng.gauss(0, 4))):.4f},{run_number}" for key, p in keys
        ]
    (tmp / "study3-preds.csv").write_text("\n".join(rows) + "\n")
    run(
        runner,
        ["import-predictions", "study3", str(tmp / "study3-preds.csv"), "--observer", "toy-cnn", "--unit", "percent"],
    )
    return tokens[-1]


def two4two(client, rng: random.Random) -> str:
    statements = {
        s["id"]: s["relevant"]
        for s in db.session.scalars(db.select(Study.config).filter_by(slug="two4two-demo")).one()["task"]["statements"]
    }
    for _ in range(8):
        token = enter(client, "two4two-demo")
        answer_surveys(client, token)
        for item in client.get(f"/api/sessions/{token}").get_json()["plan"]:
            mean = 5.2 if statements[item["presented"]["statement_id"]] else 3.0
            post_trial(client, token, item, {"rating": int(min(7, max(1, round(rng.gauss(mean, 1.4)))))}, rng)
        complete(client, token)
    return token


def hive_response(slug: str, item: dict, rng: random.Random) -> dict:
    if slug == "hive-agreement":
        response = {"confidence": rng.randint(1, 4)}
        if item.get("similarity_ratings"):
            response["similarity"] = [rng.randint(1, 4) for _ in item["options"][0]["explanation"]]
        return response
    if slug == "hive-prototree":
        return {"decisions": [rng.choice(["present", "absent"]) for _ in range(2)], "confidence": rng.randint(1, 5)}
    return {"choice": rng.choice([o["key"] for o in item["options"]]), "confidence": rng.randint(1, 5)}


def hive(client, slug: str, rng: random.Random) -> str:
    for _ in range(6):
        token = enter(client, slug)
        state = client.get(f"/api/sessions/{token}").get_json()
        for name in ["consent", *state["surveys"]]:
            answer = client.put(f"/api/sessions/{token}/surveys/{name}", json={"answers": HIVE_ANSWERS[name]})
            assert answer.status_code == 200, answer.get_json()
        for item in state["plan"]:
            post_trial(client, token, item, hive_response(slug, item, rng), rng)
        complete(client, token)
    return token


def sketch(client, runner, tmp: Path, rng: random.Random) -> str:
    params = dict(
        db.session.execute(
            db.select(Stimulus.key, Stimulus.params).join(Study).where(Study.slug == "sketch-demo")
        ).all()
    )
    for person in range(6):
        token = enter(client, "sketch-demo")
        answer_surveys(client, token)
        for item in client.get(f"/api/sessions/{token}").get_json()["plan"]:
            p = params[item["stimulus_id"]]
            right = p["abstraction_level"] >= 4 and not (p["catch"] and person == 0)
            ids = [p["concept"]] if right and rng.random() < 0.8 else [rng.choice(WRONG_GUESSES), p["concept"]]
            ids = list(dict.fromkeys(ids))
            post_trial(
                client,
                token,
                item,
                {"guesses": [{"label_id": g, "rt_ms": 900 + 100 * i} for i, g in enumerate(ids)]},
                rng,
            )
        complete(client, token)
    rows = ["stimulus_id,label_id,probability"]
    for key, p in sorted(params.items()):
        top = p["concept"] if p["abstraction_level"] == 8 else rng.choice(WRONG_GUESSES)
        second, third = [label for label in ("cup", "mug", "bowl") if label != top][:2]
        rows += [f"{key},{top},0.6", f"{key},{second},0.3", f"{key},{third},0.1"]
    (tmp / "sketch-preds.csv").write_text("\n".join(rows) + "\n")
    run(runner, ["import-label-predictions", "sketch-demo", str(tmp / "sketch-preds.csv"), "--observer", "toy"])
    return token


def run(runner, args: list[str]):
    result = runner.invoke(args=args)
    assert result.exit_code == 0, (args, result.output)
    return result


def invoke(runner, args: list[str], code: list[int] | None = None) -> str:
    """Exit code, stdout and stderr of one command, as text (the way a user sees them); the exit code is also
    appended to `code` when given."""
    result = runner.invoke(args=args)
    if code is not None:
        code.append(result.exit_code)
    return (
        f"$ flask {' '.join(args)}\nexit code {result.exit_code}\n--- stdout\n{result.stdout}--- stderr\n"
        f"{result.stderr}"
    )


def normalise_csv(path: Path) -> str:
    lines = path.read_text(encoding="utf-8").splitlines()
    if not lines:
        return ""
    rows = list(csv.reader(lines))
    header = rows[0]
    hide = [i for i, name in enumerate(header) if name in TIME_COLUMNS]
    for row in rows[1:]:
        for i in hide:
            if i < len(row) and row[i]:
                row[i] = "<time>"
    return "\n".join(",".join(json.dumps(v) if ("," in v or '"' in v) else v for v in row) for row in rows) + "\n"


def record(app, runner, client, slug: str, token: str, out: Path, tmp: Path) -> None:
    folder = out / slug
    (folder / "export").mkdir(parents=True)
    export_dir = tmp / f"export-{slug}"
    (folder / "export.log").write_text(
        re.sub(re.escape(str(export_dir)), "<out>", invoke(runner, ["export", slug, "--out", str(export_dir)]))
    )
    for path in sorted(export_dir.iterdir()):
        (folder / "export" / path.name).write_text(normalise_csv(path))
    analyze = ["analyze", slug, "--stage", "all"]  # the demo studies' sessions are pilot ones
    options, codes = OPTIONS, []
    for fmt in ("json", "text"):
        (folder / f"analyze.{'txt' if fmt == 'text' else fmt}").write_text(
            invoke(runner, [*analyze, "--format", fmt, *OPTIONS], codes)
        )
    if codes[0] != 0:  # the study's analysis refuses the options: record it without them as well
        options = []
        for fmt in ("json", "text"):
            (folder / f"analyze-plain.{'txt' if fmt == 'text' else fmt}").write_text(
                invoke(runner, [*analyze, "--format", fmt])
            )
    out_dir = tmp / f"analyze-{slug}"
    (folder / "analyze-out.log").write_text(
        invoke(runner, [*analyze, "--out", str(out_dir), *options]).replace(str(out_dir), "<out>")
    )
    (folder / "analyze-out").mkdir()
    for path in sorted(out_dir.iterdir()):
        target = folder / "analyze-out" / path.name
        if path.suffix == ".png":
            target.with_suffix(".png.sha256").write_text(hashlib.sha256(path.read_bytes()).hexdigest() + "\n")
        else:
            target.write_bytes(path.read_bytes())
    summary = client.get(f"/api/sessions/{token}/summary")
    (folder / "summary.json").write_text(
        json.dumps({"status": summary.status_code, "body": summary.get_json()}, indent=1, sort_keys=True) + "\n"
    )


def stimuli_exports(runner, out: Path, tmp: Path) -> None:
    """`flask stimuli export`: the test for models (study3, a HIVE study) and a training set (study3); the
    manifests and sampling.json, the images as one SHA-256 per file."""
    for name, args in (
        ("study3-test", ["study3"]),
        ("hive-distinction-test", ["hive-distinction"]),
        ("study3-training", ["study3", "--training", "60", "--regime", "COV", "--seed", "3"]),
    ):
        folder, written = out / "stimuli" / name, tmp / f"stimuli-{name}"
        folder.mkdir(parents=True)
        (folder / "export.log").write_text(
            invoke(runner, ["stimuli", "export", *args, "--out", str(written)]).replace(str(written), "<out>")
        )
        for path in sorted(written.rglob("*")):
            if path.is_file():
                name_of = path.relative_to(written).as_posix().replace("/", "__")
                if path.suffix in (".csv", ".json"):
                    (folder / name_of).write_bytes(path.read_bytes())
                else:
                    with open(folder / "images.sha256", "a") as fh:
                        fh.write(f"{hashlib.sha256(path.read_bytes()).hexdigest()}  {name_of}\n")


def main(out: Path) -> None:
    if out.exists() and any(out.iterdir()):
        sys.exit(f"{out} is not empty")
    out.mkdir(parents=True, exist_ok=True)
    deterministic_secrets(14)
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        app = create_app(
            {
                "TESTING": True,
                "SECRET_KEY": "snapshot",
                "WTF_CSRF_ENABLED": False,
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp / 'snapshot.sqlite'}",
                "STUDIES_DIR": str(ROOT / "studies"),
            }
        )
        with app.app_context():
            db.create_all()
            sync_studies(Path(app.config["STUDIES_DIR"]))
            client, runner = app.test_client(), app.test_cli_runner()
            rng = random.Random(2026)
            refusals = [invoke(runner, ["analyze", "study3", "--format", "json"])]  # nobody yet
            last = {"study3": study3(client, runner, tmp, rng), "two4two-demo": two4two(client, rng)}
            for slug in HIVE:
                last[slug] = hive(client, slug, rng)
            last["sketch-demo"] = sketch(client, runner, tmp, rng)
            for slug, token in last.items():
                record(app, runner, client, slug, token, out, tmp)
            stimuli_exports(runner, out, tmp)
            refusals += [
                invoke(runner, args)
                for args in (
                    ["analyze", "nope"],
                    ["analyze", "two4two-demo", "--mlae", "pooled"],
                    ["analyze", "hive-agreement", "--keep-outliers", "--seed", "3"],
                    ["analyze", "sketch-demo", "--n-boot", "5000"],
                    ["analyze", "study3", "--mlae", "pooled", "--n-boot", "200", "--format", "json"],
                )
            ]
            (out / "refusals.txt").write_text("\n".join(refusals))
            db.session.remove()
            dispose_engines()
    print(f"snapshot written to {out}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(Path(sys.argv[1]))
