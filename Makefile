# Two entry points for a newcomer: `make run` and `make test`. Both create (or reuse) .venv.
# The first Python 3.11 or 3.12 on PATH (durable-rules does not import on 3.13); a name that
# is on PATH but cannot run (a pyenv shim of a version not selected) is skipped quietly.
ifndef PYTHON
PYTHON := $(shell for p in python3.12 python3.11 python3; do \
	$$p -c 'import sys; sys.exit(not (3, 11) <= sys.version_info[:2] < (3, 13))' >/dev/null 2>&1 \
	&& { echo $$p; break; }; done)
endif
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
INSTALL_LOG := $(VENV)/install.log

.PHONY: run test lint bench calibrate

# pip's and the build backend's chatter goes to .venv/install.log; it is shown only on failure.
$(STAMP): pyproject.toml
	@test -n "$(PYTHON)" || { echo "Python 3.11 or 3.12 is needed (durable-rules does not import on 3.13); or use docker compose (README)"; exit 2; }
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@echo "Installing llm-sizer and its dependencies into $(VENV) (durable-rules compiles C: a minute the first time)..."
	@{ $(BIN)/python -m pip install --quiet --upgrade pip \
	  && $(BIN)/python -m pip install --quiet -e '.[dev]'; } >$(INSTALL_LOG) 2>&1 \
	  || { tail -n 40 $(INSTALL_LOG); echo "pip install failed; the whole log is $(INSTALL_LOG)"; exit 1; }
	@touch $(STAMP)

run: $(STAMP)
	@$(BIN)/llm-sizer chat

# pytest ends with the reasons tests were skipped, with their counts (tests/skip_summary.py):
# PostgreSQL tests skip unless LLM_SIZER_TEST_POSTGRES_URL is set (.ci/run sets it).
test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/mypy
	$(BIN)/python -m pytest

calibrate: $(STAMP)
	$(BIN)/llm-sizer calibrate

bench: $(STAMP)
	$(BIN)/python bench/estimate_speed.py
	$(BIN)/python bench/inverse_speed.py
	$(BIN)/python bench/advice_speed.py
	$(BIN)/python bench/plan_speed.py
	$(BIN)/python bench/parse_speed.py
	$(BIN)/python bench/conversation_speed.py
	$(BIN)/python bench/storage_speed.py
	$(BIN)/python bench/telegram_speed.py
	$(BIN)/python bench/hub_unreachable.py
