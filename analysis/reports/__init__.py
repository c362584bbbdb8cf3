"""The study reports: one module per study family, each building its report from the statistics of
:mod:`analysis` and rendering it (text, Markdown, JSON, HTML, CSV, figures, ``methods.md``) through the one shared
rendering module, :mod:`analysis.reports.render` (the missing-value dash, the p-value format, numbers, tables, JSON).

* :mod:`~analysis.reports.ratio_study` -- ratio estimation (Cleveland & McGill; Study III), figures in
  :mod:`~analysis.reports.ratio_figures`;
* :mod:`~analysis.reports.hive_study` -- HIVE (Kim et al. 2022), figures in :mod:`~analysis.reports.hive_figures`;
* :mod:`~analysis.reports.sketch_study` -- sketch recognition (Mukherjee et al. 2023);
* :mod:`~analysis.reports.ratings_study` -- Two4Two hypothesis ratings (Schuessler et al. 2021);
* :mod:`~analysis.reports.hypoml_study` -- HypoML (Wang et al. 2021), with its HTML page;
* :mod:`~analysis.reports.methods` and :mod:`~analysis.reports.exclusions` -- what every ``methods.md`` ends with and
  the sentence about researcher-excluded sessions.

Nothing is re-exported here: import from the module that holds it.
"""
