"""The sentence every report prints about sessions the researchers excluded (`flask participants exclude`): the
server passes ``meta["exclusion_reasons"]`` (reason → number of sessions); the analyses use completed sessions only,
so these were never analysed."""

from __future__ import annotations

from typing import Any


def exclusion_note(meta: dict[str, Any]) -> str | None:
    """``"2 session(s) excluded by the researchers, not analysed: straight-lining (2)"``, or None when there are
    none."""
    reasons = meta.get("exclusion_reasons") or {}
    if not reasons:
        return None
    why = "; ".join(f"{reason or '(no reason)'} ({n})" for reason, n in reasons.items())
    return f"{sum(reasons.values())} session(s) excluded by the researchers, not analysed: {why}"
