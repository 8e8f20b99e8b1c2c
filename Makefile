# Two commands on a fresh machine with only Python: `make run` and `make test`.
# Both create .venv and install the project on first use (and again when
# pyproject.toml changes).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint bench clean fonts

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/python -m bot

test: $(STAMP)
	$(BIN)/ruff check engine bot tests migrations
	$(BIN)/mypy
	$(BIN)/lint-imports
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python -m engine bench cairo
	$(BIN)/python -m bot bench

# The CJK and colour emoji fonts of the board images (Debian packages), when missing.
fonts:
	bash .ci/fonts

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
