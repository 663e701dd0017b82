"""The whole rule base over real workloads: the founding question, a golden set, concurrency,
and thousands of random workloads."""

import asyncio
import json
import random
from pathlib import Path

import pytest

from estimator.errors import EstimatorError
from estimator.hardware.catalog import machine
from estimator.models import catalog, lookup
from estimator.workload import Workload
from rules import advise, advise_ml
from rules.engine import RuleEngine, RuleError

GOLDEN = Path(__file__).parent / "golden.json"
RANDOM_WORKLOADS = 10_000


CASES = {
    "7b_full_on_4090": (dict(model="7B", task="training"), dict(gpu="RTX 4090")),
    "7b_lora_on_4090": (
        dict(model="7B", task="training", method="lora", context=1024),
        dict(gpu="RTX 4090"),
    ),
    "7b_qlora_on_4090": (dict(model="7B", task="training", method="qlora"), dict(gpu="RTX 4090")),
    "32b_on_4090": (dict(model="qwen2.5 32b", task="inference"), dict(gpu="RTX 4090")),
    "32b_on_4090_with_ram": (
        dict(model="qwen2.5 32b", task="inference", engine="llama.cpp", precision="q8_0"),
        dict(gpu="RTX 4090", ram_gb=64),
    ),
    "70b_vllm_8_users": (
        dict(model="llama 3.1 70b", task="inference", engine="vllm", concurrency=8),
        dict(gpu="A100 80GB"),
    ),
    "3b_on_cpu": (dict(model="qwen2.5 3b", task="inference"), dict(gpu="cpu", ram_gb=16)),
    "0.5b_on_gpu": (dict(model="qwen2.5 0.5b", task="inference"), dict(gpu="RTX 4090")),
    "8b_on_t4": (dict(model="llama 3.1 8b", task="training", method="qlora"), dict(gpu="T4")),
    "70b_on_m2_ultra": (
        dict(model="llama 3.1 70b", task="inference", precision="q8_0"),
        dict(gpu="M2 Ultra 128GB"),
    ),
    "8b_full_4x_3090": (
        dict(model="llama 3.1 8b", task="training", engine="deepspeed", zero=3),
        dict(gpu="RTX 3090", gpus=4),
    ),
}


def run_case(name):
    wl, hw = CASES[name]
    wl = dict(wl)
    model = wl.pop("model")
    return advise(Workload(model=lookup.require(model).architecture, **wl), machine(**hw))


def summary(advice):
    return {
        "verdict": advice.estimate.verdict,
        "rules": [[r.rule, r.verdict, r.primary] for r in advice.recommendations],
    }


def test_can_i_fine_tune_7b_on_24gb():
    """Full does not fit; LoRA in bf16 fits with checkpointing at modest context; QLoRA fits."""
    full = run_case("7b_full_on_4090")
    assert full.estimate.verdict == "does_not_fit"
    ladder = {r.rule: r for r in full.recommendations}
    assert ladder["train_lora"].primary and ladder["train_lora"].verdict in ("fits", "tight")
    assert ladder["train_qlora"].verdict == "fits"
    lora = run_case("7b_lora_on_4090")
    assert lora.estimate.verdict in ("fits", "tight") and lora.estimate.inputs.grad_checkpointing
    qlora = run_case("7b_qlora_on_4090")
    assert qlora.estimate.verdict == "fits"
    assert qlora.estimate.per_device_bytes < 0.6 * qlora.estimate.devices[0].usable_bytes


def test_golden_rule_base():
    got = {name: summary(run_case(name)) for name in CASES}
    expected = json.loads(GOLDEN.read_text())
    assert got == expected


async def test_200_evaluations_in_parallel_agree():
    names = list(CASES)
    expected = {name: summary(run_case(name)) for name in names}
    jobs = [asyncio.to_thread(run_case, names[i % len(names)]) for i in range(200)]
    results = await asyncio.gather(*jobs)
    for i, advice in enumerate(results):
        assert summary(advice) == expected[names[i % len(names)]]


def test_random_workloads_never_crash_and_repeat_exactly():
    rng = random.Random(20261130)
    models = [m.architecture for m in catalog.models()]
    gpus = [
        "RTX 4090",
        "RTX 3060",
        "A100 80GB",
        "H100",
        "T4",
        "M3 Max 64GB",
        "RTX 4090 Laptop",
        "cpu",
    ]
    seen = 0
    for _ in range(RANDOM_WORKLOADS):
        kw = dict(
            model=rng.choice(models),
            task=rng.choice(["inference", "training"]),
            context=rng.choice([128, 2048, 8192, 32768]),
            concurrency=rng.choice([1, 1, 4, 32]),
        )
        if kw["task"] == "training":
            kw["method"] = rng.choice(["full", "lora", "qlora", "freeze"])
        gpu = rng.choice(gpus)
        hw = machine(
            gpu=gpu,
            ram_gb=rng.choice([16, 64, 256]),
            gpus=1 if gpu in ("cpu",) or "M3" in gpu else rng.choice([1, 2, 8]),
        )
        try:
            first = advise(Workload(**kw), hw)
        except EstimatorError:
            continue
        again = advise(Workload(**kw), hw)
        assert summary(first) == summary(again)
        seen += 1
    assert seen > RANDOM_WORKLOADS // 2


def test_machine_learning_questions():
    assert [
        r.rule for r in advise_ml("classical", rows=1_000_000, features=20).recommendations
    ] == ["classical_ml_cpu"]
    net = advise_ml("neural_net", params=2_000_000, retrain_often=True)
    assert [r.rule for r in net.recommendations] == ["small_net_retrained"]


def test_an_exception_inside_an_action_is_raised_not_swallowed():
    from durable.lang import m, when_all

    def define():
        @when_all(m.t == "boom")
        def explode(c):
            raise ValueError("inside the action")

    broken = RuleEngine("llm_sizer_test_exception", define)
    with pytest.raises(RuleError, match="inside the action"):
        broken.evaluate({"t": "boom"})
    assert broken.evaluate({"t": "other"}) == {"sid": "1", "id": "sid-1", "$s": 1}


def test_a_mixed_set_quotes_the_fullest_cards_room_beside_its_need(arch):
    hw = machine(gpu="RTX 3090 + GTX 1080 Ti")
    advice = advise(Workload(model=arch("Qwen2.5-14B"), task="inference"), hw)
    fullest = max(advice.estimate.devices, key=lambda d: d.components.total)
    assert advice.fact["per_device_bytes"] == fullest.components.total
    assert advice.fact["usable_bytes"] == fullest.usable_bytes
    assert advice.fact["per_device_bytes"] <= advice.fact["usable_bytes"]


def test_a_mixed_set_draws_each_cards_power_and_is_named_as_itself(arch):
    hw = machine(gpu="RTX 4090 + RTX 3090")
    advice = advise(Workload(model=arch("Qwen2.5-14B"), task="inference"), hw)
    # Board power from the catalog: 450 W (4090) + 350 W (3090), not 2 x 450 W.
    assert advice.fact["gpu_watts"] == 800
    assert advice.fact["gpu_set"] == "GeForce RTX 4090 + GeForce RTX 3090"
    rules = [r.rule for r in advice.recommendations]
    assert "no_nvlink_mixed" in rules and "no_nvlink" not in rules


def test_a_gpu_known_by_its_memory_alone_asks_for_the_model_for_a_speed(arch):
    w = Workload(model=arch("Qwen3-30B-A3B"), task="inference")
    unnamed = advise(w, machine(gpu_memory_gb=24, ram_gb=64))
    assert unnamed.fact["gpu_bandwidth_known"] == 0
    assert "speed_needs_gpu_model" in [r.rule for r in unnamed.recommendations]
    named = advise(w, machine(gpu="RTX 3090", ram_gb=64))
    assert "speed_needs_gpu_model" not in [r.rule for r in named.recommendations]
