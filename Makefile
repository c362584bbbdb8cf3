# studyhive: the two commands a new user needs are `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 5000
JSPSYCH_PKGS := jspsych plugin-browser-check plugin-html-button-response plugin-instructions plugin-survey-html-form
# The demo studies in studies/: `make run` puts them live (a new study starts in pilot) so that their sessions are
# analysed and counted by default, as a recruiting study's are (docs/researchers.md "Stages").
DEMO_STUDIES := hive-agreement hive-distinction hive-output-prediction hive-prototree sketch-demo study3 \
	two4two-demo visual-search

.PHONY: run test test-sqlite test-postgresql setup setup-dev models bench corpus corpus-packages bench-dashboard bench-load bench-models bench-weight validate clean

# Four sets of packages: serving (requirements.txt: what an app worker imports), analysis (requirements-analysis.txt:
# `flask analyze`, the results page's recompute, plans, figures, data packages; docs/operations.md, "What a serving
# worker loads"), model training (requirements-models.txt, PyTorch: `make models`, docs/models.md) and development
# (requirements-dev.txt: `make test`, which needs all the others). `make run` installs serving and analysis, so that a
# newcomer has every page and command; never torch: where the package index serves CUDA wheels it is gigabytes
# (tests/test_setup.py checks).
setup: $(VENV)/.installed static/vendor/.installed
setup-dev: $(VENV)/.dev-installed static/vendor/.installed
models: $(VENV)/.models-installed

$(VENV)/.installed: requirements.txt requirements-analysis.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -r requirements.txt -r requirements-analysis.txt
	touch $@

$(VENV)/.models-installed: $(VENV)/.installed requirements-models.txt
	$(BIN)/pip install --quiet -r requirements-models.txt
	touch $@

$(VENV)/.dev-installed: $(VENV)/.models-installed requirements-dev.txt
	$(BIN)/pip install --quiet -r requirements-dev.txt
	touch $@

# jsPsych comes from the npm registry (pinned in package-lock.json); only its browser builds are served, and its CSS
# without the 32 fonts it inlines (468 of its 476 KB; scripts/strip_fonts.py). `npm ci` also installs the
# devDependencies `make test` uses: ESLint and TypeScript for the browser scripts, the packages the tests serve.
static/vendor/.installed: package.json package-lock.json scripts/strip_fonts.py
	npm ci --no-audit --no-fund --silent
	rm -rf static/vendor && mkdir -p static/vendor
	cp node_modules/jspsych/dist/index.browser.min.js static/vendor/jspsych.js
	$(PYTHON) scripts/strip_fonts.py node_modules/jspsych/css/jspsych.css static/vendor/jspsych.css
	for p in $(filter plugin-%,$(JSPSYCH_PKGS)); do \
	  cp node_modules/@jspsych/$$p/dist/index.browser.min.js static/vendor/$$p.js; done
	touch $@

run: setup
	@FLASK_APP=server $(BIN)/flask db upgrade --directory migrations
	@FLASK_APP=server $(BIN)/flask studies sync
	@FLASK_APP=server $(BIN)/flask studies stage $(DEMO_STUDIES) live
	@FLASK_APP=server $(BIN)/flask links --base-url http://127.0.0.1:$(PORT)
	@FLASK_APP=server $(BIN)/flask run --host 127.0.0.1 --port $(PORT)

# ruff (lint and format, settings in pyproject.toml), the import contracts, the browser scripts' checks, then the two
# pytest passes at the same time: the whole suite on SQLite and every database test again on a real PostgreSQL server
# (found or started). One after the other they took the sum of their times, each mostly one core's work on a 2-core
# machine. Each pass's output is held and printed whole when it ends (--output-sync); make fails if either fails.
test: setup-dev
	scripts/ensure-chromium
	scripts/ensure-tool wrk wrk
	@echo "== ruff check and ruff format --check (pyproject.toml) =="
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	@echo "== import contracts (.importlinter) =="
	$(BIN)/lint-imports
	@echo "== the browser scripts: ESLint (eslint.config.js), the JSDoc type check (tsconfig*.json), node --test =="
	npx --no-install eslint .
	npx --no-install tsc -p tsconfig.json
	npx --no-install tsc -p tsconfig.experiment.json
	node --test tests/js/*.test.js
	@echo "== pytest on SQLite and on PostgreSQL at the same time: each pass's output when it ends =="
	$(MAKE) --no-print-directory -j2 --output-sync=target test-sqlite test-postgresql

# The two pytest passes `make test` runs side by side (after its setup; one alone: `make test-sqlite`). Nothing they
# write is theirs in common: a server a test starts takes a free port, files go to pytest's tmp_path or a fresh
# temporary name, the SQLite pass never connects to PostgreSQL, and the PostgreSQL pass's databases are named after
# TEST_DATABASE_URL's. The pytest cache (--lf) is one per pass, so that neither overwrites the other's last failures.
test-sqlite:
	@echo "== studyhive tests on SQLite =="
	STUDYHIVE_TEST_DB=sqlite $(BIN)/python -m pytest $(PYTEST_ARGS)

test-postgresql:
	@echo "== studyhive database tests on PostgreSQL =="
	TEST_DATABASE_URL="$$(scripts/ensure-postgres)" STUDYHIVE_TEST_DB=postgresql $(BIN)/python -m pytest -m db \
	  -o cache_dir=.pytest_cache/postgresql $(PYTEST_ARGS)

# Benchmarks (not tests), printed as one table: bench/run.py. PostgreSQL as for `make test`, but in its own database
# studyhive_bench. About 5 minutes on an idle 2-core machine; BENCH_SIZES=1000000 make bench takes one.
bench: $(VENV)/.dev-installed
	TEST_DATABASE_URL="$$(scripts/ensure-postgres)" $(BIN)/python -m bench.run

# The corpus of published jsPsych experiments (corpus/manifest.toml) run unchanged through studyhive by a generic
# participant in headless Chromium, offline: each from its pinned npm packages (corpus/packages/), put in its study
# folder's packages/: one table (bench/corpus/). SQLite in a scratch folder; about ten minutes.
corpus: $(VENV)/.dev-installed
	scripts/ensure-chromium
	$(BIN)/python -m bench.corpus

# The one step of the corpus that needs the network: `npm pack` of each package version corpus/manifest.toml pins
# that corpus/packages/ lacks, and their integrity in corpus/packages/package-lock.json (bench/corpus/packages.py).
corpus-packages: $(VENV)/.dev-installed
	$(BIN)/python -m bench.corpus.packages

# Researcher dashboard page timings on a study with 1,000 participants and ~30,000 trials (PostgreSQL, own database).
bench-dashboard: $(VENV)/.dev-installed
	TEST_DATABASE_URL="$$(scripts/ensure-postgres)" $(BIN)/python scripts/dashboard_timings.py

# Page weight per demo study: bytes until the consent screen is interactive, first visit and second (goal < 250 KB;
# scripts/first_visit_bytes.py). About a minute; SQLite in a scratch folder, headless Chromium.
bench-weight: $(VENV)/.dev-installed static/vendor/.installed
	scripts/ensure-chromium
	$(BIN)/python scripts/first_visit_bytes.py

# Participants under load, driven by wrk (bench/load/wrk/), against granian (deploy/granian.sh, production) and gunicorn
# (gunicorn.conf.py) side by side
# + PostgreSQL (own database studyhive_load): capacity at 200 and 1,000 connections, the Prolific launch (1,000
# arrivals in 60 s), psiTurk 3.3.1 (its own venv, from PyPI), two app servers behind nginx, the save path's profile
# (py-spy), then faults (worker SIGKILL, PostgreSQL restart on a throwaway cluster, a minute offline in Chromium) and
# pgbench's ceiling; one table (bench/load/__main__.py has the knobs). About 20 minutes; run as root.
bench-load: $(VENV)/.dev-installed
	scripts/ensure-chromium
	scripts/ensure-tool wrk wrk
	scripts/ensure-tool nginx nginx-light
	TEST_DATABASE_URL="$$(scripts/ensure-postgres)" $(BIN)/python -m bench.load

# Bias and 95 % coverage of every estimator and interval the reports print, on simulated cohorts at the published
# designs (500 replications; VALIDATE_REPS to change), and `flask plan`'s n checked by the reports' own tests on fresh
# cohorts (VALIDATE_PLANNING_REPS). Tables, not tests: about 10 minutes on 2 cores, plus about 9 for the planning.
validate: $(VENV)/.dev-installed
	$(BIN)/python -m bench.validate

# Training images/s per architecture and precision beside a bare PyTorch loop (bench/model_speed.py), then CNNs trained
# on study3's own stimuli per architecture and sampling regime, scored on the test people took: MAE, MLAE, seconds per
# epoch (bench/models.py has the knobs: BENCH_MODELS, BENCH_SPEED, BENCH_ACCURACY, BENCH_DEVICE, BENCH_THREADS). About
# 15 minutes on an idle 2-core machine; SQLite in a scratch folder, no PostgreSQL.
bench-models: $(VENV)/.dev-installed
	$(BIN)/python -m bench.models

clean:
	rm -rf $(VENV) node_modules static/vendor
