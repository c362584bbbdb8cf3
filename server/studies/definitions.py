"""Study definitions: `studies/<slug>/study.toml`, loaded into the database by `flask studies sync`.

A study's version counts the edits of its file; each is kept (server/studies/versions.py), and every session records
the version it ran under."""

from __future__ import annotations

import hashlib
import json
import re
import tempfile
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import Field
from sqlalchemy.exc import IntegrityError

from ..db import db
from ..exceptions import ConfigError
from ..i18n import LANGUAGES
from ..models import STAGES, STUDY_STATUSES, Stimulus, Study, StudyEvent, bump_generation
from ..prolific import settings as prolific_settings
from ..schema import NonBlank, SchemaError, Table, WebUrl, markdown_table, validate
from ..stimuli.manifests import import_manifest
from ..tasktype import assets as study_assets
from ..tasktype.contract import DemoStimuli, GeneratedStimuli, Prepared
from ..tasktype.registry import registry
from . import conditions
from . import versions as study_versions
from .conditions import DEFAULT_ABANDON_MINUTES, AbandonMinutes, Conditions
from .quality import QualityTable
from .quality import config as quality_config
from .surveys import SURVEYS

PLATFORMS = ("prolific", "labinthewild", "direct")
SLUG = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
DEFAULT_FLOW = ["consent", "demographics", "instructions", "task"]
# Steps every task understands; tasks add their own (TaskType.steps) and surveys add theirs (SURVEYS).
GENERIC_STEPS = ("consent", "instructions", "task", "score")
MAX_WINDOW = 10_000  # pixels: larger than any screen


class StudyFile(Table):
    """The keys of study.toml. Its tables have their own models: `[task]` the task type's `Params`,
    `[[conditions]]` conditions.Condition, `[prolific]` prolific.settings.ProlificTable."""

    title: NonBlank = Field(description="shown to participants")
    task_type: NonBlank = Field(description="a registered task type, e.g. `ratio-estimation`")
    consent: NonBlank = Field(description="HTML of the consent page")
    platform: Literal[PLATFORMS] = Field("direct", description="where participants come from")
    completion_code: prolific_settings.Code | None = Field(
        None,
        description=(
            "Prolific completion code; the redirect goes to `https://app.prolific.com/submissions/complete?cc=CODE` "
            "(or `[prolific.codes] completed`); a Prolific study needs it or `completion_url`"
        ),
    )
    completion_url: WebUrl | None = Field(None, description="a full completion URL instead of the code")
    language: Literal[LANGUAGES] = Field(
        "en",
        description=(
            "the language of studyhive's own text on participant pages (buttons, questionnaires, messages: "
            "[Languages](researchers.md#languages)); the study's own text (title, consent, instructions) stays as "
            "written"
        ),
    )
    instructions: list[str] = Field([], description="HTML pages shown before the trials")
    flow: list[str] = Field(DEFAULT_FLOW, description="the participant's steps in order ([below](#the-flow))")
    min_width: int = Field(1280, ge=0, le=MAX_WINDOW, description="narrowest browser window accepted, pixels")
    min_height: int = Field(720, ge=0, le=MAX_WINDOW, description="lowest browser window accepted, pixels")
    demo_stimuli: bool = Field(
        False,
        description=(
            "on its first sync, the study imports a demo stimulus set its task type draws itself (no downloads); only "
            "for task types that draw demo stimuli (the built-in ones with imported stimuli)"
        ),
    )
    task: dict[str, Any] = Field({}, description="`[task]`: the task type's parameters, below")
    abandon_after_minutes: AbandonMinutes | None = Field(
        None,
        description=(
            f"a started session unseen this long frees its condition's slot (none: {DEFAULT_ABANDON_MINUTES})"
        ),
    )
    conditions: Conditions | None = Field(
        None, description=("`[[conditions]]`: between-subjects conditions ([below](#between-subjects-conditions))")
    )
    prolific: prolific_settings.ProlificTable | None = Field(
        None,
        description=(
            "`[prolific]`: the linked Prolific study, completion codes per outcome, attention check and bonus limits "
            "([prolific.md](prolific.md))"
        ),
    )
    quality: QualityTable | None = Field(
        None, description="`[quality]`: thresholds of the [data-quality flags](#data-quality-flags)"
    )


class StudyFileError(ValueError):
    """A study file is invalid; `errors` lists every problem found, each naming the key, and the message gives them
    one a line, each after the file's path."""

    def __init__(self, path: Path, errors: str | list[str]):
        self.errors = [errors] if isinstance(errors, str) else errors
        super().__init__("\n".join(f"{path}: {error}" for error in self.errors))


def load_study_file(path: Path) -> dict[str, Any]:
    """Parse and validate one study file; return the normalised config. Raises StudyFileError listing every problem
    of the file's keys and its [task] table, or, when those are fine, of the checks across keys and conditions."""
    slug = path.parent.name
    if not SLUG.match(slug):
        raise StudyFileError(path, f"folder name {slug!r} is not a valid study slug (a-z, 0-9, - and _)")
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise StudyFileError(path, f"not valid TOML: {exc}") from None
    errors: list[str] = []
    try:
        study = validate(StudyFile, raw)
    except SchemaError as exc:
        errors += exc.errors
        study = None
    task_type = raw.get("task_type")
    task = registry().get(task_type) if isinstance(task_type, str) else None
    if task is None and isinstance(task_type, str) and task_type.strip():
        errors.append(f"task_type: {json.dumps(task_type)} is not registered (known: {', '.join(registry().ids())})")
    params = None
    if task is not None and isinstance(raw.get("task", {}), dict):  # the [task] table's errors come with the rest
        params = _gather(errors, task.parse_params, raw.get("task", {}))
    if study is None or task is None or params is None:
        raise StudyFileError(path, errors)
    errors += _cross_checks(study, task)
    between_subjects = _gather(errors, conditions.config, study.conditions, study.abandon_after_minutes, task, params)
    if errors:
        raise StudyFileError(path, errors)
    prolific = prolific_settings.config(study.prolific)
    completed_code = prolific.get("prolific", {}).get("codes", {}).get("completed") or study.completion_code
    completion_url = study.completion_url or (
        prolific_settings.COMPLETE_URL.format(code=completed_code) if completed_code else None
    )
    return {
        "slug": slug,
        "title": study.title.strip(),
        "task_type": study.task_type,
        "platform": study.platform,
        "completion_url": completion_url,
        "consent": study.consent,
        # Only when not English: a study synced before the key existed keeps its configuration hash, so no version.
        **({"language": study.language} if study.language != "en" else {}),
        "instructions": study.instructions,
        "flow": study.flow,
        "surveys": [step for step in study.flow if step in SURVEYS],
        "min_width": study.min_width,
        "min_height": study.min_height,
        "task": params,
        "demo_stimuli": study.demo_stimuli,
        **between_subjects,
        **prolific,
        **quality_config(study.quality),
    }


def _gather(errors: list[str], parse, *args):
    """parse(*args), or None with its problems added to `errors`."""
    try:
        return parse(*args)
    except SchemaError as exc:
        errors += exc.errors
    except ConfigError as exc:  # a task type's own check beyond its table's schema
        errors.append(str(exc))
    return None


def _cross_checks(study: StudyFile, task) -> list[str]:
    """What no single key shows: the flow's steps, the completion code given twice, demo stimuli."""
    errors = []
    codes = study.prolific.codes if study.prolific else None
    if codes and codes.completed and study.completion_code not in (None, codes.completed):
        errors.append("completion_code and [prolific.codes] completed differ: give one of them")
    if study.platform == "prolific" and not (
        study.completion_code or study.completion_url or (codes and codes.completed)
    ):
        errors.append("a Prolific study needs completion_code ([prolific.codes] completed) or completion_url")
    known = (*GENERIC_STEPS, *task.steps, *(s for s in SURVEYS if s != "consent"))
    unknown_steps = [step for step in study.flow if step not in known]
    if unknown_steps:
        errors.append(f"flow: unknown step(s) {', '.join(unknown_steps)} (known: {', '.join(known)})")
    if study.flow.count("task") != 1 or study.flow[:1] != ["consent"] or len(set(study.flow)) != len(study.flow):
        errors.append("flow: must start with 'consent', contain 'task' once, and repeat no step")
    if task.page_ends and study.flow[-1:] != ["task"]:
        # its page completes the session (the Continue button after the experiment), so nothing can follow it
        errors.append(f"flow: 'task' must be the last step of a {study.task_type} study")
    if study.demo_stimuli and not isinstance(task, DemoStimuli):
        errors.append(f"demo_stimuli: only for task types that draw demo stimuli, not {study.task_type}")
    return errors


def json_schema() -> dict[str, Any]:
    """The JSON Schema of study.toml, for editors: the file's keys, and the `[task]` table of each registered task
    type chosen by `task_type`."""
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", **StudyFile.model_json_schema()}
    defs = schema.setdefault("$defs", {})
    schema["properties"]["task_type"]["enum"] = registry().ids()
    schema["allOf"] = []
    for task_id in registry().ids():
        params = registry().get(task_id).Params.model_json_schema()
        defs.update(params.pop("$defs", {}))
        defs[f"task:{task_id}"] = params
        schema["allOf"].append(
            {
                "if": {"properties": {"task_type": {"const": task_id}}, "required": ["task_type"]},
                "then": {"properties": {"task": {"$ref": f"#/$defs/task:{task_id}"}}},
            }
        )
    return schema


KEYS_BEGIN = "<!-- study keys: generated from the models by `flask studies keys --update docs/studies.md` -->"
KEYS_END = "<!-- study keys: end -->"


def key_reference() -> str:
    """Markdown tables of every key study.toml may have, made from the models (docs/studies.md holds them)."""
    sections = [
        ("study.toml", StudyFile),
        ("`[[conditions]]`", conditions.Condition),
        ("`[prolific]`", prolific_settings.ProlificTable),
        ("`[prolific.codes]`", prolific_settings.Codes),
        ("`[quality]`", QualityTable),
    ]
    by_model: dict[type[Table], list[str]] = {}
    for task_id in registry().ids():
        by_model.setdefault(registry().get(task_id).Params, []).append(task_id)
    for model, ids in by_model.items():
        named = ", ".join(f"`{t}`" for t in ids)
        sections.append((f"`[task]` of {named}", model))
        # A table of its own in [task] ("see below" in the table above).
        sections += [
            (f"`[task.{key}]` of {named}", type(field.default))
            for key, field in model.model_fields.items()
            if isinstance(field.default, Table)
        ]
    return "\n\n".join(f"#### {title}\n\n{markdown_table(model)}" for title, model in sections)


def with_key_reference(text: str) -> str:
    """`text` (docs/studies.md) with the key reference between its markers made anew."""
    head, found, rest = text.partition(KEYS_BEGIN)
    _, found_end, tail = rest.partition(KEYS_END)
    if not (found and found_end):
        raise ValueError(f"the key reference's markers are missing: {KEYS_BEGIN} … {KEYS_END}")
    return f"{head}{KEYS_BEGIN}\n\n{key_reference()}\n\n{KEYS_END}{tail}"


def config_hash(config: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(config, sort_keys=True).encode()).hexdigest()


class SyncFailed(StudyFileError):
    """Studies that did not sync, each keeping the version it had: `failures` holds each one's StudyFileError, the
    message gives them one after the other; `report` says what happened to the studies that were synced."""

    def __init__(self, failures: list[StudyFileError], report: list[tuple[str, str]]):
        self.failures, self.report = failures, report
        self.errors = [error for failure in failures for error in failure.errors]
        # not StudyFileError's own: each failure's message already names its file
        ValueError.__init__(self, "\n".join(str(failure) for failure in failures))


def sync_studies(
    studies_dir: Path, researcher_id: int | None = None, via: str = "cli", slugs: Sequence[str] = ()
) -> list[tuple[str, str]]:
    """Load every studies/<slug>/study.toml, or those of `slugs`, each study on its own: validated and its files
    prepared before anything of it is written, then written in a transaction of its own, so a study that fails keeps
    the version it had, whole, and the others are synced all the same. A new or changed configuration is kept as a
    version, synced by `researcher_id` and `via` (as the audit log records them). Returns (slug, what happened)
    pairs; raises SyncFailed, once the others are synced, when any study failed."""
    report, failures = [], []
    for path in study_files(Path(studies_dir), slugs):
        try:
            slug, outcome = _sync_study(path, researcher_id, via)
        except StudyFileError as exc:
            db.session.rollback()  # nothing of the failed study is left to be committed with the next one
            failures.append(exc)
            continue
        except IntegrityError:  # a sync running at the same time stored the same version number first
            db.session.rollback()
            failures.append(
                StudyFileError(path, "another sync changed the studies at the same time; this study was not written")
            )
            continue
        added = _import_demo_stimuli(get_study(slug))
        report.append((slug, outcome + (f", {added} demo stimuli generated" if added else "")))
    if failures:
        raise SyncFailed(failures, report)
    return report


def study_files(studies_dir: Path, slugs: Sequence[str] = ()) -> list[Path]:
    """Every studies/<slug>/study.toml, or those of `slugs`; StudyFileError naming the slugs that have none."""
    paths = {path.parent.name: path for path in sorted(studies_dir.glob("*/study.toml"))}
    unknown = [slug for slug in slugs if slug not in paths]
    if unknown:
        raise StudyFileError(
            studies_dir,
            f"no study named {', '.join(map(repr, unknown))} (studies there: {', '.join(paths) or 'none'}); "
            "nothing was synced",
        )
    return [paths[slug] for slug in dict.fromkeys(slugs)] if slugs else list(paths.values())


def _prepare_study(path: Path) -> tuple[dict[str, Any], Study | None, Prepared | None]:
    """One study file validated and its folder prepared, nothing written: its configuration, the study as stored
    (None: a new one) and what a plan-less type made of its folder (None for the other types). Raises
    StudyFileError."""
    config = load_study_file(path)
    study = db.session.scalars(db.select(Study).filter_by(slug=config["slug"])).first()
    task = registry().get(config["task_type"])
    try:
        prepared = task.prepare(path.parent, config["task"], study.config if study else None)
    except ConfigError as exc:
        raise StudyFileError(path, exc.problems) from None
    if prepared is not None:
        config.update(prepared.config)
    return config, study, prepared


def check_study(path: Path) -> list[str]:
    """What `flask studies sync` would do with one study file, as lines to print; nothing is written (the registry
    may be asked, as sync asks it). Raises the StudyFileError sync would give."""
    config, study, prepared = _prepare_study(path)
    task = registry().get(config["task_type"])
    lines = [f"{path}: valid", f"task type: {task.id} ({task.name})"]
    if prepared is not None:
        lines += [*prepared.report, *(f"note: {note}" for note in prepared.notes)]
    else:
        lines += ["[task], validated:", *(f"  {key} = {json.dumps(value)}" for key, value in config["task"].items())]
        for condition in config.get("conditions", ()):
            lines.append(f"condition {condition['name']} (quota {condition['quota']}): {json.dumps(condition['task'])}")
    if study is None:
        lines.append("sync would create the study (version 1)")
    elif study.config_hash != config_hash(config):
        lines.append(f"sync would update the study to version {study.version + 1}")
    else:
        lines.append(f"sync would leave the study unchanged (version {study.version})")
    return lines


def _sync_study(path: Path, researcher_id: int | None, via: str) -> tuple[str, str]:
    """Validate, prepare and write one study file, and commit: (slug, what happened). Raises StudyFileError before
    anything of the study is written."""
    config, study, prepared = _prepare_study(path)  # an error keeps the old version: nothing is written yet
    notes = ""
    if prepared is not None:
        study_assets.store(prepared.files)
        notes = "".join(f"\n  note: {note}" for note in prepared.notes)
    digest = config_hash(config)
    changed = study is None or study.config_hash != digest
    if study is None:
        study = Study(
            slug=config["slug"],
            title=config["title"],
            task_type=config["task_type"],
            config=config,
            config_hash=digest,
            version=1,
        )
        db.session.add(study)
        db.session.flush()
        study_versions.record(study, researcher_id, via)
        outcome = "created (version 1)"
    elif study.config_hash != digest:
        study.version += 1
        study.title, study.task_type, study.config, study.config_hash = (
            config["title"],
            config["task_type"],
            config,
            digest,
        )
        study_versions.record(study, researcher_id, via)
        outcome = f"updated (version {study.version})"
    else:
        outcome = f"unchanged (version {study.version})"
    linked = config.get("prolific", {}).get("study_id")
    if linked and study.prolific_study_id != linked:  # the file names the Prolific study: it wins
        study.prolific_study_id = linked
        outcome += f", linked to Prolific study {linked}"
    added = _sync_stimuli(study)
    if changed or added:  # a new version or new stimuli: a stored result is stale
        bump_generation(study.id)
    db.session.commit()
    return config["slug"], outcome + (f", {added} new stimuli" if added else "") + notes


def _import_demo_stimuli(study: Study) -> int:
    """Generate and import a demo study's stimuli the first time it is synced (it holds none yet)."""
    if not study.config.get("demo_stimuli") or db.session.scalar(
        db.select(db.func.count(Stimulus.id)).filter_by(study_id=study.id)
    ):
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        manifest = registry().get(study.task_type).generate_demo(study.config["task"], Path(tmp))
        return import_manifest(study, manifest, manifest.parent)["new"]


def _sync_stimuli(study: Study) -> int:
    """Add the task's stimuli the study does not have yet. Existing ones are kept: stored trials point at them."""
    task = registry().get(study.task_type)
    if not isinstance(task, GeneratedStimuli):
        return 0
    have = set(db.session.scalars(db.select(Stimulus.key).filter_by(study_id=study.id)))
    new = []
    for params in conditions.all_task_params(study.config):  # a condition's parameters may add stimuli
        for s in task.stimuli(params):
            if s.key not in have:
                have.add(s.key)
                new.append({"study_id": study.id, "key": s.key, "practice": s.practice, "params": s.params})
    if new:
        db.session.execute(db.insert(Stimulus), new)
    return len(new)


def get_study(slug: str) -> Study | None:
    if not SLUG.match(slug):  # e.g. a NUL byte from a mangled link, which PostgreSQL would refuse
        return None
    return db.session.scalars(db.select(Study).filter_by(slug=slug)).first()


def _audited_change(
    study: Study, attribute: str, value: str, allowed: tuple[str, ...], researcher_id: int | None, event: StudyEvent
) -> bool:
    """Set the study's `attribute` to `value` and add `event` (its detail's "from" filled in) to study_events, in
    the caller's transaction. False, and nothing added, if it had that value; ValueError for one not `allowed`."""
    if value not in allowed:
        raise ValueError(f"{attribute} must be one of {', '.join(allowed)}")
    old = getattr(study, attribute)
    if old == value:
        return False
    event.study_id, event.researcher_id, event.detail = study.id, researcher_id, {"from": old, **event.detail}
    db.session.add(event)
    setattr(study, attribute, value)
    return True


def set_status(study: Study, status: str, researcher_id: int | None = None, via: str = "web") -> bool:
    """Open, pause or close a study and log who did it and when in study_events. False if it had that status.

    Paused and closed studies turn new entries away (the participant page says so); running sessions finish."""
    event = StudyEvent(action=status, detail={"via": via})
    if not _audited_change(study, "status", status, STUDY_STATUSES, researcher_id, event):
        return False
    db.session.commit()
    return True


def set_stage(study: Study, stage: str, researcher_id: int | None = None, via: str = "web") -> bool:
    """Put a study in the pilot or live stage and log who did it and when in study_events (action "stage"). False
    if it was in that stage already (nothing written).

    Sessions keep the stage they started in; new ones take the new stage. Quotas count the current stage only
    (conditions.occupancy), so the change bumps the data generation: a stored result is stale."""
    event = StudyEvent(action="stage", detail={"to": stage, "via": via})
    if not _audited_change(study, "stage", stage, STAGES, researcher_id, event):
        return False
    bump_generation(study.id)
    db.session.commit()
    return True
