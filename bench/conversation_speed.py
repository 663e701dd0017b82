"""Benchmark: one message through parse + dialogue + estimate + rules + text rendering, in
process; and `llm-sizer ask ... --json` from a cold start.

Targets: p50 under 10 ms and p99 under 30 ms per message; the cold `ask` under 0.8 s.
Messages are the phrasing tables of tests/bot/conversation (144 questions, English and Dutch),
each answered with the estimator's caches cleared, so no answer comes from an earlier one.
Prints the figures and writes bench/results/conversation_speed.json.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

from phrasings import messages
from results_file import write

from bot.conversation import compose
from bot.conversation.answer import answer
from bot.conversation.dialogue import State, step
from bot.conversation.parse import read
from bot.conversation.refine import refinements
from estimator.errors import EstimatorError
from estimator.estimate import estimate
from estimator.inverse import cheapest_cloud
from rules.advice import engine

ROUNDS = 5
COLD_RUNS = 7


def one(text: str) -> None:
    msg = read(text)
    turn = step(State(), msg, text)
    lang = msg.draft.language or "en"
    if turn.act is not None:
        if turn.act != "own_hardware":  # the service saves a machine described instead
            compose.info(turn.act, lang)
        return
    if turn.missing:
        compose.question(turn, lang)
        return
    try:
        outcome = answer(turn.state.draft)
    except EstimatorError:
        return
    found = (
        refinements(turn.state.draft, outcome.workload.estimate.per_device_bytes)
        if outcome.workload
        else []
    )
    compose.answered(outcome, found, lang)


def in_process() -> list[float]:
    engine()
    texts = messages()
    for text in texts:  # imports and catalogs loaded once, as in a running bot
        one(text)
    samples = []
    for _ in range(ROUNDS):
        for text in texts:
            estimate.cache_clear()
            cheapest_cloud.cache_clear()
            start = time.perf_counter()
            one(text)
            samples.append((time.perf_counter() - start) * 1000)
    return samples


def cold_ask() -> tuple[float, list[float]]:
    """Seconds for the first `ask` (creates and migrates the database) and the following ones."""
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "DATABASE_URL": f"sqlite+aiosqlite:///{tmp}/bench.db"}
        times = []
        for _ in range(COLD_RUNS + 1):
            start = time.perf_counter()
            subprocess.run(
                [sys.executable, "-m", "bot.cli", "ask", "can I fine-tune 7B on 24GB?", "--json"],
                env=env,
                check=True,
                capture_output=True,
            )
            times.append(time.perf_counter() - start)
    return times[0], times[1:]


def main() -> None:
    samples = sorted(in_process())
    first, cold = cold_ask()
    result = {
        "messages": len(samples),
        "p50_ms": round(statistics.median(samples), 2),
        "p99_ms": round(samples[int(len(samples) * 0.99)], 2),
        "max_ms": round(samples[-1], 2),
        "ask_cold_first_run_s": round(first, 3),
        "ask_cold_median_s": round(statistics.median(cold), 3),
        "ask_cold_max_s": round(max(cold), 3),
        "targets": {"p50_ms": 10, "p99_ms": 30, "ask_cold_s": 0.8},
    }
    print(json.dumps(result, indent=2))
    write("conversation_speed", result)


if __name__ == "__main__":
    main()
