"""Training memory: states per parameter, LoRA sizes, activations, sharding and offload."""

import pytest

from estimator.estimate import estimate
from estimator.hardware.catalog import machine
from estimator.memory.activations import layer_saved_per_token
from estimator.memory.training import lora_params
from estimator.workload import Workload

GIB = 2**30


def _train(arch, gpu="A100 80GB", gpus=1, **kw):
    return estimate(Workload(model=arch, task="training", **kw), machine(gpu=gpu, gpus=gpus))


def test_full_mixed_precision_adamw_is_16_bytes_per_param(arch):
    a = arch("qwen2.5 7b")
    c = _train(a, method="full").components
    p = a.params
    assert (c.weights, c.gradients, c.master_weights, c.optimizer_states) == (
        2 * p,
        2 * p,
        4 * p,
        8 * p,
    )


def test_fp32_training_has_no_master_copy(arch):
    a = arch("qwen2.5 0.5b")
    c = _train(a, method="full", precision="fp32").components
    p = a.params
    assert (c.weights, c.gradients, c.master_weights, c.optimizer_states) == (
        4 * p,
        4 * p,
        0,
        8 * p,
    )


@pytest.mark.parametrize(
    ("optimizer", "per_param"), [("adamw_8bit", 2), ("sgd", 4), ("paged_adamw", 8)]
)
def test_optimizer_states(arch, optimizer, per_param):
    a = arch("qwen2.5 0.5b")
    assert (
        _train(a, method="full", optimizer=optimizer).components.optimizer_states
        == per_param * a.params
    )


def test_adafactor_keeps_rows_and_columns(arch):
    a = arch("qwen2.5 0.5b")
    states = _train(a, method="full", optimizer="adafactor").components.optimizer_states
    assert 0 < states < 0.01 * 8 * a.params  # far below AdamW's 8 bytes per parameter


def test_lora_rank16_all_linear_on_qwen25_7b(arch):
    a = arch("qwen2.5 7b")
    per_layer = 16 * ((3584 + 3584) * 2 + (3584 + 512) * 2 + (3584 + 18944) * 3)
    assert per_layer == 1_441_792
    assert lora_params(a, 16, "all") == 28 * per_layer == 40_370_176
    assert lora_params(a, 16, "attention") == 28 * 16 * ((3584 + 3584) * 2 + (3584 + 512) * 2)


def test_lora_fp32_adapters_cost_16_bytes_and_bf16_8(arch):
    a = arch("qwen2.5 7b")
    n = 40_370_176
    c = _train(a, method="lora").components
    assert (c.weights, c.adapters, c.gradients, c.optimizer_states) == (
        2 * a.params,
        4 * n,
        4 * n,
        8 * n,
    )
    b = _train(a, method="lora", adapter_precision="bf16").components
    assert (b.adapters, b.gradients, b.optimizer_states) == (2 * n, 2 * n, 4 * n)


def test_qlora_nf4_base_with_fp32_upcast_of_the_rest(arch):
    a = arch("qwen2.5 7b")
    c = _train(a, method="qlora").components
    nf4_linear = c.weights - 4 * (a.embedding_params + a.lm_head_params + a.other_params)
    assert nf4_linear * 8 / a.linear_params == pytest.approx(4.127, abs=0.002)


def test_activations_with_checkpointing_by_hand(arch):
    a = arch("qwen2.5 7b")
    per_token = 28 * 2 * 3584 + 2 * (4 * 3584 + 2 * 3584 + 2 * 512 + 3 * 18944) + 12 * 152_064
    assert layer_saved_per_token(a) == 158_720
    c = _train(a, method="lora", context=2048).components
    assert c.activations == per_token * 2048 == 4_473_225_216


def test_checkpointing_off_keeps_every_layer(arch):
    a = arch("qwen2.5 7b")
    on = _train(a, method="lora", context=1024).components.activations
    off = _train(a, method="lora", context=1024, grad_checkpointing=False).components.activations
    assert off - on == 1024 * (28 * 158_720 - 28 * 7168 - 158_720)


def test_deepspeed_zero2_and_zero3_follow_its_estimators(arch):
    a = arch("qwen2.5 7b")
    p = a.params
    z2 = _train(a, gpus=4, method="full", engine="deepspeed", zero=2).devices[0].components
    assert z2.weights + z2.gradients + z2.master_weights + z2.optimizer_states == pytest.approx(
        2 * p + 18 * p / 4, abs=8
    )
    z3 = _train(a, gpus=4, method="full", engine="deepspeed", zero=3).devices[0].components
    assert z3.weights + z3.gradients + z3.master_weights + z3.optimizer_states == pytest.approx(
        18 * p / 4, abs=8
    )
    assert z3.overhead == 4 * a.embedding_params  # gathering the largest layer


def test_zero_stages_shard_what_the_paper_says(arch):
    a = arch("qwen2.5 7b")
    p = a.params
    per = {
        z: _train(a, gpus=8, method="full", engine="transformers", zero=z).devices[0].components
        for z in (1, 2, 3)
    }
    assert per[1].optimizer_states == 8 * p / 8 and per[1].gradients == 2 * p
    assert per[2].gradients == 2 * p / 8 and per[2].weights == 2 * p
    assert per[3].weights == 2 * p / 8


def test_offload_moves_optimizer_to_ram(arch):
    a = arch("qwen2.5 7b")
    est = _train(a, gpu="RTX 4090", method="full", engine="deepspeed", zero=2, offload=True)
    c = est.components
    assert c.optimizer_states == 0 and c.master_weights == 0 and c.gradients == 0
    assert est.offload is not None and est.offload.ram_bytes == (8 + 4 + 6) * a.params


def test_ddp_without_zero_copies_gradients_into_buckets(arch):
    a = arch("qwen2.5 0.5b")
    d = _train(a, gpus=2, method="full").devices[0].components
    assert d.overhead == d.gradients == 2 * a.params


def test_seven_b_on_24gb(arch):
    """The product's founding question: full does not fit, LoRA and QLoRA do."""
    a = arch("qwen2.5 7b")
    assert _train(a, gpu="RTX 4090", method="full").verdict == "does_not_fit"
    assert _train(a, gpu="RTX 4090", method="lora", context=1024).verdict in ("fits", "tight")
    assert _train(a, gpu="RTX 4090", method="qlora").verdict == "fits"


def test_eager_attention_adds_the_score_matrix(arch):
    a = arch("qwen2.5 7b")
    fa = _train(a, method="lora", context=1024).components.activations
    eager = _train(a, method="lora", context=1024, flash_attention=False).components.activations
    # One recomputed layer keeps 28 heads x 1024 x 1024 probabilities in fp32 and bf16.
    assert eager - fa == 6 * 28 * 1024 * 1024
