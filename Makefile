# Arbiter: `make run` serves the demo, `make test` runs the linters and the whole suite.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
# The address mails link to and `make run` prints: the port served, unless set (docs/operations.md).
SITE_URL := $(or $(ARBITER_SITE_URL),http://$(HOST):$(PORT))

.PHONY: run install migrate demo messages test test-deep lint format typecheck bench bench-pages bench-load bench-fuzz bench-reliability bench-wof bench-sse bench-release bench-venue lock clean

$(VENV)/.installed: requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade "pip>=24"
	$(PY) -m pip install --quiet --require-hashes --no-deps -r requirements.lock
	touch $@

install: $(VENV)/.installed

migrate: install
	$(PY) manage.py migrate --noinput

demo: migrate
	ARBITER_SITE_URL=$(SITE_URL) $(PY) manage.py load_demo

run: demo
	DJANGO_DEBUG=$${DJANGO_DEBUG:-1} ARBITER_SITE_URL=$(SITE_URL) $(PY) manage.py runserver $(HOST):$(PORT)

# The translations (docs/translations.md): collects every marked string of the templates and
# the Python into locale/<lang>/LC_MESSAGES/django.po (keeping what is translated), then
# compiles the .mo Django reads. Both files are committed, so `make run` needs no gettext.
MESSAGE_LANGUAGES ?= fr
MESSAGE_IGNORE := --ignore=.venv --ignore=node_modules --ignore=var --ignore=bench --ignore=tests
messages: install
	$(PY) manage.py makemessages --add-location=file $(MESSAGE_IGNORE) $(foreach l,$(MESSAGE_LANGUAGES),-l $(l))
	$(PY) manage.py compilemessages $(MESSAGE_IGNORE)

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

typecheck: install
	$(VENV)/bin/mypy

# --run-slow: the brute-force tests (marked slow) that a bare `pytest` deselects.
# -n: the tests run in TEST_WORKERS processes (pytest-xdist), each with its own test
# database and Celery queue (tests/conftest.py); much of a test's time is spent waiting on
# PostgreSQL, Chromium or a server, so 3 on two cores (docs/performance.md). A file's tests
# stay in one process (--dist loadfile): a module's fixture is built once, and a file's
# tests never race each other. TEST_WORKERS=0 runs them all in this one process;
# PYTEST_ARGS adds any pytest option.
TEST_WORKERS ?= 3
test: lint typecheck
	$(PY) -m pytest --run-slow -n $(TEST_WORKERS) --dist loadfile $(PYTEST_ARGS)

# The stateful service-layer tests at full depth: 60 examples of 50 steps for each format
# (over an hour on two shared cores; CI runs 2 of 16 each).
test-deep: install
	HYPOTHESIS_PROFILE=deep $(PY) -m pytest --run-slow tests/tournaments/test_stateful.py $(PYTEST_ARGS)

format: install
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

# Benchmarks print tables and never fail a build (figures: docs/performance.md,
# docs/conformance.md). BENCH_EVENTS sets the conformance events per format.
bench: install
	$(PY) -m bench
	$(PY) -m bench.latency
	$(PY) -m bench.pages
	$(PY) -m bench.woc_pairing --quick
	$(PY) -m bench.saves
	$(PY) -m bench.standings 1000,10000 --engine-only
	$(PY) -m bench.standings --incremental
	PYTHONPATH=. $(PY) bench/conformance.py $${BENCH_EVENTS:-50}
	$(PY) -m bench.wof_check
	-$(PY) -m bench.load $${LOAD_SECONDS:-600}

# The public pages alone (docs/performance.md): build times, cached page, 304, bare view.
bench-pages: install
	$(PY) -m bench.pages

# The load scenario alone (docs/reliability.md): LOAD_SECONDS (30 here), PostgreSQL in
# BENCH_DATABASE_URL, Redis in REDIS_URL. Exits 1 when a goal is missed (p95 over
# LOAD_P95_MS, 300; any error; any lost save); `make bench` reports it and goes on.
bench-load: install
	$(PY) -m bench.load $${LOAD_SECONDS:-30}

# import_event --check over the WOF archive sample and the raw FlipTheDisc exports, timed
# (docs/formats/wof-file.md): the 302 files in under 20 s.
bench-wof: install
	$(PY) -m bench.wof_check

# The live streams (docs/performance.md): SSE_STREAMS streams (2,000) on uvicorn with
# SSE_WORKERS workers (2), SSE_CHANGES saved results (5), each timed from its commit to every
# stream. PostgreSQL in BENCH_DATABASE_URL, Redis in REDIS_URL. About 3 minutes.
bench-sse: install
	$(PY) -m bench.sse $${SSE_STREAMS:-2000} $${SSE_CHANGES:-5}

# A round release under a crowd (docs/performance.md): a 1,000-entrant WOC event, its next
# round published, then BENCH_CLIENTS clients (500) within BENCH_SPREAD s (10) each read
# their entrant page and the API's round; p95 and errors against the goal (< 200 ms, 0).
# PostgreSQL in BENCH_DATABASE_URL, Redis in REDIS_URL; BENCH_KEEP=1 reuses the built event.
bench-release: install
	$(PY) -m bench.release

# Venue mode (docs/venue.md, docs/performance.md): two instances and the link between them;
# the latency from a save at the venue to the public standings (goal p95 < 3 s), then the
# pusher's memory and CPU over a 10-hour day compressed x BENCH_VENUE_COMPRESSION (120).
# PostgreSQL in BENCH_DATABASE_URL (or DATABASE_URL), REDIS_URL optional. About 10 minutes.
bench-venue: install
	$(PY) -m bench.venue

# 10,000 hostile inputs per entry point, then atheris (docs/reliability.md); needs
# DATABASE_URL (PostgreSQL) like the tests. Long: about 40 minutes on two shared cores.
bench-fuzz: install
	$(PY) -m bench.fuzz $${FUZZ_EXAMPLES:-10000}

# The goal table of docs/reliability.md at full size, each figure asserted (exit 1 on a
# miss): shared saves, GokoDom report races, worker kills, Redis refused. PostgreSQL in
# BENCH_DATABASE_URL, redis-server on the PATH (a private one: the shared Redis is never
# touched). About 22 minutes on two shared cores (21.6 min measured in issue 29's audit).
bench-reliability: install
	$(PY) -m bench.reliability

# Regenerates requirements.lock from pyproject.toml (needs uv on the PATH).
lock:
	uv pip compile pyproject.toml --extra dev --generate-hashes --python-version 3.11 \
		--python-platform x86_64-unknown-linux-gnu --no-header -o requirements.lock

clean:
	rm -rf $(VENV) var .pytest_cache .mypy_cache .ruff_cache
