"""The one table format every benchmark prints. Its own module, so that bench/model_speed.py runs where only
PyTorch and requirements-models.txt are installed (a GPU machine: scripts/gpu-check)."""

from __future__ import annotations


def markdown_table(lines: list[tuple[str, ...]]) -> str:
    """Rows of cells (the first is the header) as an aligned Markdown table; every benchmark prints these."""
    widths = [max(len(line[i]) for line in lines) for i in range(len(lines[0]))]
    text = []
    for n, line in enumerate(lines):
        text.append("| " + " | ".join(cell.ljust(w) for cell, w in zip(line, widths)) + " |")
        if n == 0:
            text.append("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(text)
