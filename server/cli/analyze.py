"""`flask analyze <slug>`: the statistics a paper reports, people vs imported model predictions, for one study.

    flask analyze study3 [--out DIR] [--format text|json] [--mlae pooled|participant]
                         [--exclude-outliers/--keep-outliers] [--n-boot N] [--seed S]
                         [--stage live|pilot|all] [--store]

server/results/analyze.py's run_analysis does the work; an option the study's analysis does not use is refused, not
ignored. `--store` also keeps the result in the database for the dashboard's results page and its downloads
(server/results/stored.py), one recompute per study at a time: the page's Recompute button runs this command."""

from __future__ import annotations

import json
from pathlib import Path

import click
from click.core import ParameterSource

from ..exceptions import AnalysisError
from ..models import STAGES
from ..results import stored
from ..results.analyze import FLAGS, Options, run_analysis


@click.command("analyze", help="Report a study's statistics: people (and imported models) against the literature.")
@click.argument("slug")
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="also write the tables (CSV), report.txt, report.md, report.json, methods.md and PNG figures to this folder",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="text: a readable report; json: the same numbers as a dict of tables (records), NaN as null",
)
@click.option(
    "--mlae",
    "mlae",
    type=click.Choice(["pooled", "participant"]),
    default="pooled",
    show_default=True,
    help="MLAE estimator (ratio estimation): pooled = midmean of all judgments (Cleveland & McGill 1984, Heer & "
    "Bostock 2010: the published rows printed beside); participant = per participant log2(MAE + 1/8), midmean "
    "across participants (Haehn et al. 2018, per run). Models take the same, runs for people",
)
@click.option(
    "--exclude-outliers/--keep-outliers",
    default=True,
    show_default=True,
    help="drop participants beyond the 3×IQR fence (they are reported either way)",
)
@click.option(
    "--n-boot",
    type=click.IntRange(min=1),
    default=10_000,
    show_default=True,
    help="bootstrap resamples per confidence interval",
)
@click.option("--seed", type=int, default=0, show_default=True, help="seed of the bootstrap")
@click.option(
    "--stage",
    type=click.Choice([*STAGES, "all"]),
    default="live",
    show_default=True,
    help="analyse the sessions that started in this stage of the study (`flask studies stage`), or all of them; "
    "researchers' previews never",
)
@click.option(
    "--store",
    is_flag=True,
    help="also store the result (or the problem that stopped it) with the data generation it read, for the "
    "dashboard's results page; refused while another recompute of the study runs",
)
def analyze_command(slug, out_dir, fmt, mlae, exclude_outliers, n_boot, seed, stage, store):
    context = click.get_current_context()
    given = frozenset(name for name in FLAGS if context.get_parameter_source(name) is ParameterSource.COMMANDLINE)
    options = Options(mlae=mlae, exclude_outliers=exclude_outliers, n_boot=n_boot, seed=seed, stage=stage, given=given)
    try:
        if store:
            row, result = stored.recompute(slug, options)
        else:
            result = run_analysis(slug, options)
    except AnalysisError as exc:
        raise click.ClickException(str(exc)) from None
    if store:
        outcome = f"the problem ({row.problem})" if result is None else "the result"
        click.echo(
            f"stored {outcome} of {slug}'s data generation {row.generation} ({row.options_key or 'no options'}), "
            f"computed in {row.duration_s:.1f} s",
            err=(fmt == "json" or result is None),
        )
        if result is None:
            raise click.exceptions.Exit(1)
    if fmt == "json":
        click.echo(json.dumps(result.report.json(), indent=1, ensure_ascii=False, allow_nan=False))
    else:
        click.echo(result.report.text(), nl=False)
    if out_dir is not None:
        written = result.report.write(out_dir)
        click.echo(
            f"wrote {len(written)} files to {out_dir}: {', '.join(p.name for p in written)}", err=(fmt == "json")
        )
