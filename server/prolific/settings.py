"""study.toml's `[prolific]` table: the linked Prolific study, a completion code per outcome, and the limits of the
attention-check and bonus rules.

    [prolific]
    study_id = "60a1b2c3d4e5f6a7b8c9d0e1"   # the Prolific study (or `flask prolific link SLUG ID`)
    attention_check_failures = 1              # failed catch trials that make a failed attention check
    max_bonus = 5.00                          # largest bonus per participant, in the study's currency
    [prolific.codes]                          # one Prolific completion code per outcome (models.OUTCOMES)
    completed = "C3RATIO5"
    failed_attention_check = "C1FAILAC"
    no_consent = "C1NOCONS"
    incompatible_device = "C1DEVICE"
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Annotated, Any

from pydantic import AfterValidator, Field, create_model

from ..models import OUTCOMES
from ..schema import Number, Table, matching, problem

COMPLETE_URL = "https://app.prolific.com/submissions/complete?cc={code}"
PROLIFIC_ID = re.compile(r"^[A-Za-z0-9]{1,64}$")
CODE = re.compile(r"^[A-Za-z0-9]{1,64}$")  # codes travel in the completion URL's query
DEFAULT_MAX_BONUS_CENTS = 1000
MAX_BONUS = 1_000_000  # in the study's currency: anything larger is a typo
Code = matching(CODE.pattern, "a completion code (letters and digits)")
ProlificId = matching(PROLIFIC_ID.pattern, "the Prolific study's id (letters and digits)")


def _amount(value: int | float) -> int | float:
    # Bounded first: Decimal cannot quantize infinity or 10**30 to cents.
    if not 0 < value <= MAX_BONUS or Decimal(str(value)) != Decimal(str(value)).quantize(Decimal("0.01")):
        raise problem(f"expected a positive amount up to {MAX_BONUS} with at most 2 decimals")
    return value


# [prolific.codes]: a key per outcome (models.OUTCOMES), so a new outcome is a key here too.
Codes = create_model(
    "Codes",
    __base__=Table,
    **{
        outcome: (
            Code | None,
            Field(None, description=(f"the Prolific completion code of a session that ends `{outcome}`")),
        )
        for outcome in OUTCOMES
    },
)


class ProlificTable(Table):
    study_id: ProlificId | None = Field(
        None, description=("the linked Prolific study (or `flask prolific link SLUG ID`)")
    )
    codes: Codes = Field(Codes(), description="`[prolific.codes]`: one Prolific completion code per outcome")
    attention_check_failures: int = Field(
        1, ge=1, description=("failed catch trials that make a failed attention check")
    )
    max_bonus: Annotated[Number, AfterValidator(_amount)] | None = Field(
        None, description=("largest bonus per participant, in the study's currency (none: 10.00)")
    )


def config(table: ProlificTable | None) -> dict[str, Any]:
    """The study file's validated `[prolific]` table as the config key `prolific` (nothing when the file has none,
    so a study without one keeps its config, and version, as they were)."""
    if table is None:
        return {}
    return {
        "prolific": {
            "study_id": table.study_id,
            "codes": table.codes.model_dump(exclude_none=True),
            "attention_check_failures": table.attention_check_failures,
            "max_bonus_cents": DEFAULT_MAX_BONUS_CENTS
            if table.max_bonus is None
            else int(Decimal(str(table.max_bonus)) * 100),
        }
    }


def completion_url(config: dict[str, Any], outcome: str) -> str | None:
    """Where a Prolific participant goes for this outcome: its code's URL; a completed session (and a failed
    attention check when the study has no code for it) goes to the study's completion URL; None: no redirect."""
    code = config.get("prolific", {}).get("codes", {}).get(outcome)
    if code and outcome != "completed":
        return COMPLETE_URL.format(code=code)
    if outcome in ("completed", "failed_attention_check"):
        return config.get("completion_url")
    return None


def attention_check_failures(config: dict[str, Any]) -> int:
    return config.get("prolific", {}).get("attention_check_failures", 1)
