"""Benchmark: advice for one workload (alternatives included), and memory over 100,000 rule
evaluations.

Targets: p50 under 5 ms and p99 under 20 ms per workload; under 5 MB of memory growth
over 100,000 evaluations. Prints the figures and writes bench/results/advice_speed.json.
"""

from __future__ import annotations

import random
import resource
import statistics
import time

from results_file import write

from estimator.errors import EstimatorError
from estimator.estimate import estimate
from estimator.hardware.catalog import machine
from estimator.inverse import cheapest_cloud
from estimator.models import catalog
from estimator.workload import Workload
from rules import advise
from rules.advice import engine
from rules.facts import llm_facts

GPUS = ["RTX 4090", "RTX 3060", "A100 80GB", "H100", "T4", "M3 Max 64GB", "RTX 4090 Laptop"]


def workloads(n: int, seed: int) -> list[tuple[Workload, object]]:
    rng = random.Random(seed)
    models = [m.architecture for m in catalog.models()]
    out = []
    for _ in range(n):
        task = rng.choice(["inference", "training"])
        out.append(
            (
                Workload(
                    model=rng.choice(models),
                    task=task,
                    context=rng.choice([1024, 4096, 8192, 32768]),
                    method=rng.choice(["full", "lora", "qlora"]) if task == "training" else None,
                    concurrency=rng.choice([1, 1, 4, 16]) if task == "inference" else 1,
                ),
                machine(gpu=rng.choice(GPUS), ram_gb=64),
            )
        )
    return out


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    engine()
    samples = []
    for w, hw in workloads(600, 7):
        estimate.cache_clear()  # each question is new: no answer from an earlier one
        cheapest_cloud.cache_clear()
        start = time.perf_counter()
        try:
            advise(w, hw)
        except EstimatorError:
            continue
        samples.append((time.perf_counter() - start) * 1000)
    samples.sort()
    p50, p99 = statistics.median(samples), samples[int(0.99 * len(samples))]
    print(
        f"advice per workload: p50 {p50:.2f} ms, p99 {p99:.2f} ms over {len(samples)} (targets 5 / 20 ms)"
    )

    facts = []
    for w, hw in workloads(200, 11):
        try:
            facts.append(llm_facts(w, hw).fact)
        except EstimatorError:
            continue
    rules = engine()
    for fact in facts * 5:
        rules.evaluate(fact)
    before = rss_mb()
    start = time.perf_counter()
    for i in range(100_000):
        rules.evaluate(facts[i % len(facts)])
    seconds = time.perf_counter() - start
    growth = rss_mb() - before
    print(
        f"100,000 rule evaluations: {seconds:.1f} s, {1e6 * seconds / 100_000:.0f} us each; "
        f"peak RSS grew {growth:.2f} MB (target < 5 MB)"
    )
    result = {
        "advice_p50_ms": p50,
        "advice_p99_ms": p99,
        "evaluations": 100_000,
        "evaluation_us": 1e6 * seconds / 100_000,
        "rss_growth_mb": growth,
    }
    out = write("advice_speed", result)
    print(f"written to {out}")


if __name__ == "__main__":
    main()
