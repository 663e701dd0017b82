"""Benchmark: one estimate in-process, and a cold `llm-sizer estimate --json` process.

Targets: an estimate computes in under 1 ms; the cold CLI call finishes in under 0.5 s.
Prints the figures and writes bench/results/estimate_speed.json. Run: make bench.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time

from results_file import write

from estimator.estimate import estimate
from estimator.hardware.catalog import machine
from estimator.models import catalog
from estimator.workload import Workload

WORKLOADS = [
    ("Qwen2.5-7B", dict(task="inference", context=32_768), "RTX 4090", 1),
    ("Llama-3.1-70B", dict(task="inference", engine="vllm", concurrency=16), "H100", 4),
    ("Qwen2.5-7B", dict(task="training", method="lora"), "RTX 4090", 1),
    ("DeepSeek-V3", dict(task="inference", engine="llama.cpp", context=8192), "A100 80GB", 8),
    (
        "Llama-3.1-8B",
        dict(task="training", method="full", engine="deepspeed", zero=3),
        "A100 80GB",
        8,
    ),
]
CLI = [
    sys.executable,
    "-m",
    "bot.cli",
    "estimate",
    "--model",
    "Qwen/Qwen2.5-7B-Instruct",
    "--task",
    "training",
    "--method",
    "qlora",
    "--gpu",
    "RTX 4090",
    "--json",
]


def per_estimate_ms(rounds: int = 2000) -> dict[str, float]:
    jobs = [
        (Workload(model=catalog.find(m).architecture, **kw), machine(gpu=g, gpus=n))
        for m, kw, g, n in WORKLOADS
    ]
    for w, hw in jobs:  # warm caches
        estimate(w, hw)
    samples = []
    for i in range(rounds):
        w, hw = jobs[i % len(jobs)]
        start = time.perf_counter()
        estimate(w, hw)
        samples.append((time.perf_counter() - start) * 1000)
    samples.sort()
    return {"p50_ms": statistics.median(samples), "p99_ms": samples[int(0.99 * len(samples))]}


def cold_cli_s(runs: int = 5) -> dict[str, float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(CLI, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return {"median_s": statistics.median(times), "max_s": max(times)}


def main() -> None:
    result = {"estimate": per_estimate_ms(), "cold_cli": cold_cli_s()}
    out = write("estimate_speed", result)
    print(
        f"estimate: p50 {result['estimate']['p50_ms']:.3f} ms, p99 {result['estimate']['p99_ms']:.3f} ms (target < 1 ms)"
    )
    print(
        f"cold CLI --json: median {result['cold_cli']['median_s']:.3f} s, max {result['cold_cli']['max_s']:.3f} s (target < 0.5 s)"
    )
    print(f"written to {out}")


if __name__ == "__main__":
    main()
