"""`flask hypoml`: HypoML's hypothesis-based evaluation of four paired result sets (Wang et al., TVCG 2021).

    flask hypoml R_MD.csv R_MDp.csv R_MpD.csv R_MpDp.csv [--p 0.05] [--out DIR] [--format text|json]

The four files are R(M,D), R(M,D+), R(M+,D), R(M+,D+) in that order: one row per test item with columns ``id``,
``ground_truth``, ``label``, optional ``uncertainty`` and ``correctness`` in [0, 1] (computed from label and ground
truth when absent). The command prints the conclusions about H1…H12 first, then the six paired t-tests A1…A6 and
the four accuracies with 95 % CIs; ``--out`` also writes ``hypoml.html`` (the matrix view, one self-contained file
whose threshold can be changed in the browser) and the same numbers as CSV and JSON. Everything is computed by
:mod:`analysis.hypoml_inference` and :mod:`analysis.reports.hypoml_study`; this module only reads the command line
and turns the analysis's ``ValueError`` (which names the file, row and column) into a click error. No database is
used.
"""

from __future__ import annotations

from pathlib import Path

import click

from analysis.hypoml_inference import read_results
from analysis.reports.hypoml_study import hypoml_json, hypoml_report, hypoml_text, write_hypoml

from .common import print_report, report_options

_FILE = click.Path(exists=True, dir_okay=False, readable=True, path_type=Path)


@click.command(
    "hypoml",
    help="HypoML: conclusions about 12 hypotheses from four paired result sets "
    "R(M,D) R(M,D+) R(M+,D) R(M+,D+) (CSV files, in that order).",
)
@click.argument("r_md", metavar="R_MD", type=_FILE)
@click.argument("r_mdp", metavar="R_MDp", type=_FILE)
@click.argument("r_mpd", metavar="R_MpD", type=_FILE)
@click.argument("r_mpdp", metavar="R_MpDp", type=_FILE)
@click.option(
    "--p",
    "threshold",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    default=0.05,
    show_default=True,
    help="significance threshold on the p-values of the six t-tests",
)
@report_options("also write hypoml.html (matrix view, works offline), hypoml.json and CSV tables here")
@click.option("--title", default="HypoML", show_default=True, help="title of the HTML page")
def hypoml_command(r_md, r_mdp, r_mpd, r_mpdp, threshold, out_dir, fmt, title):
    paths = [r_md, r_mdp, r_mpd, r_mpdp]
    try:
        frames = read_results(paths)
        result = hypoml_report(frames, threshold, sources=[str(p) for p in paths], lines=True)
    except ValueError as exc:  # the analysis names the file, row(s) and column
        raise click.ClickException(str(exc)) from None
    print_report(
        fmt,
        lambda: hypoml_json(result),
        lambda: hypoml_text(result),
        out_dir,
        lambda folder: write_hypoml(result, folder, title=title),
    )
