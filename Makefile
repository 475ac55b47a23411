# Every target sets up what it needs: a virtual environment in .venv with the project
# installed, plus the extras that target uses (`make run` needs none of them).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
# One stamp per part installed: the project itself, then each extra of pyproject.toml.
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test
DEV_STAMP := $(VENV)/.installed-dev
BENCH_STAMP := $(VENV)/.installed-bench

.PHONY: run test test-slow bench lint gallery gallery-tournaments gallery-web play-correspondence \
	clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e .
	touch $(STAMP)

$(VENV)/.installed-%: $(STAMP)
	$(PY) -m pip install --quiet -e '.[$*]'
	touch $@

run: $(STAMP)
	$(PY) -m bot

test: $(TEST_STAMP)
	$(PY) -m pytest -m "not slow" -q

# The slow suite runs as two pytest processes at once: the CPU-bound tests of the engine,
# the puzzles and the renderer, and the rest (the bot's end-to-end runs and the storage,
# which mostly wait). On two cores together they take about as long as the longer of the
# two. The first one's report is printed after the second's; the target fails if either
# does.
SLOW_CPU := tests/engine tests/puzzles tests/renderer
# A third process for the local-play runs that mostly wait: the arena's 10 minutes of real
# time, and the correspondence game's notifications (a minute or two).
SLOW_WAIT := tests/localplay/test_tournaments.py tests/localplay/test_correspondence.py

test-slow: $(TEST_STAMP)
	@$(PY) -m pytest -m slow -q -p no:cacheprovider $(SLOW_CPU) > .slow-cpu.log 2>&1 & \
	cpu=$$!; \
	$(PY) -m pytest -m slow -q -p no:cacheprovider $(SLOW_WAIT) > .slow-wait.log 2>&1 & \
	waiting=$$!; \
	$(PY) -m pytest -m slow -q $(addprefix --ignore=,$(SLOW_CPU) $(SLOW_WAIT)); rest=$$?; \
	wait $$cpu; cpu_status=$$?; wait $$waiting; wait_status=$$?; \
	echo "== the slow tests of $(SLOW_CPU)"; cat .slow-cpu.log; rm -f .slow-cpu.log; \
	echo "== the slow tests of $(SLOW_WAIT)"; cat .slow-wait.log; rm -f .slow-wait.log; \
	test $$rest -eq 0 && test $$cpu_status -eq 0 && test $$wait_status -eq 0

bench: $(BENCH_STAMP) $(TEST_STAMP)
	@for f in benchmarks/[!_]*.py; do echo "== $$f"; $(PY) $$f || exit 1; done

gallery: $(STAMP)
	$(PY) -m renderer.gallery gallery

# The standings pictures of three tournaments run in local play (docs/LOCAL_PLAY.md,
# "Tournaments"): about 11 minutes, the arena's 10 real ones included.
gallery-tournaments: $(TEST_STAMP)
	GALLERY_DIR=gallery $(PY) -m pytest -q -p no:cacheprovider -m "slow or not slow" \
		tests/localplay/test_tournaments.py

# Screenshots of the web pages (docs/TESTING.md, "The web pages in a real browser"): each
# page at a desktop's and a phone's width, in English and Arabic, from the scene's database
# (tests/support/web_scene.py), taken by the machine's Chromium: about a minute.
gallery-web: $(TEST_STAMP)
	GALLERY_DIR=gallery $(PY) -m pytest -q -p no:cacheprovider -m "slow or not slow" \
		tests/browser/test_gallery.py

# A correspondence game in a DM with its notifications, on its own database
# (docs/LOCAL_PLAY.md, "Correspondence in a DM"): one to two minutes.
play-correspondence: $(STAMP)
	$(PY) -m localplay --fresh --database data/correspondence.sqlite3 \
		--log data/correspondence-bot.log --script localplay/examples/correspondence-dm.script
	@echo "Its games are kept in data/correspondence.sqlite3; to go on with them:"
	@echo "  $(PY) -m bot local --database data/correspondence.sqlite3"

lint: $(DEV_STAMP) $(TEST_STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache .slow-cpu.log \
		.slow-wait.log
