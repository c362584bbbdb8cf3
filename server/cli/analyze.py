"""`flask analyze <slug>`: the statistics a paper reports, people vs imported model predictions, for one study.

    flask analyze study3 [--out DIR] [--format text|json] [--stage live|pilot|all] [--store]
                         [--mlae pooled|participant] [--exclude-outliers/--keep-outliers] [--n-boot N] [--seed S]

server/results/analyze.py's run_analysis does the work. The options after --store are those the installed analyses
declare (`Analyzer.options`, in each task package: --mlae and the outlier rule ratio estimation's, the bootstrap's
those with bootstrap intervals); one the study's analysis does not use is refused, not ignored. `--store` also keeps
the result in the database for the dashboard's results page and its downloads (server/results/stored.py), one
recompute per study at a time: the page's Recompute button runs this command."""

from __future__ import annotations

import click
from click.core import ParameterSource

from ..exceptions import AnalysisError
from ..models import STAGES
from ..results import stored
from ..results.analyze import Options, declared_options, run_analysis
from .common import command_app, print_report, report_options


class AnalyzeCommand(click.Command):
    """The command, with the options every installed analysis declares (`Analyzer.options`) besides its own."""

    def get_params(self, ctx: click.Context) -> list[click.Parameter]:
        params = super().get_params(ctx)
        with command_app(ctx).app_context():
            declared = declared_options().values()
        return [*params[:-1], *(_click_option(option) for option in declared), params[-1]]  # --help stays last


def _click_option(option) -> click.Option:
    if option.choices:
        kind = click.Choice(option.choices)
    elif option.minimum is not None:
        kind = click.IntRange(min=option.minimum)
    else:
        kind = type(option.default)
    return click.Option(
        [option.flag, option.name], type=kind, default=option.default, show_default=True, help=option.help
    )


@click.command(
    "analyze",
    cls=AnalyzeCommand,
    help="Report a study's statistics: people (and imported models) against the literature.",
)
@click.argument("slug")
@report_options(
    "also write the tables (CSV), report.txt, report.md, report.json, methods.md and PNG figures to this folder"
)
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
def analyze_command(slug, out_dir, fmt, stage, store, **values):
    context = click.get_current_context()
    given = frozenset(name for name in values if context.get_parameter_source(name) is ParameterSource.COMMANDLINE)
    options = Options(stage=stage, given=given, **values)
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
    print_report(fmt, result.report.json, result.report.text, out_dir, result.report.write)
