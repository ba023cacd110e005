# The two commands: `make run` and `make test`, and `make serve` as in production. Everything else supports them.
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
SERVERS ?= 1

.PHONY: run serve test lint typecheck pytest bench load clean messages

run: $(VENV)/.runtime messages
	DEBUG=1 $(BIN)/python manage.py migrate --noinput
	DEBUG=1 $(BIN)/python manage.py createcachetable
	DEBUG=1 $(BIN)/python manage.py demo
	@echo "Serving on http://$(HOST):$(PORT)/ (Ctrl-C stops)"
	DEBUG=1 $(BIN)/python manage.py runserver $(HOST):$(PORT)

# As in production: gunicorn behind nginx, in the foreground (deploy/serve.py migrates, makes the cache
# table and collects the static files first). Ctrl-C stops both. SERVERS=2: two app servers behind nginx,
# sharing the database and, with REDIS_URL, Redis.
serve: $(VENV)/.runtime messages
	$(BIN)/python deploy/serve.py --host $(HOST) --port $(PORT) --servers $(SERVERS)

test: $(VENV)/.dev lint typecheck pytest

lint: $(VENV)/.dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/djlint --check templates scoring
	$(BIN)/djlint --lint templates scoring

typecheck: $(VENV)/.dev
	$(BIN)/mypy --strict rules
	$(BIN)/mypy --strict scoring okanagan_site deploy support

pytest: $(VENV)/.dev node_modules/.package-lock.json messages
	$(BIN)/pytest -q

bench: $(VENV)/.dev
	$(BIN)/python bench/score_record.py
	$(BIN)/python bench/newcomer.py
	$(BIN)/python bench/page_weight.py
	$(BIN)/python bench/live_bytes.py
	$(BIN)/python bench/limits.py
	$(BIN)/python bench/game_length.py --events 1 10 60 200
	$(BIN)/python bench/tap_cost.py
	$(BIN)/python bench/shared_parts.py
	$(BIN)/python bench/history.py
	@# The robot plays each record through the UI on a phone.
	for record in tests/data/okanagan-*.json; do case $$record in *.expected.json) ;; *) \
		$(BIN)/python bench/play_record.py --totals $$record || exit 1;; esac; done

# The knee, at most about 8 minutes a setup (bench/load.py): the site as `make serve` runs it (needs nginx), 40 to
# 800 phones (tables of 4 phones on games of 30 events, each phone polling every 1.5 s as the pages do; one
# territory per table every 20 s, entered tap by tap: 6-16 taps, Save, the game page), each step 14 s of warm-up
# and 20 s measured, to the first step that misses the targets; then the trivial view against an unchanged poll.
# On SQLite, then PostgreSQL, then PostgreSQL and Redis (production) with one app server and with two, ahead of
# the machine's other processes where that is permitted (--nice). Last, production with push (--push: the phones
# hold their game's stream and poll when a change is pushed), with one app server and with two.
load: $(VENV)/.dev
	$(BIN)/python bench/load.py --nice -10
	$(BIN)/python bench/load.py --nice -10 --postgres
	$(BIN)/python bench/load.py --nice -10 --postgres --redis
	$(BIN)/python bench/load.py --nice -10 --postgres --redis --servers 2
	$(BIN)/python bench/load.py --nice -10 --postgres --redis --push
	$(BIN)/python bench/load.py --nice -10 --postgres --redis --push --servers 2

# The translations: .po files are the source, compiled to .mo (needs gettext's msgfmt).
messages: $(VENV)/.runtime
	DEBUG=1 $(BIN)/python manage.py compilemessages --ignore .venv --verbosity 0

$(VENV)/bin/python:
	"$$(scripts/find-python)" -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.runtime: requirements.txt $(VENV)/bin/python
	$(BIN)/pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.dev: requirements.txt requirements-dev.txt $(VENV)/.runtime
	$(BIN)/pip install --quiet -r requirements-dev.txt
	touch $@

# Test tools from npm (axe-core for the accessibility test), exactly as package-lock.json pins them.
node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

clean:
	rm -rf $(VENV) node_modules staticfiles run .mypy_cache .ruff_cache .hypothesis
