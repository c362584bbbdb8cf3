"""`flask export <slug> --out DIR [--stage pilot|live|all]`: participants.csv, trials.csv, events.csv and
codebook.csv of a study; `--package DIR` instead: the same as a validated data package for publishing
(server/results/package.py)."""

from __future__ import annotations

from pathlib import Path

import click
from click.core import ParameterSource
from flask import current_app

from ..models import STAGES
from ..results.export import write_export
from ..results.package import LICENSES, PackageRefused, write_package
from .common import study_or_fail


@click.command(
    "export",
    help="Write participants.csv, trials.csv, events.csv and codebook.csv of a study to a folder (--out), or a "
    "Frictionless data package of the study to publish (--package; docs/researchers.md).",
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
def export_command(slug, out_dir, package_dir, make_zip, with_stimuli, license_, stage):
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
        written = write_export(study_or_fail(slug), out_dir, stage)
        click.echo("\n".join(f"{path}: {n} rows" for path, n in written))
        return
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
