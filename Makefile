# Two entry points for a newcomer: `make run` and `make test`. Both create (or reuse) .venv.
PYTHON ?= $(shell for p in python3.12 python3.11 python3; do \
	command -v $$p >/dev/null 2>&1 && $$p -c 'import sys; sys.exit(not (3, 11) <= sys.version_info[:2] < (3, 13))' && { echo $$p; break; }; \
	done)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint bench calibrate

$(STAMP): pyproject.toml
	@test -n "$(PYTHON)" || { echo "Python 3.11 or 3.12 is needed (durable-rules does not import on 3.13)"; exit 2; }
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

run: $(STAMP)
	$(BIN)/llm-sizer chat

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/python -m pytest

calibrate: $(STAMP)
	$(BIN)/llm-sizer calibrate

bench: $(STAMP)
	$(BIN)/python bench/estimate_speed.py
	$(BIN)/python bench/inverse_speed.py
	$(BIN)/python bench/advice_speed.py
	$(BIN)/python bench/conversation_speed.py
	$(BIN)/python bench/storage_speed.py
	$(BIN)/python bench/telegram_speed.py
