# Arbiter: `make run` serves the demo, `make test` runs the linters and the whole suite.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run install migrate demo test test-deep lint format typecheck bench bench-load bench-fuzz lock clean

$(VENV)/.installed: requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade "pip>=24"
	$(PY) -m pip install --quiet --require-hashes --no-deps -r requirements.lock
	touch $@

install: $(VENV)/.installed

migrate: install
	$(PY) manage.py migrate --noinput

demo: migrate
	$(PY) manage.py load_demo

run: demo
	DJANGO_DEBUG=$${DJANGO_DEBUG:-1} $(PY) manage.py runserver $(HOST):$(PORT)

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

typecheck: install
	$(VENV)/bin/mypy

test: lint typecheck
	$(PY) -m pytest $(PYTEST_ARGS)

# The stateful service-layer tests at full depth: 60 examples of 50 steps for each format
# (over an hour on two shared cores; CI runs 2 of 16 each).
test-deep: install
	HYPOTHESIS_PROFILE=deep $(PY) -m pytest tests/tournaments/test_stateful.py $(PYTEST_ARGS)

format: install
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

# Benchmarks print tables and never fail a build (figures: docs/performance.md,
# docs/conformance.md). BENCH_EVENTS sets the conformance events per format.
bench: install
	$(PY) -m bench
	$(PY) -m bench.woc_pairing --quick
	PYTHONPATH=. $(PY) bench/conformance.py $${BENCH_EVENTS:-50}
	$(PY) -m bench.load $${LOAD_SECONDS:-600}

# The load scenario alone (docs/reliability.md): LOAD_SECONDS (30 here), PostgreSQL in
# BENCH_DATABASE_URL, Redis in REDIS_URL.
bench-load: install
	$(PY) -m bench.load $${LOAD_SECONDS:-30}

# 10,000 hostile inputs per entry point, then atheris (docs/reliability.md); needs
# DATABASE_URL (PostgreSQL) like the tests. Long: about 40 minutes on two shared cores.
bench-fuzz: install
	$(PY) -m bench.fuzz $${FUZZ_EXAMPLES:-10000}

# Regenerates requirements.lock from pyproject.toml (needs uv on the PATH).
lock:
	uv pip compile pyproject.toml --extra dev --generate-hashes --python-version 3.11 \
		--python-platform x86_64-unknown-linux-gnu --no-header -o requirements.lock

clean:
	rm -rf $(VENV) var .pytest_cache .mypy_cache .ruff_cache
