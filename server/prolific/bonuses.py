"""Bonuses (`flask prolific bonus`): rows from a CSV file or from the task type's rule, checked, then paid as one
Prolific batch, at most once whatever dies when.

Prolific pays a batch in two calls: create (answers the batch's id; costs nothing) and pay (not idempotent: a
second call pays twice), and has no call that reads a batch back; what a participant was paid shows in their
submission's `bonus_payments`. So the batch's state is committed before each call (bonus_batches.status):

  creating  the rows are recorded; the create call may or may not have happened. A rerun creates anew (an unpaid
            batch costs nothing).
  created   Prolific's batch id is known and no pay call is outstanding. Before the first pay call each
            participant's `bonus_payments` is read and kept (the baseline).
  paying    a pay call was sent or is about to be; its outcome is unknown until Prolific answers 202. A rerun
            reads every participant's `bonus_payments` against the baseline: all show the bonus → paid; some →
            stop and ask the researcher to look; none → "not shown yet", nothing sent. Prolific lists a payment
            some minutes after making it, with no bound it documents, so no participant showing the bonus is no
            proof that it was not paid: only the researcher's explicit choice (`pay_again`, audited), after they
            checked on Prolific's site and once the last pay call is `settle` old (PROLIFIC_PAY_SETTLE_SECONDS),
            makes it created again. `check` later flags anyone Prolific shows paid more than the batches say.
  paid      never paid again: the same rows are refused.
  void      Prolific's batch did not total the rows: never paid; a rerun creates anew.

A batch is one set of (participant, amount) rows (bonus_batches.fingerprint is unique per study), so running the
same file again resumes or refuses, never pays twice. Two runs at once cannot both pay: every move to `paying` is an
UPDATE conditional on the status and the attempt count it saw.
"""

from __future__ import annotations

import csv
import hashlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from decimal import Decimal, InvalidOperation
from pathlib import Path

from sqlalchemy.exc import IntegrityError

from .. import identifiers
from ..db import db, utcnow
from ..models import BonusBatch, BonusBatchRow, ParticipantSession, ProlificSubmission, Study, Trial, analysable
from ..tasktype.contract import TaskType
from ..tasktype.registry import registry
from . import audit
from .client import PaymentUnknown, ProlificClient, ProlificError
from .submissions import linked_id

ID_COLUMNS = ("participant_id", "prolific_pid")
MAX_REPORTED = 20
# A bonus is checked against the participant's submissions on Prolific, which studyhive finds by their raw ids.
PURGED = (
    "their Prolific ids were purged (`flask data purge-identifiers`), so studyhive cannot check a bonus against "
    "Prolific's record of them: nothing sent; pay what is still owed on Prolific's site"
)


class BonusError(Exception):
    """Nothing (more) was sent: the message says why and what to do."""


class BonusFileError(BonusError):
    """The rows are not payable; `problems` names each row and column at fault."""

    def __init__(self, problems: list[str]):
        more = f"\n  … and {len(problems) - MAX_REPORTED} more" if len(problems) > MAX_REPORTED else ""
        super().__init__("nothing sent:\n  " + "\n  ".join(problems[:MAX_REPORTED]) + more)
        self.problems = problems


@dataclass(frozen=True)
class Bonuses:
    rows: tuple[tuple[str, int], ...]  # (PROLIFIC_PID, cents), sorted
    source: str

    @property
    def total_cents(self) -> int:
        return sum(cents for _, cents in self.rows)

    @property
    def fingerprint(self) -> str:
        return hashlib.sha256("\n".join(f"{pid},{cents}" for pid, cents in self.rows).encode()).hexdigest()


def _participants(study: Study) -> tuple[set[str], set[str]]:
    """PROLIFIC_PIDs with a submission in the linked Prolific study (as the last sync read them), and the HMACs of
    those whose submissions' raw ids were purged (`flask data purge-identifiers`)."""
    PSub = ProlificSubmission
    rows = db.session.execute(db.select(PSub.participant_id, PSub.pid_hmac).where(PSub.study_id == study.id)).all()
    return {pid for pid, _ in rows if pid is not None}, {key for pid, key in rows if pid is None}


def parse_amount(text: str) -> int:
    """Cents of an amount in the study's currency ("1.50"); ValueError for anything else."""
    try:
        amount = Decimal(text.strip())
    except InvalidOperation:
        raise ValueError(f"{text!r} is not an amount") from None
    if not amount.is_finite() or amount != amount.quantize(Decimal("0.01")):
        raise ValueError(f"{text!r} is not an amount with at most 2 decimals")
    return int(amount * 100)


def money(cents: int) -> str:
    return f"{Decimal(cents) / 100:.2f}"


def from_csv(study: Study, path: Path, max_cents: int) -> Bonuses:
    """The rows of a bonus file (columns participant_id or prolific_pid, and amount), every row checked; raises
    BonusFileError listing each problem as "row N, column C" (data rows counted from 1)."""
    try:
        with open(path, newline="", encoding="utf-8-sig") as fh:
            reader = csv.DictReader(fh)
            header = reader.fieldnames or []
            records = list(reader)
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise BonusFileError([f"{path}: cannot be read as a UTF-8 CSV file ({exc})"]) from None
    id_columns = [c for c in ID_COLUMNS if c in header]
    if len(id_columns) != 1 or "amount" not in header:
        raise BonusFileError(
            [
                f"{path}: the header must name participant_id (or prolific_pid) and amount; it has "
                f"{', '.join(header) or 'nothing'}"
            ]
        )
    column = id_columns[0]
    (known, purged), problems, rows, first_row = _participants(study), [], [], {}
    for n, record in enumerate(records, 1):
        pid = (record.get(column) or "").strip()
        if not pid:
            problems.append(f"row {n}, column {column}: empty")
        elif pid not in known and identifiers.pid_hmac(pid) in purged:
            problems.append(f"row {n}, column {column}: {pid}: {PURGED}")
        elif pid not in known:
            hint = " (studyhive's numeric participant ids are not Prolific's ids)" if pid.isdigit() else ""
            problems.append(
                f"row {n}, column {column}: {pid} did not take part in Prolific study {study.prolific_study_id}{hint}"
            )
        elif pid in first_row:
            problems.append(f"row {n}, column {column}: {pid} is on row {first_row[pid]} already")
        first_row.setdefault(pid, n)
        try:
            cents = parse_amount(record.get("amount") or "")
        except ValueError as exc:
            problems.append(f"row {n}, column amount: {exc}")
            continue
        problem = _amount_problem(cents, max_cents)
        if problem:
            problems.append(f"row {n}, column amount: {problem}")
        rows.append((pid, cents))
    if not records:
        problems.append(f"{path}: no rows")
    bonuses = Bonuses(tuple(sorted(rows)), f"file {path.name}")
    if problems:
        # the rows of a batch paid before the purge took its participants' ids: refused as paid, not as purged
        batch = find_batch(study, bonuses) if len(rows) == len(records) else None
        if batch is not None and batch.status == "paid":
            raise BonusError(_paid_already(batch))
        raise BonusFileError(problems)
    return bonuses


def per_correct(study: Study, per_cents: int, max_cents: int) -> Bonuses:
    """The task type's rule: `per_cents` for each correct test answer (TaskType.correct) of each participant whose
    session completed with the outcome `completed` and has a Prolific submission. The PROLIFIC_PID paid is the
    submission's, matched to the session by the sync: the session's own may have been purged."""
    task = registry().get(study.task_type)
    if task is None or type(task).correct is TaskType.correct:
        raise BonusError(f"task type {study.task_type} has no correct answers to pay a bonus per")
    PS, PSub = ParticipantSession, ProlificSubmission
    paid_to = dict(
        db.session.execute(
            db.select(PSub.session_id, PSub.participant_id).where(
                PSub.study_id == study.id, PSub.session_id.is_not(None)
            )
        ).all()
    )  # a session's submissions all carry its PROLIFIC_PID
    correct: Counter[str] = Counter()
    scores = db.session.execute(
        db.select(PS.id, Trial.score)
        .join(Trial, Trial.session_id == PS.id)
        .where(
            PS.study_id == study.id,
            analysable("all"),  # pilot participants are paid like live ones; a researcher's preview never is
            PS.status == "completed",
            PS.outcome == "completed",
            identifiers.has_platform_id(),
            Trial.practice.is_(False),
        )
        .execution_options(yield_per=5000)
    )
    for session_id, score in scores:
        if session_id in paid_to and task.correct(score):
            correct[paid_to[session_id]] += 1  # None: a submission whose raw ids were purged
    if None in correct:
        raise BonusError(f"participants who earn a bonus by this rule: {PURGED}")
    rows = [(pid, n * per_cents) for pid, n in sorted(correct.items())]
    problems = [
        f"participant {pid}: {problem}" for pid, cents in rows if (problem := _amount_problem(cents, max_cents))
    ]
    if problems:
        raise BonusFileError(problems)
    if not rows:
        raise BonusError("no completed participant has a correct answer: nothing to pay")
    return Bonuses(tuple(rows), f"{money(per_cents)} per correct answer")


def _amount_problem(cents: int, max_cents: int) -> str | None:
    if cents <= 0:
        return f"{money(cents)} is not a bonus (more than 0 is)"
    if cents > max_cents:
        return f"{money(cents)} is over the cap of {money(max_cents)} ([prolific] max_bonus, or --max-amount)"
    return None


def find_batch(study: Study, bonuses: Bonuses) -> BonusBatch | None:
    return db.session.scalars(
        db.select(BonusBatch).filter_by(study_id=study.id, fingerprint=bonuses.fingerprint)
    ).first()


def pay(
    study: Study,
    client: ProlificClient,
    bonuses: Bonuses,
    researcher_id: int | None,
    *,
    settle: timedelta,
    pay_again: int | None = None,
    via: str = "cli",
    say: Callable[[str], None] = print,
) -> BonusBatch:
    """Create, record and pay the batch for these rows, or carry on with the one already recorded for them.
    `pay_again` is the researcher's choice, after checking on Prolific's site, to pay again the batch of that number
    whose pay call has no known outcome and whose bonus no participant shows (the module's docstring)."""
    batch = find_batch(study, bonuses)
    if pay_again is not None and (batch is None or batch.id != pay_again or batch.status != "paying"):
        state = f"batch #{batch.id}, {batch.status}" if batch else "no batch yet"
        raise BonusError(
            f"--pay-again {pay_again} is only for these rows' batch while its pay call has no known outcome; "
            f"these rows have {state}: nothing sent. Run without --pay-again"
        )
    if batch is None:
        batch = BonusBatch(
            study_id=study.id,
            fingerprint=bonuses.fingerprint,
            source=bonuses.source[:256],
            amount_cents=bonuses.total_cents,
            researcher_id=researcher_id,
        )
        db.session.add(batch)
        try:
            db.session.flush()
            db.session.add_all(
                BonusBatchRow(batch_id=batch.id, participant_id=pid, amount_cents=cents) for pid, cents in bonuses.rows
            )
            db.session.commit()
        except IntegrityError:
            db.session.rollback()
            raise BonusError("another run recorded these rows a moment ago: let it finish, then run again") from None
    elif batch.status == "paid":
        raise BonusError(_paid_already(batch))
    else:
        say(f"carrying on with batch #{batch.id} ({batch.status}), recorded earlier for these rows")
    run = _Run(study, client, batch, researcher_id, via, say)
    if batch.status in ("creating", "void"):
        run.create(bonuses)
    if batch.status == "paying":
        run.resolve(settle, pay_again is not None)
    if batch.status == "created":
        run.pay()
    return batch


def _paid_already(batch: BonusBatch) -> str:
    return (
        f"these rows were paid on {batch.paid_at:%Y-%m-%d %H:%M} UTC as Prolific batch {batch.prolific_batch_id} "
        f"(#{batch.id}): nothing sent"
    )


@dataclass
class _Run:
    """One run of `pay` on a recorded batch: its calls to Prolific, each preceded by the state it may leave."""

    study: Study
    client: ProlificClient
    batch: BonusBatch
    researcher_id: int | None
    via: str
    say: Callable[[str], None]

    def create(self, bonuses: Bonuses) -> None:
        batch = self.batch
        self.say(
            f"creating a Prolific bonus batch: {len(bonuses.rows)} participants, {money(bonuses.total_cents)} in all"
        )
        try:
            answer = self.client.create_bonus_batch(
                linked_id(self.study), [(pid, Decimal(cents) / 100) for pid, cents in bonuses.rows]
            )
        except ProlificError as exc:
            self._log("prolific_bonus_create", f"failed: {exc}")
            raise
        amount = answer.get("amount")
        status = "created" if _cents(amount) == batch.amount_cents else "void"
        self._move(
            batch.status,
            status=status,
            prolific_batch_id=str(answer.get("id")),
            fees_cents=_cents(answer.get("fees")),
            total_cents=_cents(answer.get("total_amount")),
        )
        self._log("prolific_bonus_create", status, amount_cents=amount, fees_cents=batch.fees_cents)
        if status == "void":
            raise BonusError(
                f"Prolific's batch {batch.prolific_batch_id} totals {amount!r} cents, not the rows' "
                f"{batch.amount_cents}: it is not paid. Check the study's currency and the file"
            )

    def pay(self) -> None:
        batch = self.batch
        rows = self._rows()
        if batch.pay_attempts == 0 and any(row.baseline is None for row in rows):
            self.say(f"reading {len(rows)} participants' bonus payments on Prolific before paying")
            paid = payments(self.study, self.client, [row.participant_id for row in rows])
            for row in rows:
                row.baseline = paid[row.participant_id]
            db.session.commit()
        self._move(
            "created", batch.pay_attempts, status="paying", pay_attempts=batch.pay_attempts + 1, pay_started_at=utcnow()
        )
        self.say(f"paying Prolific batch {batch.prolific_batch_id}")
        try:
            self.client.pay_bonus_batch(batch.prolific_batch_id)
        except PaymentUnknown as exc:
            self._log("prolific_bonus_pay", f"unknown: {exc}")
            raise BonusError(
                f"{exc}. Whether batch {batch.prolific_batch_id} was paid is not known: run the same "
                "command again, and it reads the participants' bonus payments on Prolific before "
                "anything is paid again"
            ) from None
        except ProlificError as exc:  # Prolific certainly did not act (rate limited, or never reached)
            self._move("paying", batch.pay_attempts, status="created")
            self._log("prolific_bonus_pay", f"not paid: {exc}")
            raise BonusError(f"{exc}. Batch {batch.prolific_batch_id} is not paid; run again later") from None
        self._paid("paid")

    def resolve(self, settle: timedelta, pay_again: bool) -> None:
        """Decide a pay call of unknown outcome from the participants' bonus payments (module docstring): paid
        when all show it; otherwise nothing is sent unless the researcher chose `pay_again` once it has settled."""
        batch = self.batch
        rows = self._rows()
        self.say(
            f"a pay call for batch {batch.prolific_batch_id} has no known outcome: reading {len(rows)} "
            "participants' bonus payments on Prolific"
        )
        now = payments(self.study, self.client, [row.participant_id for row in rows])
        shown = [row for row in rows if row.amount_cents in (Counter(now[row.participant_id]) - Counter(row.baseline))]
        if len(shown) == len(rows):
            self.say(f"every participant shows the bonus: batch {batch.prolific_batch_id} was paid; not paying again")
            self._paid("paid (found on Prolific)")
            return
        if shown:
            raise BonusError(
                f"{len(shown)} of {len(rows)} participants show batch {batch.prolific_batch_id}'s "
                f"bonus, e.g. {shown[0].participant_id}, the others not: nothing sent. Check the "
                "bonuses on Prolific's site before doing anything else"
            )
        started = _utc(batch.pay_started_at)
        if utcnow() < started + settle:
            raise BonusError(
                f"no participant shows batch {batch.prolific_batch_id}'s bonus yet, but its last pay call was at "
                f"{started:%H:%M:%S} UTC and Prolific may still be processing it: nothing sent. Run again after "
                f"{_next_second(started + settle):%Y-%m-%d %H:%M:%S} UTC"  # the time shown is never early
            )
        if not pay_again:
            first = rows[0]
            raise BonusError(
                f"batch {batch.prolific_batch_id}'s bonus is not shown yet on any participant (last pay call "
                f"{started:%Y-%m-%d %H:%M:%S} UTC): nothing sent. Prolific lists a payment some minutes after "
                "making it, so it may still show: this is no proof that the batch was not paid. Run the same "
                "command again later to read again. Only once you have checked on Prolific's site that no "
                f"participant got this bonus (e.g. {first.participant_id}, {money(first.amount_cents)}), pay it "
                f"again by adding --pay-again {batch.id} (written to the audit log); `flask prolific batches "
                f"{self.study.slug} --check` then flags anyone Prolific shows paid twice"
            )
        self.say(f"no participant shows the bonus, and you chose to pay batch #{batch.id} again")
        self._log(  # committed with the move, or not at all
            "prolific_bonus_pay_again",
            "chosen by the researcher: no participant shows the bonus",
            commit=False,
            last_pay_call=started.isoformat(),
            participants_read=len(rows),
        )
        self._move("paying", batch.pay_attempts, status="created")

    def _paid(self, how: str) -> None:
        self._move("paying", self.batch.pay_attempts, status="paid", paid_at=utcnow())
        self._log("prolific_bonus_pay", how, amount_cents=self.batch.amount_cents)

    def _rows(self) -> list[BonusBatchRow]:
        return db.session.scalars(
            db.select(BonusBatchRow).filter_by(batch_id=self.batch.id).order_by(BonusBatchRow.participant_id)
        ).all()

    def _move(self, expected: str, attempts: int | None = None, **values) -> None:
        """Change the batch's state only if it still is as this run saw it, and commit it with what the session
        holds; if another run changed it, roll back and raise."""
        table, batch_id = BonusBatch.__table__, self.batch.id
        where = [table.c.id == batch_id, table.c.status == expected]
        if attempts is not None:
            where.append(table.c.pay_attempts == attempts)
        moved = db.session.execute(db.update(table).where(*where).values(**values)).rowcount
        if moved != 1:
            db.session.rollback()
            raise BonusError(
                f"another run changed batch #{batch_id} meanwhile: nothing sent; run again to see its state"
            )
        db.session.commit()
        db.session.refresh(self.batch)

    def _log(self, action: str, result: str, commit: bool = True, **detail) -> None:
        audit.record(
            self.study,
            action,
            self.researcher_id,
            self.via,
            batch=self.batch.id,
            prolific_batch_id=self.batch.prolific_batch_id,
            result=result,
            **detail,
        )
        if commit:
            db.session.commit()


def payments(study: Study, client: ProlificClient, participants: list[str]) -> dict[str, list[int]]:
    """Each participant's bonus payments (cents) on Prolific, over their submissions in the study. A participant
    named by the HMAC of their id (a purged batch's row, whose submissions keep no raw id either) is found in
    Prolific's list of the study's submissions by that HMAC; the raw ids read there stay in memory."""
    submissions: dict[str, list[str]] = {}
    for pid, submission_id in db.session.execute(
        db.select(ProlificSubmission.participant_id, ProlificSubmission.submission_id).where(
            ProlificSubmission.study_id == study.id
        )
    ):
        if pid is not None and submission_id is not None:
            submissions.setdefault(pid, []).append(submission_id)
    purged = set(participants) - set(submissions)
    if purged:
        for item in client.submissions(linked_id(study)):
            key = identifiers.pid_hmac(str(item["participant_id"]))
            if key in purged:
                submissions.setdefault(key, []).append(str(item["id"]))
    return {
        pid: [
            int(cents)
            for sid in submissions.get(pid, [])
            for cents in client.submission(sid).get("bonus_payments") or []
        ]
        for pid in participants
    }


@dataclass(frozen=True)
class Overpaid:
    """A participant Prolific shows paid an amount more often than studyhive's batches pay it to them."""

    participant_id: str  # their PROLIFIC_PID, or its HMAC once a purge took it (`purged`)
    amount_cents: int
    shown: int  # payments of the amount since just before the participant's first batch was paid
    batches: tuple[int, ...]  # the batches that pay it to them, each once
    purged: bool = False

    @property
    def name(self) -> str:
        """How the participant is shown: their PROLIFIC_PID, or once purged their participant code (the exports')."""
        return (
            f"participant {self.participant_id[: identifiers.CODE_HEX_DIGITS]}" if self.purged else self.participant_id
        )


def check(study: Study, client: ProlificClient, researcher_id: int | None, via: str = "cli") -> list[Overpaid]:
    """Read Prolific's bonus payments of every participant of a batch that had a pay call, and return those paid an
    amount more often than the batches say (each batch pays each row once). What is compared: the payments shown now
    against the baseline of the participant's first such batch (what they had before it was paid), and the rows of
    every such batch; a bonus of the same amount paid by hand on Prolific's site since then shows here too."""
    rows = db.session.execute(
        db.select(BonusBatchRow, BonusBatch.identifiers_purged_at.is_not(None))
        .join(BonusBatch, BonusBatch.id == BonusBatchRow.batch_id)
        .where(BonusBatch.study_id == study.id, BonusBatch.pay_attempts > 0)
        .order_by(BonusBatch.id)
    ).all()
    # A purged batch's rows name a participant by the HMAC of their PROLIFIC_PID. A later batch names by the raw id
    # one whose submission was not settled at the purge (it kept its raw id): the same participant, under the HMAC.
    hashed = {row.participant_id for row, purged in rows if purged}
    by_participant: dict[str, list[BonusBatchRow]] = {}
    for row, purged in rows:
        key = row.participant_id if purged else identifiers.pid_hmac(row.participant_id)
        by_participant.setdefault(key if key in hashed else row.participant_id, []).append(row)
    now = payments(study, client, sorted(by_participant))
    overpaid = []
    for pid, paid in sorted(by_participant.items()):
        extra = Counter(now[pid]) - Counter(paid[0].baseline)
        allowed = Counter(row.amount_cents for row in paid)
        overpaid += [
            Overpaid(
                pid,
                cents,
                extra[cents],
                tuple(row.batch_id for row in paid if row.amount_cents == cents),
                pid in hashed,
            )
            for cents in sorted(allowed)
            if extra[cents] > allowed[cents]
        ]
    audit.record(
        study, "prolific_bonus_check", researcher_id, via, participants=len(by_participant), overpaid=len(overpaid)
    )
    db.session.commit()
    return overpaid


def _utc(value: datetime) -> datetime:
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value  # SQLite drops the zone; all is UTC


def _next_second(moment: datetime) -> datetime:
    return moment if not moment.microsecond else moment.replace(microsecond=0) + timedelta(seconds=1)


def _cents(value) -> int | None:
    return round(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None
