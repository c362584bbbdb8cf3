# Build stage: jsPsych from the npm registry (pinned in package-lock.json), copied into static/vendor by make (its CSS
# through scripts/strip_fonts.py, with the image's python3).
FROM node:20-bookworm AS static
WORKDIR /app
COPY package.json package-lock.json Makefile ./
COPY scripts/strip_fonts.py scripts/
RUN make static/vendor/.installed

FROM python:3.11-slim-bookworm
WORKDIR /app
ENV PYTHONUNBUFFERED=1 FLASK_APP=server GRANIAN_HOST=0.0.0.0 GRANIAN_PORT=8000
# Serving and analysis: the app workers import only the first (docs/operations.md, "What a serving worker loads"), but
# the image also runs `flask analyze`, the results page's recompute process and `flask studies sync` (deploy/migrate.sh).
COPY requirements.txt requirements-analysis.txt ./
RUN pip install --no-cache-dir -r requirements.txt -r requirements-analysis.txt
COPY server server
COPY analysis analysis
COPY migrations migrations
COPY studies studies
COPY static static
COPY deploy/granian.sh deploy/migrate.sh deploy/
COPY --from=static /app/static/vendor static/vendor
# The product's commit, for data packages (`flask export --package`): the image holds no git checkout.
# docker-compose.yml passes it: STUDYHIVE_COMMIT=$(git rev-parse HEAD) docker compose build
ARG STUDYHIVE_COMMIT=unknown
ENV STUDYHIVE_COMMIT=$STUDYHIVE_COMMIT
# The app server and the migration job run as an unprivileged user without a home: the image's files stay root's,
# readable, so a flaw in the app cannot rewrite its code; nothing is written beside it (the secret key comes from
# SECRET_KEY, the data from PostgreSQL). Matplotlib (the dashboard's figures) keeps its cache in /tmp.
RUN useradd --system --uid 10001 --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin studyhive
ENV MPLCONFIGDIR=/tmp/matplotlib
USER studyhive
EXPOSE 8000
# The app server is granian (deploy/granian.sh; docs/operations.md, "The production setup"). Migrations and study
# files are not applied here: every replica would run them at once. docker-compose.yml's `migrate` service runs
# deploy/migrate.sh from this image once, as the tables' owner, before any app server starts.
CMD ["deploy/granian.sh", "--factory", "server:create_app"]
