"""Benchmark: each inverse question in-process, and a cold `estimate` with speed and cost.

Targets: every inverse search under 20 ms; `llm-sizer estimate` with speed and cost
under 0.5 s as a cold CLI call. Prints the figures and writes bench/results/inverse_speed.json.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from dataclasses import replace

from results_file import write

from estimator import inverse
from estimator.hardware.catalog import find_gpu, machine
from estimator.models import catalog
from estimator.workload import Workload

QWEN7 = Workload(model=catalog.find("qwen2.5 7b").architecture, task="inference")
R4090 = machine(gpu="RTX 4090")
QUESTIONS = {
    "max_context": lambda: inverse.max_context(QWEN7, R4090),
    "max_concurrency": lambda: inverse.max_concurrency(
        replace(QWEN7, engine="vllm", context=8192), R4090
    ),
    "best_precision": lambda: inverse.best_precision(
        replace(QWEN7, model=catalog.find("qwen2.5 32b").architecture), R4090
    ),
    "largest_model": lambda: inverse.largest_model(
        replace(QWEN7, task="training", method="qlora"), R4090
    ),
    "smallest_gpu": lambda: inverse.smallest_gpu(replace(QWEN7, task="training", method="lora")),
    "gpus_needed": lambda: inverse.gpus_needed(
        replace(
            QWEN7,
            model=catalog.find("llama 3.1 70b").architecture,
            task="training",
            method="full",
            zero=3,
        ),
        find_gpu("H100"),
    ),
    "cheapest_cloud": lambda: inverse.cheapest_cloud(
        replace(QWEN7, model=catalog.find("qwen2.5 72b").architecture)
    ),
}
CLI = [
    sys.executable,
    "-m",
    "bot.cli",
    "estimate",
    "--model",
    "qwen2.5-7b",
    "--task",
    "inference",
    "--gpu",
    "RTX 4090",
    "--concurrency",
    "8",
    "--json",
]


def main() -> None:
    results: dict[str, dict[str, float]] = {}
    for name, ask in QUESTIONS.items():
        ask()
        samples = []
        for _ in range(20):
            start = time.perf_counter()
            ask()
            samples.append((time.perf_counter() - start) * 1000)
        results[name] = {"p50_ms": statistics.median(samples), "max_ms": max(samples)}
        print(
            f"{name:<16} p50 {results[name]['p50_ms']:6.2f} ms  max {results[name]['max_ms']:6.2f} ms (target < 20 ms)"
        )
    times = []
    for _ in range(5):
        start = time.perf_counter()
        subprocess.run(CLI, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    results["cold_cli_with_speed_and_cost"] = {
        "median_s": statistics.median(times),
        "max_s": max(times),
    }
    print(
        f"cold estimate --json with speed and cost: median {statistics.median(times):.3f} s (target < 0.5 s)"
    )
    out = write("inverse_speed", results)
    print(f"written to {out}")


if __name__ == "__main__":
    main()
