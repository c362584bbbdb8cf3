"""HypoML result sets shared by the analysis and CLI tests: the paper's worked examples as data."""

from __future__ import annotations

import numpy as np
import pandas as pd


def luminosity_sets(n=200, up=13, down=6) -> dict[str, pd.DataFrame]:
    """R(M,D) = R(M,D+); M+ gains `up` and loses `down` items with D+ and the mirror image with D (disjoint
    items). A1/A2 p ≈ 0.11, A4/A5 p ≈ 0.11, A6 p = 1, A3 p ≈ 0.023: the luminosity pattern at p < 0.05."""
    md = np.zeros(n, dtype=int)
    md[::2] = 1
    cor, inc = np.flatnonzero(md == 1), np.flatnonzero(md == 0)
    mpdp, mpd = md.copy(), md.copy()
    mpdp[inc[:up]] = 1
    mpdp[cor[:down]] = 0
    mpd[cor[down : down + up]] = 0
    mpd[inc[up : up + down]] = 1
    ids = [f"img{k:03d}" for k in range(n)]
    truth = np.array(["cat", "dog"])[np.arange(n) % 2]
    other = np.array(["dog", "cat"])[np.arange(n) % 2]

    def frame(correct):
        return pd.DataFrame({"id": ids, "ground_truth": truth, "label": np.where(correct == 1, truth, other)})

    return {"M,D": frame(md), "M,D+": frame(md.copy()), "M+,D": frame(mpd), "M+,D+": frame(mpdp)}
