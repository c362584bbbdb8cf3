"""The shared parts of a Methods paragraph: software versions and the reference list.

Every study report writes ``methods.md`` (``flask analyze <study> --out DIR``) from what it actually computed;
the paragraphs themselves live beside each report (they name that report's estimators, tests and counts). This
module holds what they all end with, so that versions and references are stated the same way everywhere.
"""

from __future__ import annotations

import platform
from importlib import metadata

__all__ = ["REFERENCES", "methods_document", "software_versions"]

#: Citation keys used by the Methods paragraphs → the full reference.
REFERENCES = {
    "cleveland1984": "Cleveland, W. S., & McGill, R. (1984). Graphical perception: Theory, experimentation, and "
    "application to the development of graphical methods. JASA 79(387), 531–554.",
    "heer2010": "Heer, J., & Bostock, M. (2010). Crowdsourcing graphical perception: Using Mechanical Turk to assess "
    "visualization design. CHI 2010, 203–212.",
    "haehn2018": "Haehn, D., Tompkin, J., & Pfister, H. (2018). Evaluating 'graphical perception' with CNNs. "
    "IEEE TVCG 25(1), 641–650.",
    "jiang2025": "Jiang et al. (2025). Ratio-sampling regimes: CNNs versus humans in graphical perception "
    "(the study3 source paper; see docs/studies.md).",
    "tukey1977": "Tukey, J. W. (1977). Exploratory Data Analysis. Addison-Wesley.",
    "efron1993": "Efron, B., & Tibshirani, R. J. (1993). An Introduction to the Bootstrap. Chapman & Hall.",
    "greenhouse1959": "Greenhouse, S. W., & Geisser, S. (1959). On methods in the analysis of profile data. "
    "Psychometrika 24(2), 95–112.",
    "holm1979": "Holm, S. (1979). A simple sequentially rejective multiple test procedure. Scandinavian Journal of "
    "Statistics 6(2), 65–70.",
    "fisher1921": "Fisher, R. A. (1921). On the 'probable error' of a coefficient of correlation deduced from a "
    "small sample. Metron 1, 3–32.",
    "kim2022": "Kim, S. S. Y., Meister, N., Ramaswamy, V. V., Fong, R., & Russakovsky, O. (2022). HIVE: Evaluating "
    "the human interpretability of visual explanations. ECCV 2022.",
    "wilson1927": "Wilson, E. B. (1927). Probable inference, the law of succession, and statistical inference. "
    "JASA 22(158), 209–212.",
    "vallat2018": "Vallat, R. (2018). Pingouin: statistics in Python. JOSS 3(31), 1026.",
    "student1908": "Student (1908). The probable error of a mean. Biometrika 6(1), 1–25.",
    "welch1947": "Welch, B. L. (1947). The generalization of 'Student's' problem when several different population "
    "variances are involved. Biometrika 34(1–2), 28–35.",
    "dersimonian1986": "DerSimonian, R., & Laird, N. (1986). Meta-analysis in clinical trials. Controlled Clinical "
    "Trials 7(3), 177–188.",
    "satterthwaite1946": "Satterthwaite, F. E. (1946). An approximate distribution of estimates of variance "
    "components. Biometrics Bulletin 2(6), 110–114.",
    "spearman1904": "Spearman, C. (1904). The proof and measurement of association between two things. American "
    "Journal of Psychology 15(1), 72–101.",
    "schuessler2021": "Schuessler, M., Weiß, P., & Sixt, L. (2021). Two4Two: Evaluating interpretable machine "
    "learning - a synthetic dataset for controlled experiments. arXiv:2105.02825.",
    "mukherjee2023": "Mukherjee, K., Huey, H., Lu, X., Vinker, Y., Aguina-Kang, R., Shamir, A., & Fan, J. E. (2023). "
    "SEVA: Leveraging sketches to evaluate alignment between human and machine visual abstraction. "
    "NeurIPS 2023 Datasets and Benchmarks.",
    "shannon1948": "Shannon, C. E. (1948). A mathematical theory of communication. Bell System Technical Journal "
    "27(3), 379–423.",
    "spearman1910": "Spearman, C. (1910). Correlation calculated from faulty data. British Journal of Psychology 3(3), "
    "271–295; Brown, W. (1910). Some experimental results in the correlation of mental abilities. "
    "British Journal of Psychology 3(3), 296–322.",
}

_PACKAGES = ("numpy", "scipy", "pandas", "pingouin")


def software_versions() -> dict[str, str]:
    """Python and the numerical packages the statistics ran on, as ``{name: version}``."""
    versions = {"python": platform.python_version()}
    for name in _PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:  # an optional package the analysis did not use
            continue
    return versions


def methods_document(title: str, paragraphs: list[str], references: list[str]) -> str:
    """``methods.md``: a title, the report's paragraphs, the software line and the references it cited.

    ``references`` are keys of :data:`REFERENCES` (unknown keys raise ``KeyError``: a paragraph must not cite
    what the list cannot resolve); pingouin's paper is always cited since every test runs on it.
    """
    versions = ", ".join(f"{name} {v}" for name, v in software_versions().items())
    keys = list(dict.fromkeys([*references, "vallat2018"]))
    lines = [f"# Methods: {title}", ""]
    for paragraph in paragraphs:
        lines += [paragraph, ""]
    lines += [f"Computed with studyhive's `analysis` package on {versions}.", "", "## References", ""]
    lines += [f"- {REFERENCES[key]}" for key in keys]
    return "\n".join(lines) + "\n"
