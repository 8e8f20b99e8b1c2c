# Two commands on a fresh machine with only Python: `make run` and `make test`.
# Both create .venv and install the project on first use (and again when
# pyproject.toml, setup.py or the C search it builds changes).
#
# `make test` runs the suite on SQLite and, at the same time, the tests that use a
# database again on PostgreSQL when a server is there: TEST_POSTGRES_URL (or
# PG_TEST_URL), else the private server of `.ci/postgres start` when it answers (see
# tests/database.py). Each pass runs on two pytest-xdist workers (TEST_WORKERS), so
# both cores stay busy to the end; the PostgreSQL pass's output is shown when it is
# done, and either pass failing fails `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_WORKERS ?= 2
PYTEST := $(BIN)/python -m pytest -n $(TEST_WORKERS)

.PHONY: run test lint bench clean fonts

$(STAMP): pyproject.toml setup.py engine/sigma/_native.c
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/python -m bot

test: $(STAMP)
	$(BIN)/ruff check engine bot bench tests
	$(BIN)/mypy
	$(BIN)/lint-imports
	@url="$$($(BIN)/python -m tests.database postgres-url)"; \
	log="$$(mktemp)"; pg=""; postgres=0; \
	if [ -n "$$url" ]; then \
		TEST_DATABASE_URL="$$url" $(PYTEST) -m database >"$$log" 2>&1 & pg=$$!; \
	fi; \
	echo "== the suite on SQLite"; \
	TEST_DATABASE_URL= $(PYTEST); sqlite=$$?; \
	if [ -n "$$pg" ]; then \
		wait $$pg; postgres=$$?; \
		echo "== the tests that use a database, on PostgreSQL ($$url)"; \
		cat "$$log"; \
	else \
		echo "== no PostgreSQL server (set TEST_POSTGRES_URL, or run .ci/postgres start):" \
			"the suite ran on SQLite only"; \
	fi; \
	rm -f "$$log"; \
	[ $$sqlite -eq 0 ] && [ $$postgres -eq 0 ] || { \
		echo "== FAILED: SQLite pass exit $$sqlite, PostgreSQL pass exit $$postgres"; exit 1; }

bench: $(STAMP)
	$(BIN)/python -m engine bench cairo
	$(BIN)/python -m bot bench

# The CJK and colour emoji fonts of the board images (Debian packages), when missing.
fonts:
	bash .ci/fonts

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
