"""Each rule at its boundary, through the real durable-rules engine."""

import json

import pytest

from rules.advice import engine
from rules.ruleset import BY_ID, RULES

# Facts always say which places have a plan that runs (rules/facts.py), none by default.
LLM = {
    "t": "workload",
    "kind": "llm",
    "plan_runs": 0,
    "plan_yours_runs": 0,
    "plan_more_gpus_runs": 0,
    "plan_cloud_runs": 0,
    "plan_faster": 0,
    "rented": 0,
}
_NO_FIT = {"task": "inference", "verdict": "does_not_fit"}


def fired(fact: dict) -> list[str]:
    return engine().evaluate(fact).get("advice", [])


def test_every_rule_has_a_unique_id_and_priority_order():
    assert len(BY_ID) == len(RULES)
    assert [r.priority for r in RULES] == sorted(r.priority for r in RULES)


@pytest.mark.parametrize(
    ("rule", "inside", "outside"),
    [
        ("tight_headroom", {"verdict": "tight"}, {"verdict": "fits"}),
        (
            "plan_yours",
            {**_NO_FIT, "plan_runs": 1, "plan_yours_runs": 1},
            {"task": "inference", "verdict": "fits", "plan_runs": 1, "plan_yours_runs": 1},
        ),
        (
            "plan_faster",
            {"task": "inference", "verdict": "fits", "plan_faster": 1},
            {**_NO_FIT, "plan_faster": 1},
        ),
        (
            "plan_more_gpus",
            {**_NO_FIT, "plan_runs": 1, "plan_more_gpus_runs": 1, "owns": 1, "gpu_count": 2},
            {**_NO_FIT, "plan_runs": 1, "plan_more_gpus_runs": 1, "owns": 1, "gpu_count": 1},
        ),
        (
            "plan_cloud",
            {**_NO_FIT, "plan_runs": 1, "plan_cloud_runs": 1, "cloud_ok": 1},
            {**_NO_FIT, "plan_runs": 1, "plan_cloud_runs": 1, "cloud_ok": 0},
        ),
        # A plan on the user's hardware replaces the ladder's one-change steps.
        (
            "infer_int4",
            {**_NO_FIT, "int4_fits": 1},
            {**_NO_FIT, "int4_fits": 1, "plan_runs": 1, "plan_yours_runs": 1},
        ),
        # A plan anywhere replaces the ladder's "rent" step.
        (
            "infer_cloud",
            {**_NO_FIT, "cloud_fits": 1, "cloud_ok": 1},
            {**_NO_FIT, "cloud_fits": 1, "cloud_ok": 1, "plan_runs": 1, "plan_cloud_runs": 1},
        ),
        (
            "small_llm_cpu",
            {"task": "inference", "params_m": 3500, "concurrency": 2, "cpu_tps_low": 5},
            {"task": "inference", "params_m": 3501, "concurrency": 2, "cpu_tps_low": 5},
        ),
        (
            "small_llm_cpu",
            {"task": "inference", "params_m": 1500, "concurrency": 2, "cpu_tps_low": 5},
            {"task": "inference", "params_m": 1500, "concurrency": 3, "cpu_tps_low": 5},
        ),
        (
            "large_llm_gpu",
            {"task": "inference", "device": "cpu", "params_m": 13001, "concurrency": 1},
            {"task": "inference", "device": "cpu", "params_m": 13000, "concurrency": 1},
        ),
        (
            "large_llm_gpu",
            {"task": "inference", "device": "none", "params_m": 7000, "concurrency": 5},
            {"task": "inference", "device": "gpu", "params_m": 70000, "concurrency": 5},
        ),
        (
            "tiny_llm_gpu_waits",
            {"task": "inference", "params_m": 999, "concurrency": 1, "device": "gpu"},
            {"task": "inference", "params_m": 1000, "concurrency": 1, "device": "gpu"},
        ),
        (
            "llm_training_gpu",
            {"task": "training", "device": "cpu", "params_m": 1000, "cpu_hours_low": 30},
            {"task": "training", "device": "cpu", "params_m": 999, "cpu_hours_low": 30},
        ),
        (
            "llm_training_gpu",
            {"task": "training", "device": "none", "params_m": 8000, "cpu_hours_low": 30},
            {"task": "training", "device": "apple", "params_m": 8000, "cpu_hours_low": 30},
        ),
        (
            "train_lora",
            {"task": "training", "verdict": "does_not_fit", "lora_fits": 1},
            {"task": "training", "verdict": "does_not_fit", "lora_fits": 0},
        ),
        (
            "train_qlora",
            {"task": "training", "verdict": "offload", "qlora_fits": 1},
            {"task": "training", "verdict": "fits", "qlora_fits": 1},
        ),
        (
            "infer_int4",
            {"task": "inference", "verdict": "does_not_fit", "int4_fits": 1},
            {"task": "inference", "verdict": "tight", "int4_fits": 1},
        ),
        (
            "infer_offload_layers",
            {"task": "inference", "verdict": "does_not_fit", "offload_layers_gpu_layers": 0},
            {"task": "inference", "verdict": "does_not_fit"},
        ),
        (
            "infer_apple_limit",
            {"device": "apple", "verdict": "offload", "apple_limit_bytes": 60_000_000_000},
            {"device": "apple", "verdict": "does_not_fit", "apple_limit_bytes": 60_000_000_000},
        ),
        (
            "give_ram",
            {"task": "inference", "device": "gpu", "verdict": "does_not_fit", "ram_known": 0},
            {"task": "inference", "device": "gpu", "verdict": "does_not_fit", "ram_known": 1},
        ),
        (
            "speed_needs_gpu_model",
            {"task": "inference", "device": "gpu", "gpu_bandwidth_known": 0},
            {"task": "inference", "device": "gpu", "gpu_bandwidth_known": 1},
        ),
        ("no_bf16", {"device": "gpu", "gpu_bf16": 0}, {"device": "gpu", "gpu_bf16": 1}),
        (
            "no_flash_attention",
            {"gpu_fa2": "no", "task": "inference", "context": 8193},
            {"gpu_fa2": "no", "task": "inference", "context": 8192},
        ),
        (
            "no_nvlink",
            {"gpu_count": 2, "gpu_nvlink": 0, "gpu_mixed": 0},
            {"gpu_count": 1, "gpu_nvlink": 0, "gpu_mixed": 0},
        ),
        # A 3090 has an NVLink connector, but no bridge joins it to a 4090.
        (
            "no_nvlink_mixed",
            {"gpu_count": 2, "gpu_nvlink": 1, "gpu_mixed": 1},
            {"gpu_count": 2, "gpu_nvlink": 1, "gpu_mixed": 0},
        ),
        (
            "display_gpu",
            {"gpu_display": 1, "verdict": "tight"},
            {"gpu_display": 1, "verdict": "fits"},
        ),
        (
            "apple_working_set",
            {"device": "apple", "per_device_bytes": 8001, "usable_bytes": 10000},
            {"device": "apple", "per_device_bytes": 8000, "usable_bytes": 10000},
        ),
        (
            "apple_working_set",
            {"device": "apple", "per_device_bytes": 10000, "usable_bytes": 10000},
            {"device": "apple", "per_device_bytes": 10001, "usable_bytes": 10000},
        ),
        (
            "cloud_or_buy",
            {"verdict": "fits", "break_even_hours": 400, "owns": 0},
            {"verdict": "does_not_fit", "break_even_hours": 400, "owns": 0},
        ),
        # An owner is not told to buy what they have.
        (
            "cloud_or_buy",
            {"verdict": "fits", "break_even_hours": 400, "owns": 0},
            {"verdict": "fits", "break_even_hours": 400, "owns": 1},
        ),
        (
            "maintenance",
            {"verdict": "fits", "purchase_usd": 1600, "owns": 0},
            {"verdict": "fits", "purchase_usd": 1600, "owns": 1},
        ),
        # One GPU of their own: more GPUs only when they asked about a GPU count.
        (
            "infer_tensor_parallel",
            {**_NO_FIT, "tensor_parallel_fits": 1, "owns": 1, "gpu_count": 1, "asked_gpus": 1},
            {**_NO_FIT, "tensor_parallel_fits": 1, "owns": 1, "gpu_count": 1, "asked_gpus": 0},
        ),
        (
            "infer_tensor_parallel",
            {**_NO_FIT, "tensor_parallel_fits": 1, "owns": 1, "gpu_count": 2, "asked_gpus": 0},
            {**_NO_FIT, "tensor_parallel_fits": 0, "owns": 1, "gpu_count": 2, "asked_gpus": 0},
        ),
        (
            "train_zero3",
            {"task": "training", "verdict": "does_not_fit", "zero3_fits": 1, "owns": 0},
            {
                "task": "training",
                "verdict": "does_not_fit",
                "zero3_fits": 1,
                "owns": 1,
                "gpu_count": 1,
                "asked_gpus": 0,
            },
        ),
        (
            "infer_shorter",
            {**_NO_FIT, "shorter_fits": 1, "shorter_context": 1024},
            {**_NO_FIT, "shorter_fits": 1, "shorter_context": 1023},
        ),
        (
            "infer_cloud",
            {**_NO_FIT, "cloud_fits": 1, "cloud_ok": 1},
            {**_NO_FIT, "cloud_fits": 1, "cloud_ok": 0},
        ),
        ("power_and_cooling", {"gpu_watts": 1441, "gpu_desktop": 1}, {"gpu_watts": 1440}),
        # 8 data-centre boards in a server on a rack's feed, or a rented machine: no wall circuit.
        (
            "power_and_cooling",
            {"gpu_watts": 3600, "gpu_desktop": 1},
            {"gpu_watts": 3600, "gpu_desktop": 0},
        ),
        (
            "power_and_cooling",
            {"gpu_watts": 3600, "gpu_desktop": 1},
            {"gpu_watts": 3600, "gpu_desktop": 1, "rented": 1},
        ),
        # Someone renting the machine is told what renting costs, not to buy or maintain it.
        (
            "cloud_or_buy",
            {"task": "inference", "verdict": "fits", "break_even_hours": 900, "owns": 0},
            {
                "task": "inference",
                "verdict": "fits",
                "break_even_hours": 900,
                "owns": 0,
                "rented": 1,
            },
        ),
        (
            "maintenance",
            {"task": "inference", "verdict": "fits", "purchase_usd": 1599, "owns": 0},
            {"task": "inference", "verdict": "fits", "purchase_usd": 1599, "owns": 0, "rented": 1},
        ),
        # A rented GPU's (a cloud instance's, Colab's) power is on the provider's bill.
        ("electricity", {"power_usd_per_hour": 0.384}, {"power_usd_per_hour": 0.384, "rented": 1}),
        # A smaller model of the line for an owner; one choosing hardware rents or buys instead.
        (
            "smaller_model",
            {**_NO_FIT, "owns": 1, "smaller_model_fits": 1},
            {**_NO_FIT, "owns": 0, "smaller_model_fits": 1},
        ),
        # A fused loss worth a line: 1 GiB and 15% of the GPU, or what makes a run fit.
        (
            "train_fused_loss",
            {
                "task": "training",
                "verdict": "fits",
                "fused_loss_saved_bytes": 1 << 30,
                "fused_loss_saved_pct": 15,
            },
            {
                "task": "training",
                "verdict": "fits",
                "fused_loss_saved_bytes": 1 << 30,
                "fused_loss_saved_pct": 14,
            },
        ),
        (
            "train_fused_loss",
            {
                "task": "training",
                "verdict": "does_not_fit",
                "fused_loss_saved_bytes": 1 << 30,
                "fused_loss_saved_pct": 5,
                "fused_loss_fits": 1,
            },
            {
                "task": "training",
                "verdict": "does_not_fit",
                "fused_loss_saved_bytes": (1 << 30) - 1,
                "fused_loss_saved_pct": 5,
                "fused_loss_fits": 1,
            },
        ),
        (
            "launch",
            {"task": "inference", "engine": "mlx", "launch": 1},
            {"task": "inference", "engine": "mlx", "launch": 0},
        ),
        (
            "launch_peft",
            {"task": "training", "method": "qlora", "engine": "transformers", "verdict": "tight"},
            {"task": "training", "method": "full", "engine": "transformers", "verdict": "tight"},
        ),
    ],
)
def test_rule_at_its_boundary(rule, inside, outside):
    assert rule in fired({**LLM, **inside})
    assert rule not in fired({**LLM, **outside})


@pytest.mark.parametrize(
    ("fact", "rule"),
    [
        (
            {"kind": "classical", "rows": 9_999_999, "features": 10, "data_bytes": 1 << 20},
            "classical_ml_cpu",
        ),
        (
            {"kind": "classical", "rows": 10_000_000, "features": 10, "data_bytes": 1 << 20},
            "classical_ml_large",
        ),
        ({"kind": "neural_net", "params_m": 99.9, "retrain_often": 0}, "small_net_cpu"),
        ({"kind": "neural_net", "params_m": 100, "retrain_often": 0}, "small_net_retrained"),
        ({"kind": "neural_net", "params_m": 1, "retrain_often": 1}, "small_net_retrained"),
    ],
)
def test_machine_learning_guidance(fact, rule):
    assert fired({"t": "workload", **fact}) == [rule]


def test_a_fact_no_rule_matches_leaves_no_advice_and_no_crash():
    for _ in range(100):
        assert fired({"t": "workload", "kind": "nothing"}) == []


@pytest.mark.parametrize(
    ("value", "cleaned"),
    [(0.00005, 0), (3.99, 3.99), (2.0, 2), (1e17, 10**17), (0.1234567, 0.123457)],
)
def test_facts_reach_durable_without_exponent_floats(value, cleaned):
    from rules.engine import clean

    assert clean(value) == cleaned
    assert "e" not in json.dumps(clean({"x": value}))


def test_facts_are_in_real_units():
    fired_fact = engine().evaluate(
        {**LLM, "power_usd_per_hour": 0.00004, "per_device_bytes": 20 << 30}
    )
    assert "electricity" not in fired_fact.get("advice", [])  # 0.004 cents an hour is nothing
    assert "electricity" in fired({**LLM, "power_usd_per_hour": 0.384})
