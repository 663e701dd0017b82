"""Benchmark: one answer including the plan search (report, plans and advice, as `ask` builds
it), in-process, for random questions; and how many plans and estimates one search takes.

Targets: one answer p50 under 15 ms and p99 under 50 ms. Every question starts cold (the
estimate and cloud caches are cleared first): no answer reuses an earlier one's work. Prints the
figures and writes bench/results/plan_speed.json. Run: make bench.
"""

from __future__ import annotations

import random
import statistics
import time

from results_file import write

from bot.sizing import size
from estimator import estimate as estimate_module
from estimator.errors import EstimatorError
from estimator.hardware.catalog import machine
from estimator.inverse import cheapest_cloud
from estimator.models import catalog
from estimator.planner import plans
from estimator.resolve import resolve
from estimator.workload import Workload

HARDWARE = [
    dict(gpu="RTX 4090"),
    dict(gpu="RTX 4090", ram_gb=64),
    dict(gpu="RTX 3060", ram_gb=32),
    dict(gpu="RTX 3090", gpus=2),
    dict(gpu="A100 80GB"),
    dict(gpu="H100", gpus=8),
    dict(gpu="M3 Max 64GB"),
    dict(gpu="cpu", ram_gb=64),
    None,
]


def questions(n: int, seed: int) -> list[tuple[Workload, object]]:
    rng = random.Random(seed)
    models = [m.architecture for m in catalog.models()]
    out = []
    for _ in range(n):
        task = rng.choice(["inference", "inference", "training"])
        hw = rng.choice(HARDWARE)
        out.append(
            (
                Workload(
                    model=rng.choice(models),
                    task=task,
                    context=rng.choice([None, 4096, 8192, 32768]),
                    method=rng.choice([None, "lora", "qlora"]) if task == "training" else None,
                    concurrency=rng.choice([1, 1, 1, 8]) if task == "inference" else 1,
                ),
                machine(**hw) if hw else None,
            )
        )
    return out


def _cold() -> None:
    estimate_module.estimate.cache_clear()
    resolve.cache_clear()
    cheapest_cloud.cache_clear()


def main() -> None:
    answers_ms, plans_ms, counts, estimates = [], [], [], []
    for w, hw in questions(400, 5):
        _cold()
        try:
            start = time.perf_counter()
            size(w, hw)
            answers_ms.append((time.perf_counter() - start) * 1000)
        except EstimatorError:
            continue
        _cold()
        start = time.perf_counter()
        found = plans(w, hw)
        plans_ms.append((time.perf_counter() - start) * 1000)
        counts.append(len(found))
        estimates.append(estimate_module.estimate.cache_info().misses)
    answers_ms.sort()
    plans_ms.sort()

    def p99(xs: list[float]) -> float:
        return xs[int(0.99 * len(xs))]

    result = {
        "questions": len(answers_ms),
        "answer_p50_ms": statistics.median(answers_ms),
        "answer_p99_ms": p99(answers_ms),
        "plan_search_p50_ms": statistics.median(plans_ms),
        "plan_search_p99_ms": p99(plans_ms),
        "plans_per_answer_median": statistics.median(counts),
        "estimates_per_plan_search_median": statistics.median(estimates),
        "estimates_per_plan_search_max": max(estimates),
    }
    print(
        f"one answer with its plan search: p50 {result['answer_p50_ms']:.1f} ms, "
        f"p99 {result['answer_p99_ms']:.1f} ms over {result['questions']} (targets 15 / 50 ms)"
    )
    print(
        f"plan search alone: p50 {result['plan_search_p50_ms']:.1f} ms, "
        f"p99 {result['plan_search_p99_ms']:.1f} ms; plans returned (median) "
        f"{result['plans_per_answer_median']:.0f}; estimates per search median "
        f"{result['estimates_per_plan_search_median']:.0f}, max "
        f"{result['estimates_per_plan_search_max']}"
    )
    print(f"written to {write('plan_speed', result)}")


if __name__ == "__main__":
    main()
