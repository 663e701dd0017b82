"""The inverse questions round-trip: what they find fits, one unit more does not."""

from dataclasses import replace

import pytest

from estimator import inverse
from estimator.cost import cloud_options
from estimator.estimate import estimate
from estimator.hardware.catalog import find_gpu, machine
from estimator.workload import Workload

FITS = ("fits", "tight")


@pytest.mark.parametrize("engine", ["transformers", "vllm", "llama.cpp"])
def test_max_context_round_trips(arch, engine):
    w = Workload(
        model=arch("qwen2.5 7b"),
        task="inference",
        engine=engine,
        precision="q4_k_m" if engine == "llama.cpp" else None,
    )
    hw = machine(gpu="RTX 4090")
    answer = inverse.max_context(w, hw)
    unit = {"vllm": 16, "llama.cpp": 256}.get(engine, 1)
    assert answer.value % unit == 0
    assert estimate(replace(w, context=answer.value), hw).verdict in FITS
    if answer.value + unit <= w.model.max_context:
        assert estimate(replace(w, context=answer.value + unit), hw).verdict not in FITS


def test_max_concurrency_round_trips(arch):
    w = Workload(model=arch("qwen2.5 7b"), task="inference", engine="vllm", context=8192)
    hw = machine(gpu="RTX 4090")
    n = inverse.max_concurrency(w, hw).value
    assert estimate(replace(w, concurrency=n), hw).verdict in FITS
    assert estimate(replace(w, concurrency=n + 1), hw).verdict not in FITS


def test_best_precision_is_the_widest_that_fits(arch):
    w = Workload(model=arch("qwen2.5 32b"), task="inference")
    hw = machine(gpu="RTX 4090")
    answer = inverse.best_precision(w, hw)
    assert answer.value == "nf4"
    assert estimate(replace(w, precision="int8"), hw).verdict not in FITS
    assert inverse.best_precision(replace(w, model=arch("qwen2.5 7b")), hw).value == "bf16"


def test_largest_model_fits_and_every_larger_one_does_not(arch):
    from estimator.models import catalog

    w = Workload(model=arch("qwen2.5 7b"), task="training", method="qlora")
    hw = machine(gpu="RTX 4090")
    answer = inverse.largest_model(w, hw)
    best = catalog.find(answer.value).architecture
    for m in catalog.models():
        if m.architecture.params > best.params:
            try:
                verdict = estimate(replace(w, model=m.architecture), hw).verdict
            except Exception:
                continue
            assert verdict not in FITS, m.name


def test_smallest_gpu_and_gpus_needed(arch):
    w = Workload(model=arch("llama 3.1 70b"), task="inference", engine="vllm", precision="awq")
    gpu = inverse.smallest_gpu(w)
    assert gpu.value is not None and find_gpu(gpu.value).memory_gib >= 40
    needed = inverse.gpus_needed(replace(w, precision="bf16"), find_gpu("A100 80GB"))
    assert needed.value == 2
    assert estimate(replace(w, precision="bf16"), machine(gpu="A100 80GB")).verdict not in FITS


def test_cheapest_cloud_is_the_first_fitting_option(arch):
    w = Workload(model=arch("qwen2.5 72b"), task="inference")
    answer = inverse.cheapest_cloud(w)
    options = cloud_options(w)
    assert options and answer.value == options[0].instance
    assert [o.usd_per_hour for o in options] == sorted(o.usd_per_hour for o in options)


def test_nothing_fits_gives_none(arch):
    w = Workload(model=arch("DeepSeek-V3"), task="training", method="full")
    assert inverse.max_context(w, machine(gpu="RTX 3060")).value is None
