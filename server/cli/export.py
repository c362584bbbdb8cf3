"""`flask export <slug> --out DIR [--stage pilot|live|all] [--include-identifiers [--by USER]]`: participants.csv,
trials.csv, events.csv and codebook.csv of a study, pseudonymous; identifiers.csv (raw Prolific ids, full
User-Agents) only when asked for, audited. `--package DIR` instead: the same as a validated data package for
publishing (server/results/package.py), never with identifiers."""

from __future__ import annotations

from pathlib import Path

import click
from click.core import ParameterSource
from flask import current_app

from ..db import db
from ..models import STAGES
from ..prolific import audit
from ..results.export import write_export
from ..results.package import LICENSES, PackageRefused, write_package
from .common import BY, by_researcher, study_or_fail


@click.command(
    "export",
    help="Write participants.csv, trials.csv, events.csv and codebook.csv of a study to a folder (--out), or a "
    "Frictionless data package of the study to publish (--package; docs/researchers.md). Participants are named by "
    "their pseudonymous participant_code; --include-identifiers (with --out) adds identifiers.csv (raw Prolific ids, "
    "full User-Agents), recorded in the study's audit log.",
)
@click.argument("slug")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), help="the folder of the CSVs")
@click.option(
    "--package",
    "package_dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="write a data package into this new folder: datapackage.json, the CSVs, the study's versions, the stimuli "
    "manifest, `flask analyze`'s outputs and a README",
)
@click.option("--zip", "make_zip", is_flag=True, help="with --package: also write the package as DIR.zip")
@click.option("--with-stimuli", is_flag=True, help="with --package: also the stimulus files (images)")
@click.option(
    "--license",
    "license_",
    type=click.Choice(list(LICENSES)),
    default="CC-BY-4.0",
    show_default=True,
    help="with --package: the data's licence",
)
@click.option(
    "--stage",
    type=click.Choice([*STAGES, "all"]),
    default="all",
    show_default=True,
    help="only the sessions that started in this stage (the `stage` column says which); researchers' previews never",
)
@click.option(
    "--include-identifiers",
    is_flag=True,
    help="with --out: also write identifiers.csv: participant_code → PROLIFIC_PID, STUDY_ID, SESSION_ID, full "
    "User-Agent (audited; keep it apart from the data you share)",
)
@BY
def export_command(slug, out_dir, package_dir, make_zip, with_stimuli, license_, stage, include_identifiers, username):
    context = click.get_current_context()
    if (out_dir is None) == (package_dir is None):
        raise click.UsageError("give one of --out DIR (the CSVs) or --package DIR (a data package)")
    if package_dir is None:
        given = [
            flag
            for flag, name in (("--zip", "make_zip"), ("--with-stimuli", "with_stimuli"), ("--license", "license_"))
            if context.get_parameter_source(name) is ParameterSource.COMMANDLINE
        ]
        if given:
            raise click.UsageError(f"{', '.join(given)}: only with --package DIR")
        study = study_or_fail(slug)
        researcher_id = by_researcher(username)
        if include_identifiers:  # logged before anything is written: a failed write may still have exposed some
            audit.record(study, "identifiers_exported", researcher_id, "cli", stage=stage, out=str(out_dir))
            db.session.commit()
        written = write_export(study, out_dir, stage, with_identifiers=include_identifiers)
        click.echo("\n".join(f"{path}: {n} rows" for path, n in written))
        return
    if include_identifiers:
        raise click.UsageError(
            "--include-identifiers: only with --out DIR; a data package to publish never holds identifiers"
        )
    study = study_or_fail(slug)
    try:
        done = write_package(
            study,
            package_dir,
            stage=stage,
            license=license_,
            with_stimuli=with_stimuli,
            make_zip=make_zip,
            commit=current_app.config["COMMIT"],
        )
    except PackageRefused as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(
        f"{done.folder}: data package of {slug}, {done.resources} tables"
        + ("" if done.analysed else " (no analysis: README.md says why)")
        + (f"; {done.zip}" if done.zip else "")
    )
