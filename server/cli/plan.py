"""`flask plan <slug> --effect X`: how many participants the study needs, from its design and its pilot.

    flask plan study3 --effect 0.3 --types 1,2 [--power 0.8] [--alpha 0.05] [--reps N] [--stage pilot|live|all]
                      [--n-max 200] [--n-step 10] [--seed S] [--json] [--figure PATH]

server/results/sample_size.py reads the study; analysis/planning.py simulates the report's own test (docs/methods.md,
"Sample-size planning")."""

from __future__ import annotations

import json
from pathlib import Path

import click

from analysis.planning import DEFAULT_ALPHA, DEFAULT_POWER, DEFAULT_REPS, power_figure

from ..exceptions import AnalysisError
from ..models import STAGES
from ..results.sample_size import PlanRequest, parse_types, plan_study
from ..tasktype.contract import Planned
from ..tasktype.registry import registry
from .common import command_app

MAX_REPS = 20_000


class PlanCommand(click.Command):
    """The command, its help naming each installed task type's effect unit (its planner's)."""

    def format_help_text(self, ctx, formatter):
        super().format_help_text(ctx, formatter)
        by_unit: dict[str, list[str]] = {}
        tasks = registry(command_app(ctx))
        for task_id in tasks.ids():
            task = tasks.get(task_id)
            if isinstance(task, Planned):
                by_unit.setdefault(task.planner.unit, []).append(task_id)
        units = "; ".join(f"{', '.join(ids)}: {unit}" for unit, ids in by_unit.items())
        formatter.write_paragraph()
        with formatter.indentation():
            formatter.write_text(f"The effect's unit: {units}.")


@click.command(
    "plan",
    cls=PlanCommand,
    help="Power of the study's own test at n = 10…200 for a stated effect, simulated from its design and pilot.",
)
@click.argument("slug")
@click.option("--effect", type=float, required=True, help="the effect to detect, in the study's unit (above)")
@click.option(
    "--power", type=click.FloatRange(0, 1, min_open=True, max_open=True), default=DEFAULT_POWER, show_default=True
)
@click.option(
    "--alpha", type=click.FloatRange(0, 1, min_open=True, max_open=True), default=DEFAULT_ALPHA, show_default=True
)
@click.option(
    "--reps", type=click.IntRange(100, MAX_REPS), default=DEFAULT_REPS, show_default=True, help="cohorts per n"
)
@click.option(
    "--stage",
    type=click.Choice([*STAGES, "all"]),
    default="pilot",
    show_default=True,
    help="which sessions are the pilot (completed, never previews)",
)
@click.option("--types", "types", help="ratio estimation: the two chart types compared, A,B (effect = MLAE_B − MLAE_A)")
@click.option("--statement", help="hypothesis rating: the statement whose pilot share is estimated")
@click.option("--versus", type=float, help="hypothesis rating: the reference share  [default: 0.5]")
@click.option("--n-max", type=click.IntRange(2, 10_000), default=200, show_default=True)
@click.option("--n-step", type=click.IntRange(1, 10_000), default=10, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="print the plan as JSON")
@click.option("--figure", type=click.Path(dir_okay=False, path_type=Path), help="write the power curve (PNG) here")
def plan_command(
    slug, effect, power, alpha, reps, stage, types, statement, versus, n_max, n_step, seed, as_json, figure
):
    ns = tuple(n for n in range(n_step, n_max + 1, n_step) if n >= 2)
    if not ns:
        raise click.BadParameter("no n of 2 or more in the grid", param_hint="--n-max/--n-step")
    try:
        pair = parse_types(types)
    except AnalysisError as exc:
        raise click.BadParameter(str(exc), param_hint="--types") from None
    request = PlanRequest(
        effect=effect,
        power=power,
        alpha=alpha,
        reps=reps,
        stage=stage,
        types=pair,
        statement=statement,
        versus=versus,
        ns=ns,
        seed=seed,
    )
    try:
        plan, read = plan_study(slug, request)
    except AnalysisError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(read, err=as_json)
    if as_json:
        click.echo(json.dumps(plan.json(), indent=1, ensure_ascii=False, allow_nan=False))
    else:
        click.echo(plan.text(), nl=False)
    if figure is not None:
        power_figure(plan, figure)
        click.echo(f"wrote {figure}", err=as_json)
