# Every target sets up what it needs: a virtual environment in .venv with the project installed.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test test-slow bench lint gallery clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test,dev,bench]'
	touch $(STAMP)

run: $(STAMP)
	$(PY) -m bot

test: $(STAMP)
	$(PY) -m pytest -m "not slow" -q

test-slow: $(STAMP)
	$(PY) -m pytest -m slow -q

bench: $(STAMP)
	@for f in benchmarks/[!_]*.py; do echo "== $$f"; $(PY) $$f || exit 1; done

gallery: $(STAMP)
	$(PY) -m renderer.gallery gallery

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache
