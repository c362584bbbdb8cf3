"""`flask prolific …`: link a study to its Prolific study, sync submissions, approve, reject, pay bonuses, list the
bonus batches. Each command that calls Prolific reads the submissions first (a sync), so it decides on what Prolific
says now; every call is written to the study's audit log, with `--by` naming the researcher account."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import click
from flask import current_app

from ..db import db
from ..models import BonusBatch, Study
from ..prolific import audit, bonuses, reviews, submissions
from ..prolific.client import REJECTION_CATEGORIES, ProlificError, from_config
from ..prolific.settings import DEFAULT_MAX_BONUS_CENTS, PROLIFIC_ID
from .common import BY, by_researcher, study_or_fail


def _client():
    try:
        return from_config(current_app.config)
    except ProlificError as exc:
        raise click.ClickException(str(exc)) from None


def _sync(study: Study, researcher_id: int | None) -> submissions.SyncReport:
    try:
        report = submissions.sync(study, _client(), researcher_id)
    except (ProlificError, submissions.NotLinked) as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(
        f"{study.slug}: read {report.read} submission(s) of Prolific study {study.prolific_study_id} "
        f"({report.study_status or 'status unknown'}, {report.places or '?'} places): "
        + (", ".join(f"{n} {status}" for status, n in report.counts.items()) or "none")
    )
    if report.abandoned:
        click.echo(
            f"  {report.abandoned} session(s) returned or timed out: marked abandoned, their condition slots "
            "are free again"
        )
    for warning in report.warnings:
        click.echo(f"  warning: {warning}", err=True)
    return report


@click.group(
    "prolific",
    help="Run a study's Prolific side: submissions, approvals, rejections and bonuses "
    "(docs/prolific.md). Needs PROLIFIC_API_TOKEN in the environment.",
)
def prolific_cli():
    pass


@prolific_cli.command("link", help="Link a study to its Prolific study (when study.toml has no [prolific] study_id).")
@click.argument("slug")
@click.argument("prolific_id")
@BY
def link_command(slug, prolific_id, username):
    study = study_or_fail(slug)
    if not PROLIFIC_ID.match(prolific_id):
        raise click.ClickException(f"{prolific_id!r} is not a Prolific study id (letters and digits)")
    in_file = study.config.get("prolific", {}).get("study_id")
    if in_file and in_file != prolific_id:
        raise click.ClickException(
            f"{slug}'s study.toml links it to Prolific study {in_file}: edit the file and "
            "run `flask studies sync` instead"
        )
    previous = study.prolific_study_id
    study.prolific_study_id = prolific_id
    audit.record(
        study, "prolific_link", by_researcher(username), "cli", prolific_study_id=prolific_id, previous=previous
    )
    db.session.commit()
    click.echo(f"{slug} is linked to Prolific study {prolific_id}" + (f" (was {previous})" if previous else ""))


@prolific_cli.command("sync", help="Read every submission of the study's Prolific study and match it to the sessions.")
@click.argument("slug")
@BY
def sync_command(slug, username):
    study = study_or_fail(slug)
    _sync(study, by_researcher(username))
    shown = submissions.reconciliation(study)
    for label, key in (
        ("sessions with no submission", "n_no_submission"),
        ("submissions with no session (they never reached studyhive: check the study URL)", "n_no_session"),
        ("completed sessions whose submission is not AWAITING REVIEW or APPROVED", "n_unexpected"),
    ):
        click.echo(f"  {label}: {shown[key]}")


@prolific_cli.command(
    "approve",
    help="Approve the AWAITING REVIEW submissions of completed, not excluded sessions "
    "(bulk, at most 1,000 a call). Shows what it would do unless given --yes.",
)
@click.argument("slug")
@click.option("--dry-run/--yes", "dry_run", default=True, help="only show what would happen (the default), or do it")
@BY
def approve_command(slug, dry_run, username):
    study = study_or_fail(slug)
    researcher_id = by_researcher(username)
    _sync(study, researcher_id)
    plan = reviews.approval_plan(study)
    for reason, pids in plan.skipped.items():
        click.echo(f"  not approved, {reason}: {len(pids)} ({', '.join(pids[:5])}{', …' if len(pids) > 5 else ''})")
    if not plan.approve:
        click.echo("nothing to approve")
        return
    if dry_run:
        click.echo(
            f"would approve {len(plan.approve)} submission(s): " + ", ".join(row.participant_id for row in plan.approve)
        )
        click.echo("dry run: nothing sent. Run again with --yes to approve them (it cannot be undone).")
        return
    try:
        calls = reviews.approve(study, _client(), plan, researcher_id)
    except ProlificError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(
        f"approval of {len(plan.approve)} submission(s) sent in {calls} call(s); Prolific approves them "
        "asynchronously, `flask prolific sync` shows the result"
    )


@prolific_cli.command("reject", help="Reject one participant's submission (it cannot be undone).")
@click.argument("slug")
@click.argument("participant_id")
@click.option("--category", required=True, type=click.Choice(REJECTION_CATEGORIES), help="Prolific's reason")
@click.option("--message", required=True, help="to the participant, at least 100 characters")
@click.option("--yes", is_flag=True, help="do not ask for confirmation")
@click.option(
    "--despite-withdrawal",
    is_flag=True,
    help="reject a participant who withdrew, for a reason other than the withdrawal (written to the audit log)",
)
@BY
def reject_command(slug, participant_id, category, message, yes, despite_withdrawal, username):
    study = study_or_fail(slug)
    try:
        reviews.check_rejection(category, message)  # before anything is called
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None
    researcher_id = by_researcher(username)
    _sync(study, researcher_id)

    def confirm():
        if not yes:
            click.confirm(f"Reject {participant_id} ({category})? This cannot be undone", abort=True)

    try:
        row, sent = reviews.reject(
            study,
            _client(),
            participant_id,
            category,
            message,
            researcher_id,
            despite_withdrawal=despite_withdrawal,
            confirm=confirm,
        )
    except (ValueError, ProlificError) as exc:
        raise click.ClickException(str(exc)) from None
    if sent:
        click.echo(f"{participant_id}: submission {row.submission_id} is {row.status}")
    else:
        click.echo(f"{participant_id}: submission {row.submission_id} is already rejected on Prolific: nothing sent")


@prolific_cli.command(
    "bonus",
    help="Pay bonuses from FILE.csv (participant_id or prolific_pid, amount) or by "
    "--per-correct answer, in one Prolific batch, at most once. Shows what it would "
    "do unless given --yes.",
)
@click.argument("slug")
@click.argument("file", required=False, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--per-correct", help="instead of a file: this amount per correct test answer (the task type's rule)")
@click.option("--max-amount", help="largest bonus per participant (default: [prolific] max_bonus, else 10.00)")
@click.option("--dry-run/--yes", "dry_run", default=True, help="only check and show (the default), or pay")
@click.option(
    "--pay-again",
    type=int,
    metavar="BATCH",
    help="pay batch #BATCH again: only after you checked on Prolific's site that its pay call of unknown outcome "
    "paid no one (written to the audit log)",
)
@BY
def bonus_command(slug, file, per_correct, max_amount, dry_run, pay_again, username):
    study = study_or_fail(slug)
    if (file is None) == (per_correct is None):
        raise click.ClickException("give FILE.csv or --per-correct AMOUNT (one of them)")
    max_cents = (
        _amount(max_amount, "--max-amount")
        if max_amount
        else study.config.get("prolific", {}).get("max_bonus_cents", DEFAULT_MAX_BONUS_CENTS)
    )
    per_cents = _amount(per_correct, "--per-correct") if per_correct else None
    researcher_id = by_researcher(username)
    _sync(study, researcher_id)  # the ids are checked against the submissions Prolific has now
    try:
        rows = bonuses.from_csv(study, file, max_cents) if file else bonuses.per_correct(study, per_cents, max_cents)
    except bonuses.BonusError as exc:
        raise click.ClickException(str(exc)) from None
    largest = max(cents for _, cents in rows.rows)
    click.echo(
        f"{len(rows.rows)} bonus(es) from {rows.source}: {bonuses.money(rows.total_cents)} in all, the largest "
        f"{bonuses.money(largest)} (the study's currency; Prolific adds its fees)"
    )
    batch = bonuses.find_batch(study, rows)
    if dry_run:
        if batch is None:
            state = "--yes creates a Prolific batch, records it, then pays it"
        elif batch.status == "paid":
            state = f"these rows were paid as batch #{batch.id}: --yes would refuse them"
        else:
            state = f"batch #{batch.id} for these rows is {batch.status}: --yes carries on with it"
        click.echo(f"dry run: nothing sent. {state}.")
        return
    settle = timedelta(seconds=current_app.config["PROLIFIC_PAY_SETTLE_SECONDS"])
    try:
        batch = bonuses.pay(study, _client(), rows, researcher_id, settle=settle, pay_again=pay_again, say=click.echo)
    except (bonuses.BonusError, ProlificError) as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(
        f"paid: Prolific batch {batch.prolific_batch_id}, {bonuses.money(batch.amount_cents)}"
        + (f" + fees {bonuses.money(batch.fees_cents)}" if batch.fees_cents is not None else "")
    )


def _amount(text: str, option: str) -> int:
    try:
        cents = bonuses.parse_amount(text)
    except ValueError as exc:
        raise click.ClickException(f"{option}: {exc}") from None
    if cents <= 0:
        raise click.ClickException(f"{option} must be more than 0")
    return cents


@prolific_cli.command("batches", help="List a study's bonus batches and their state.")
@click.argument("slug")
@click.option(
    "--check",
    is_flag=True,
    help="also read Prolific's bonus payments and flag anyone paid more than the batches say (exit status 1)",
)
@BY
def batches_command(slug, check, username):
    study = study_or_fail(slug)
    batches = db.session.scalars(db.select(BonusBatch).filter_by(study_id=study.id).order_by(BonusBatch.id)).all()
    if not batches:
        click.echo(f"{slug} has no bonus batches")
    for b in batches:
        when = f"paid {b.paid_at:%Y-%m-%d %H:%M} UTC" if b.paid_at else f"created {b.created_at:%Y-%m-%d %H:%M} UTC"
        click.echo(
            f"#{b.id}\t{b.status}\t{b.prolific_batch_id or '-'}\t{bonuses.money(b.amount_cents)}\t{when}\t"
            f"{b.pay_attempts} pay call(s)\t{b.source}"
        )
    if not check:
        return
    researcher_id = by_researcher(username)
    _sync(study, researcher_id)  # submissions that joined since are read too
    try:
        overpaid = bonuses.check(study, _client(), researcher_id)
    except ProlificError as exc:
        raise click.ClickException(str(exc)) from None
    for o in overpaid:
        click.echo(
            f"  overpaid: {o.name} shows {o.shown} × {bonuses.money(o.amount_cents)} since batch "
            f"#{o.batches[0]} was paid; batch(es) {', '.join(f'#{n}' for n in o.batches)} pay it "
            f"{len(o.batches)} time(s)"
        )
    if overpaid:
        raise click.ClickException(
            f"{len(overpaid)} participant(s) were paid more than the batches say (a bonus paid by hand on "
            "Prolific's site shows here too): check them on Prolific's site"
        )
    click.echo("checked on Prolific: no participant was paid more than the batches say")
