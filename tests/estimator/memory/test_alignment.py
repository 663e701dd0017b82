"""Preference optimisation and online RL: the frozen models, sequences per step, rollouts."""

import math

from estimator.estimate import estimate
from estimator.hardware.catalog import machine
from estimator.memory.kv_cache import kv_cache, layout
from estimator.resolve import resolve
from estimator.speed import active_flops_per_token
from estimator.training_time import flops_per_token
from estimator.workload import Workload


def _train(a, gpu="H100 SXM5 80GB", gpus=1, **kw):
    return estimate(Workload(model=a, task="training", **kw), machine(gpu=gpu, gpus=gpus))


def _note(est, key):
    return next(n.params for n in est.steps if n.key == key)


def test_dpo_full_loads_a_bf16_reference_sharded_like_the_policy(arch):
    a = arch("qwen2.5 7b")
    est = _train(a, gpus=8, method="full", objective="dpo")
    assert est.devices[0].components.frozen_models == math.ceil(2 * a.params / 8)
    models = _note(est, "alignment_models")
    assert models["sequences"] == 2  # chosen and rejected in one forward
    assert est.inputs.objective == "dpo" and est.verdict == "fits"


def test_dpo_doubles_the_tokens_of_the_step(arch):
    a = arch("qwen2.5 7b")
    sft = _note(_train(a, method="lora"), "training_loss")
    dpo = _note(_train(a, method="lora", objective="dpo"), "training_loss")
    assert dpo["tokens"] == 2 * sft["tokens"] == 2 * 2048


def test_a_lora_policy_is_its_own_reference(arch):
    a = arch("qwen2.5 7b")
    est = _train(a, gpu="RTX 4090", method="lora", objective="dpo")
    assert est.components.frozen_models == 0
    assert any(n.key == "reference_shared" for n in est.assumptions)


def test_orpo_and_simpo_need_no_reference(arch):
    a = arch("qwen2.5 7b")
    for objective in ("orpo", "simpo"):
        assert _train(a, method="full", objective=objective).components.frozen_models == 0


def test_grpo_defaults_and_generate_kv_cache(arch):
    """TRL GRPOConfig: 8 generations of up to 512 tokens, beta 0 (no reference), generate() on
    the policy; prompts of 512 tokens."""
    a = arch("qwen2.5 7b")
    est = _train(a, method="lora", objective="grpo")
    assert est.inputs.context == 512 + 512
    rollout = _note(est, "generate_rollout")
    lay = layout(a, 2, mla_latent=False, cap_sliding=True)
    assert rollout["sequences"] == 8
    assert rollout["kv"] == kv_cache(lay, context=1024, sequences=8).bytes
    assert rollout["kv"] == 8 * 1024 * 28 * 2 * 512 * 2  # K and V, 4 KV heads x 128, bf16
    assert est.components.frozen_models == 0
    loss = _note(est, "training_loss")
    assert loss["tokens"] == 512  # logits for the completion only (logits_to_keep)


def test_grpo_with_colocated_vllm_takes_its_share(arch):
    a = arch("qwen2.5 7b")
    m = machine(gpu="H100 SXM5 80GB")
    est = estimate(
        Workload(model=a, task="training", method="lora", objective="grpo", rollout_engine="vllm"),
        m,
    )
    assert est.components.rollout == round(0.3 * m.device_bytes)
    small = estimate(
        Workload(
            model=a,
            task="training",
            method="lora",
            objective="grpo",
            rollout_engine="vllm",
            rollout_memory_utilization=0.1,
        ),
        m,
    )
    vllm = _note(small, "vllm_rollout")
    assert vllm["short"] and small.components.rollout == vllm["needs"] > 2 * a.params


def test_ppo_trains_a_value_model_beside_the_policy(arch):
    a = arch("qwen2.5 0.5b")
    est = _train(a, method="full", objective="ppo")
    models = _note(est, "alignment_models")
    assert models["reference"] == models["reward"] == 2 * a.params
    c = est.components
    # Policy and value model, each with 16 bytes per parameter of mixed-precision AdamW states.
    assert c.optimizer_states == 2 * 8 * a.params and c.master_weights == 2 * 4 * a.params


def test_a_frozen_reference_adds_its_forward_to_the_flops(arch):
    a = arch("qwen2.5 7b")
    forward = active_flops_per_token(a)
    sft = resolve(Workload(model=a, task="training", method="full"), None)
    dpo = resolve(Workload(model=a, task="training", method="full", objective="dpo"), None)
    # 2P forward + 4P backward + 2P recomputed (checkpointing), and the reference's 2P forward.
    assert flops_per_token(sft) == 4 * forward
    assert flops_per_token(dpo) == 5 * forward
