# Two commands on a fresh machine with only Python: `make run` and `make test`.
# Both create .venv and install the project on first use (and again when
# pyproject.toml, setup.py or the C search it builds changes).
#
# `make test` runs the suite on SQLite, then the tests that use a database again on
# PostgreSQL when a server is there: TEST_POSTGRES_URL (or PG_TEST_URL), else the
# private server of `.ci/postgres start` when it answers (see tests/database.py).
# Each pass runs on TEST_WORKERS pytest-xdist workers (2: one a core), then its tests
# marked `realtime` (real processes, a search's time budget) apart from every other
# test: two at a time on two workers, the longest first (tests/conftest.py). A realtime
# test that mostly waits (marked `waits`: a 25-s lock, processes waiting 10 s of their
# 15 for their IDENTIFY turns) runs in a pytest of its own beside them, on PostgreSQL as
# on SQLite. The two passes run one after the other for the same reason.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_WORKERS ?= 2
ALONE := $(BIN)/python -m pytest
PARALLEL := $(ALONE) -n $(TEST_WORKERS)
# The realtime tests but those that wait: two at a time, in the order collected
# (tests/conftest.py puts the longest first; each worker holds the next test or two).
REALTIME := $(ALONE) -n 2 --dist loadgroup
# $(call beside,URL,SELECTION): the realtime tests of SELECTION on the database URL
# (empty: SQLite); those marked `waits` in a pytest of their own, beside the rest (its
# exit status 5, no test selected, is not a failure).
beside = { TEST_DATABASE_URL=$(1) $(ALONE) -p no:cacheprovider -m "$(2) and waits" & \
	waits=$$!; TEST_DATABASE_URL=$(1) $(REALTIME) -m "$(2) and not waits"; rest=$$?; \
	wait $$waits; w=$$?; [ $$rest -eq 0 ] && { [ $$w -eq 0 ] || [ $$w -eq 5 ]; }; }

.PHONY: run test lint bench clean fonts catalogs compile

# The catalogs (docs/translating.md): `make catalogs` extracts every message of bot/texts
# and bot/web into bot/locale/garnet.pot and updates each language's garnet.po from it
# (a changed message turns fuzzy there); `make compile` compiles them to the .mo files
# garnet reads (the install does it too: setup.py). The keywords are garnet's own: _
# (a message), n_ (singular, plural, n) and N_ (marked now, said later through _).
BABEL := $(BIN)/pybabel
LOCALE := bot/locale
KEYWORDS := --no-default-keywords -k _ -k n_:1,2 -k N_

# The catalogs' sources: a changed garnet.po is compiled again (the install compiles them
# all: setup.py).
PO := $(wildcard bot/locale/*/LC_MESSAGES/garnet.po)
MO := $(PO:.po=.mo)

$(STAMP): pyproject.toml setup.py engine/sigma/_native.c engine/cairo/_native.c
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP) $(MO)
	$(BIN)/python -m bot

# Bytecode is written while the suite runs even where the environment says not to
# (PYTHONDONTWRITEBYTECODE): without it every pytest worker rewrote every test module's
# asserts and every process the tests start (bots, render workers, benches) compiled
# garnet anew, about 5 s a pytest run and 1 s a process.
test: export PYTHONDONTWRITEBYTECODE =
test: $(STAMP) $(MO)
	$(BIN)/ruff check engine bot bench tests
	$(BIN)/mypy
	$(BIN)/lint-imports
	@echo "== the suite on SQLite"
	TEST_DATABASE_URL= $(PARALLEL) -m "not realtime"
	$(call beside,,realtime)
	@url="$$($(BIN)/python -m tests.database postgres-url)"; \
	if [ -n "$$url" ]; then \
		echo "== the tests that use a database, on PostgreSQL ($$url)"; \
		TEST_DATABASE_URL="$$url" $(PARALLEL) -m "database and not realtime" && \
		$(call beside,"$$url",database and realtime); \
	else \
		echo "== no PostgreSQL server (set TEST_POSTGRES_URL, or run .ci/postgres start):" \
			"the suite ran on SQLite only"; \
	fi

bench: $(STAMP)
	$(BIN)/python -m engine bench cairo
	$(BIN)/python -m bot bench

# The CJK and colour emoji fonts of the board images (Debian packages), when missing.
fonts:
	bash .ci/fonts

catalogs: $(STAMP)
	$(BABEL) extract -F babel.cfg $(KEYWORDS) -c TRANSLATORS: --sort-by-file --width 100 \
		--project garnet --version 0.1.0 --copyright-holder "garnet's authors" \
		--msgid-bugs-address "https://github.com/garnet/garnet/issues" \
		-o $(LOCALE)/garnet.pot .
	@for po in $(LOCALE)/*/LC_MESSAGES/garnet.po; do \
		[ -f "$$po" ] || continue; \
		lang=$$(basename $$(dirname $$(dirname $$po))); \
		$(BABEL) update -D garnet -l $$lang -i $(LOCALE)/garnet.pot -d $(LOCALE) \
			--width 100 --previous; \
	done

compile: $(STAMP)
	$(BIN)/python setup.py -q compile_catalogs

%.mo: %.po $(STAMP)
	$(BIN)/python setup.py -q compile_catalogs

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache

# The built wheel installed in a clean environment, then a scripted DM with it, outside
# the repository (what CI checks; the Dockerfile installs with the same steps).
.PHONY: package
package:
	.ci/package
