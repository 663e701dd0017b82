"""Benchmark: reading one message (bot.conversation.parse.read: numbers, hardware, model, task,
training settings, amounts, acts, comparisons), which runs on the event loop for every message.

Target: every message under 100 ms (what one message may hold the event loop), p50 under 5 ms.
Messages: the phrasing tables of tests/bot/conversation, and adversarial ones: 2,000 random
characters, 300 connectors ("4090 or 4090 or ..."), a 400-digit number, runs of 2,000 digits
alone and with separators (a name-like run once backtracked for 18 s), a long mixed question
repeated. Prints the figures and writes bench/results/parse_speed.json.
"""

from __future__ import annotations

import json
import random
import statistics
import string
import time

from phrasings import messages
from results_file import write

from bot.conversation.parse import read

ROUNDS = 3
RANDOM_TEXTS = 50


def adversarial() -> list[str]:
    rng = random.Random(12)
    alphabet = string.ascii_lowercase + " 0123456789"
    texts = ["".join(rng.choice(alphabet) for _ in range(2000)) for _ in range(RANDOM_TEXTS)]
    texts += [
        " or ".join(["4090"] * 300),
        "mistral 7b with 1" + "0" * 400 + " tokens of context",
        " of ".join(["llama 3.1 8b on a 4090 met zero-3"] * 60),
        "a " * 900 + " or b or c or d or e " * 100,
        "9" * 2000,
        "9_" * 1000,
        "9b-" * 600,
    ]
    return texts


def timed(texts: list[str]) -> list[float]:
    samples = []
    for _ in range(ROUNDS):
        for text in texts:
            start = time.perf_counter()
            read(text)
            samples.append((time.perf_counter() - start) * 1000)
    return sorted(samples)


def main() -> None:
    read("warm up: llama 3.1 8b on a 4090")
    ordinary, hostile = timed(messages()), timed(adversarial())
    result = {
        "messages": len(ordinary) // ROUNDS,
        "p50_ms": round(statistics.median(ordinary), 2),
        "p99_ms": round(ordinary[int(len(ordinary) * 0.99)], 2),
        "max_ms": round(ordinary[-1], 2),
        "adversarial_messages": len(hostile) // ROUNDS,
        "adversarial_p50_ms": round(statistics.median(hostile), 2),
        "adversarial_max_ms": round(hostile[-1], 2),
        "targets": {"p50_ms": 5, "max_ms": 100},
    }
    print(json.dumps(result, indent=2))
    write("parse_speed", result)


if __name__ == "__main__":
    main()
