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


def test_cheapest_cloud_for_a_training_job_is_the_lowest_total(arch):
    """Qwen2.5-32B QLoRA on 50M tokens. Per token (config.json: hidden 5120, MLP 27648, 64
    layers, 8 KV heads of 128, vocab 152064): the forward is 2 x (64 x (2 x 5120^2 + 2 x 5120 x
    1024 + 3 x 5120 x 27648) + 152064 x 5120) = 63,968,378,880 FLOPs; QLoRA runs it three times
    (forward, activation gradients, checkpoint recompute) plus 6 x the rank-16 adapters
    (64 x 16 x 131,072 = 134,217,728): 192,710,443,008 FLOPs. On a GH200 (989 TFLOPS bf16) at
    25-40% MFU that is 6.77-10.8 hours, 10.1-16.1 USD at 1.49 USD/h; on the cheapest card per
    hour, an RTX A6000 (154.8 TFLOPS, 0.80 USD/h), 43.2-69.2 hours, 34.6-55.3 USD."""
    w = Workload(model=arch("qwen2.5 32b"), task="training", method="qlora")
    tokens = 50_000_000
    per_token = 3 * 63_968_378_880 + 6 * 134_217_728
    assert per_token == 192_710_443_008
    answer = inverse.cheapest_cloud(w, tokens)
    job = {n.key: n.params for n in answer.notes}
    assert answer.value is not None and answer.value.instance == "1x GH200 (gpu_1x_gh200)"
    hours = tokens * per_token / (989e12 * 0.4) / 3600, tokens * per_token / (989e12 * 0.25) / 3600
    assert job["cloud_job"]["hours_low"] == pytest.approx(hours[0])
    assert job["cloud_job"]["hours_high"] == pytest.approx(hours[1])
    assert job["cloud_job"]["usd_low"] == pytest.approx(1.49 * hours[0])
    assert round(hours[0], 2) == 6.77 and round(1.49 * hours[1], 1) == 16.1
    hourly = inverse.cheapest_cloud(w)
    assert hourly.value is not None and hourly.value.instance == "1x RTX A6000 (gpu_1x_a6000)"
    a6000 = tokens * per_token / (154.8e12 * 0.4) / 3600
    assert job["cloud_job_hourly"]["instance"] == hourly.value.instance
    assert job["cloud_job_hourly"]["usd_low"] == pytest.approx(0.80 * a6000)
    assert round(a6000, 1) == 43.2
    # No instance that fits finishes the job for less.
    for option in cloud_options(w, tokens):
        assert option.job_usd is not None
        assert option.job_usd.low >= job["cloud_job"]["usd_low"] - 1e-9


def test_cheapest_cloud_without_training_data_is_the_cheapest_per_hour(arch):
    w = Workload(model=arch("qwen2.5 32b"), task="training", method="qlora")
    answer = inverse.cheapest_cloud(w)
    assert answer.notes == () and answer.value == cloud_options(w, limit=1)[0].instance


def test_the_largest_batch_fits_and_one_more_does_not():
    from dataclasses import replace

    from estimator.estimate import estimate
    from estimator.hardware.catalog import machine
    from estimator.inverse import max_batch
    from estimator.models import lookup
    from estimator.workload import Workload

    hw = machine(gpu="RTX 4090")
    w = Workload(
        model=lookup.require("Qwen2.5-7B").architecture,
        task="training",
        method="lora",
        context=2048,
    )
    found = max_batch(w, hw)
    assert found.value is not None and found.value >= 1
    assert estimate(replace(w, batch=found.value), hw).verdict in ("fits", "tight")
    assert estimate(replace(w, batch=found.value + 1), hw).verdict not in ("fits", "tight")


def test_smallest_ram_is_the_least_usual_amount_that_fits(arch):
    # Llama 3.1 70B in Q4_K_M on a CPU: 40.2 GiB of weights alone, more than the 30 GiB a 32 GB
    # machine leaves after the operating system's 2 GiB; 48 GB leaves 46.
    w = Workload(model=arch("llama 3.1 70b"), task="inference", precision="q4_k_m")
    cpu = machine(gpu="cpu", ram_gb=inverse.RAM_SIZES_GB[-1])
    found = inverse.smallest_ram(w, cpu)
    assert found.value == 48
    assert estimate(w, machine(gpu="cpu", ram_gb=48)).verdict in FITS
    assert estimate(w, machine(gpu="cpu", ram_gb=32)).verdict not in FITS
    # More than any usual amount (64 sequences of 128k tokens of Llama 3.1 405B hold 4 TB of
    # KV cache: 126 layers x 8 KV heads x 128 x 2 x 2 bytes per token): none, not the largest.
    huge = Workload(model=arch("llama 3.1 405b"), task="inference", context=131072, concurrency=64)
    assert inverse.smallest_ram(huge, cpu).value is None
