"""`llm-sizer estimate --json` on the training questions practitioners ask, with numbers derived
by hand: frameworks, several GPUs, alignment, what the figure means, and time from a data set."""

import json

from bot.cli import main

GIB = 2**30


def estimate(capsys, *argv: str) -> dict:
    try:
        code = main(["estimate", *argv, "--json"])
    except SystemExit as exc:
        code = exc.code
    out = capsys.readouterr()
    assert code == 0, out.err
    return json.loads(out.out)


def test_70b_qlora_on_a_48gb_card(capsys):
    base = [
        "--model",
        "llama 3 70b",
        "--task",
        "training",
        "--method",
        "qlora",
        "--gpu",
        "RTX A6000",
    ]
    plain = estimate(capsys, *base)
    unsloth = estimate(capsys, *base, "--engine", "unsloth")
    liger = estimate(capsys, *base, "--liger")
    assert plain["verdict"] == "does_not_fit" and plain["memory"]["per_device_bytes"] > 48 * GIB
    assert unsloth["verdict"] == "fits" and liger["verdict"] in ("fits", "tight")
    assert unsloth["inputs"]["engine"] == "unsloth"


def test_8b_full_fine_tune_on_8_a100s_is_zero3(capsys):
    data = estimate(
        capsys,
        *("--model", "llama 3.1 8b", "--task", "training", "--method", "full"),
        *("--gpu", "A100 80GB SXM4", "--gpus", "8"),
    )
    assert data["verdict"] == "fits" and data["inputs"]["parallelism"] == "zero3"
    params = data["inputs"]["params"]
    device = data["memory"]["devices"][0]["components"]
    # DeepSpeed ZeRO-3: 18 bytes per parameter divided by 8 GPUs.
    states = device["weights"] + device["gradients"] + device["master_weights"]
    states += device["optimizer_states"]
    assert abs(states - 18 * params / 8) < 64
    assert any("NVLink" in s and "DeepSpeed ZeRO-3" in s for s in data["steps"])


def test_ddp_when_asked(capsys):
    data = estimate(
        capsys,
        *("--model", "qwen2.5 0.5b", "--task", "training", "--method", "full"),
        *("--gpu", "RTX 4090", "--gpus", "2", "--distributed", "ddp"),
    )
    assert data["inputs"]["parallelism"] == "ddp"
    device = data["memory"]["devices"][0]["components"]
    assert device["overhead"] == device["gradients"]  # DDP's bucket copy


def test_memory_views_in_the_json(capsys):
    data = estimate(
        capsys, "--model", "qwen2.5 7b", "--task", "training", "--method", "qlora", "--gpu", "4090"
    )
    m = data["memory"]
    assert m["allocated_peak_bytes"] == m["per_device_bytes"]
    assert m["allocated_peak_bytes"] < m["reserved_peak_bytes"] < m["device_total_bytes"]
    assert m["devices"][0]["device_total_bytes"] == m["device_total_bytes"]
    assert any(s.split(". ", 1)[1].startswith("nvidia-smi will show about") for s in data["steps"])


def test_dpo_and_grpo_get_per_gpu_answers(capsys):
    base = ["--model", "qwen2.5 7b", "--task", "training", "--gpu", "H100 SXM5 80GB"]
    dpo = estimate(capsys, *base, "--gpus", "2", "--method", "full", "--objective", "dpo")
    assert dpo["inputs"]["objective"] == "dpo" and len(dpo["memory"]["devices"]) == 2
    assert dpo["memory"]["devices"][0]["components"]["frozen_models"] > 0
    grpo = estimate(
        capsys, *base, "--method", "lora", "--objective", "grpo", "--rollout-engine", "vllm"
    )
    assert grpo["memory"]["devices"][0]["components"]["rollout"] > 0
    assert grpo["verdict"] in ("fits", "tight")


def test_training_time_from_a_data_set(capsys):
    """10,000 examples of 1,000 tokens, 3 epochs: 30M tokens."""
    data = estimate(
        capsys,
        *("--model", "qwen2.5 7b", "--task", "training", "--method", "lora", "--gpu", "H100"),
        *("--examples", "10k", "--example-tokens", "1000", "--epochs", "3"),
    )
    assert data["speed"]["training"]["tokens"] == 30_000_000
    assert any("10,000 examples × 1,000 tokens × 3 epochs" in s for s in data["steps"])
