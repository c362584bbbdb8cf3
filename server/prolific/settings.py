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
from decimal import Decimal, InvalidOperation
from typing import Any

from ..models import OUTCOMES
from ..exceptions import ConfigError

COMPLETE_URL = "https://app.prolific.com/submissions/complete?cc={code}"
KEYS = {"study_id", "codes", "attention_check_failures", "max_bonus"}
PROLIFIC_ID = re.compile(r"^[A-Za-z0-9]{1,64}$")
CODE = re.compile(r"^[A-Za-z0-9]{1,64}$")  # codes travel in the completion URL's query
DEFAULT_MAX_BONUS_CENTS = 1000


def parse(raw: dict[str, Any]) -> dict[str, Any]:
    """The study file's `[prolific]` table as the config key `prolific` (nothing when the file has none, so a
    study without one keeps its config, and version, as they were). Raises ConfigError naming the key."""
    if "prolific" not in raw:
        return {}
    table = raw["prolific"]
    if not isinstance(table, dict):
        raise ConfigError("prolific must be a table ([prolific])")
    unknown = set(table) - KEYS
    if unknown:
        raise ConfigError(f"[prolific]: unknown key(s): {', '.join(sorted(unknown))}")
    study_id = table.get("study_id")
    if study_id is not None and (not isinstance(study_id, str) or not PROLIFIC_ID.match(study_id)):
        raise ConfigError("[prolific] study_id must be the Prolific study's id (letters and digits)")
    codes = table.get("codes", {})
    if not isinstance(codes, dict):
        raise ConfigError("[prolific.codes] must be a table of outcome = \"CODE\"")
    wrong = set(codes) - set(OUTCOMES)
    if wrong:
        raise ConfigError(f"[prolific.codes]: unknown outcome(s): {', '.join(sorted(wrong))} "
                          f"(known: {', '.join(OUTCOMES)})")
    for outcome, code in codes.items():
        if not isinstance(code, str) or not CODE.match(code):
            raise ConfigError(f"[prolific.codes] {outcome} must be a completion code (letters and digits)")
    failures = table.get("attention_check_failures", 1)
    if isinstance(failures, bool) or not isinstance(failures, int) or failures < 1:
        raise ConfigError("[prolific] attention_check_failures must be a whole number, at least 1")
    return {"prolific": {"study_id": study_id, "codes": dict(codes), "attention_check_failures": failures,
                         "max_bonus_cents": _cents(table.get("max_bonus"), "[prolific] max_bonus")
                         if "max_bonus" in table else DEFAULT_MAX_BONUS_CENTS}}


def _cents(value: Any, where: str) -> int:
    try:
        amount = Decimal(str(value)) if isinstance(value, (int, float)) and not isinstance(value, bool) else None
    except InvalidOperation:
        amount = None
    if amount is None or amount <= 0 or amount != amount.quantize(Decimal("0.01")):
        raise ConfigError(f"{where} must be a positive amount with at most 2 decimals")
    return int(amount * 100)


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
