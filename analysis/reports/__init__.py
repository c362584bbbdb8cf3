"""The study reports: one module per study family, each computing its report from the statistics of
:mod:`analysis` as a :class:`~analysis.reports.report.Report`, which every family renders the same way --
``text()``, ``markdown()``, ``json()``, ``methods()``, ``figures(dir)``, ``write(dir)`` -- from the sections its
``document()`` lists, laid out by the one shared rendering module, :mod:`analysis.reports.render` (the
missing-value dash, the p-value format, numbers, tables, JSON, text and Markdown).

* :mod:`~analysis.reports.ratio_study` -- ratio estimation (Cleveland & McGill; Study III);
* :mod:`~analysis.reports.hive_study` -- HIVE (Kim et al. 2022);
* :mod:`~analysis.reports.sketch_study` -- sketch recognition (Mukherjee et al. 2023);
* :mod:`~analysis.reports.ratings_study` -- Two4Two hypothesis ratings (Schuessler et al. 2021);
* :mod:`~analysis.reports.hypoml_study` -- HypoML (Wang et al. 2021), with its HTML page: `flask hypoml` on result
  files, not a study, so not a :class:`~analysis.reports.report.Report`;
* :mod:`~analysis.reports.methods` and :mod:`~analysis.reports.exclusions` -- what every ``methods.md`` ends with and
  the sentence about researcher-excluded sessions.

Nothing is re-exported here: import from the module that holds it.
"""
