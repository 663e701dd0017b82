"""Training memory: states per parameter, LoRA sizes, activations, the step's peak, sharding and
offload. Every expected value is derived by hand from the model's shapes."""

import pytest

from estimator.estimate import estimate
from estimator.hardware.catalog import machine
from estimator.memory.activations import layer_saved_per_token
from estimator.memory.training import lora_params
from estimator.workload import Workload

GIB = 2**30
# Qwen2.5-7B: h 3584, 28 layers, q width 3584, kv width 512, MLP 18944, vocabulary 152064.
H, LAYERS, Q, KV, MLP, VOCAB = 3584, 28, 3584, 512, 18944, 152064
ATTENTION = 2 * (2 * Q + 2 * KV)  # q, k, v and the attention output in bf16


def _train(arch, gpu="A100 80GB", gpus=1, **kw):
    return estimate(Workload(model=arch, task="training", **kw), machine(gpu=gpu, gpus=gpus))


def _note(est, key):
    return next(n.params for n in est.steps if n.key == key)


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


def test_pure_bf16_keeps_adamw_moments_in_bf16(arch):
    a = arch("qwen2.5 0.5b")
    c = _train(a, method="full", mixed_precision=False).components
    p = a.params
    assert (c.weights, c.master_weights, c.optimizer_states) == (2 * p, 0, 4 * p)


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


def test_foreach_adamw_step_copies_the_second_moments(arch):
    """torch's foreach AdamW builds sqrt(exp_avg_sq) for every parameter at once: 4 more bytes
    per parameter at the step, on top of 2 + 2 + 4 + 8."""
    a = arch("qwen2.5 0.5b")
    est = _train(a, method="full", optimizer="adamw_foreach")
    assert _note(est, "optimizer_step_temporary")["bytes"] == 4 * a.params
    assert _note(est, "training_peak")["phases"]["step"] == 20 * a.params


def test_lora_rank16_all_linear_on_qwen25_7b(arch):
    a = arch("qwen2.5 7b")
    per_layer = 16 * ((3584 + 3584) * 2 + (3584 + 512) * 2 + (3584 + 18944) * 3)
    assert per_layer == 1_441_792
    assert lora_params(a, 16, "all") == 28 * per_layer == 40_370_176
    assert lora_params(a, 16, "attention") == 28 * 16 * ((3584 + 3584) * 2 + (3584 + 512) * 2)
    assert lora_params(a, 16, "mlp") == 28 * 16 * (3584 + 18944) * 3


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


def test_layer_keeps_by_hand(arch):
    a = arch("qwen2.5 7b")
    # Full fine-tuning, eager: two norms with trained scales (4 + 2 bytes per unit each), the
    # inputs of q/k/v and gate/up (2h each) and of down_proj (2 x MLP), attention, gate, up and
    # SiLU(gate).
    full = 2 * 6 * H + 2 * H + ATTENTION + 2 * H + 2 * MLP + 6 * MLP
    assert layer_saved_per_token(a) == full == 225_280
    # LoRA: frozen norm scales keep only the fp32 upcast.
    lora = 2 * 4 * H + 2 * H + ATTENTION + 2 * H + 2 * MLP + 6 * MLP
    assert layer_saved_per_token(a, norms_trained=False) == lora == 210_944
    attention_only = 2 * 4 * H + 2 * H + ATTENTION + 6 * MLP
    assert layer_saved_per_token(a, mlp_trained=False, norms_trained=False) == attention_only


def test_activations_with_checkpointing_by_hand(arch):
    """The peak is at the loss: every layer's checkpointed input plus transformers' 12-byte
    cross-entropy; the recomputed layer comes after the loss is freed."""
    a = arch("qwen2.5 7b")
    c = _train(a, method="lora", context=2048).components
    assert c.activations == LAYERS * 2 * H * 2048 + 12 * VOCAB * 2048 == 4_148_166_656


def test_checkpointing_off_keeps_every_layer(arch):
    a = arch("qwen2.5 7b")
    on = _train(a, method="lora", context=1024).components.activations
    off = _train(a, method="lora", context=1024, grad_checkpointing=False).components.activations
    assert off - on == 1024 * LAYERS * (210_944 - 2 * H)


def test_eager_attention_adds_the_score_matrix(arch):
    a = arch("qwen2.5 7b")
    kw = {"method": "lora", "context": 1024, "grad_checkpointing": False}
    fa = _train(a, **kw).components.activations
    eager = _train(a, **kw, flash_attention=False).components.activations
    # Every layer keeps 28 heads x 1024 x 1024 probabilities in fp32 and bf16 per token.
    assert eager - fa == LAYERS * 6 * 28 * 1024 * 1024


def test_full_fine_tune_without_accumulation_peaks_once(arch):
    """zero_grad(set_to_none) frees the gradients before the forward: the loss phase holds no
    gradients, the end of the backward holds all of them and no checkpoints."""
    a = arch("qwen2.5 0.5b")
    est = _train(a, method="full", context=1024, grad_accumulation=1)
    phases = _note(est, "training_peak")["phases"]
    states = 14 * a.params  # weights, fp32 masters, AdamW
    kept = a.num_layers * 2 * a.hidden_size * 1024
    assert phases["loss"] == states + kept + 12 * a.vocab_size * 1024
    assert phases["step"] == states + 2 * a.params
    assert est.components.total == max(phases.values())


def test_deepspeed_zero2_and_zero3_follow_its_estimators(arch):
    a = arch("qwen2.5 7b")
    p = a.params
    z2 = _train(a, gpus=4, method="full", engine="deepspeed", zero=2).devices[0].components
    # estimate_zero2_model_states_mem_needs: 4 P + 16 P / N
    assert z2.weights + z2.gradients + z2.master_weights + z2.optimizer_states == pytest.approx(
        4 * p + 16 * p / 4, abs=8
    )
    z3 = _train(a, gpus=4, method="full", engine="deepspeed", zero=3).devices[0].components
    # estimate_zero3_model_states_mem_needs: 18 P / N, plus 4 x the largest layer to gather
    assert z3.weights + z3.gradients + z3.master_weights + z3.optimizer_states == pytest.approx(
        18 * p / 4, abs=8
    )
    assert z3.overhead == round(2 * 0.9 * H * H) + 4 * a.embedding_params


def test_several_gpus_shard_a_full_fine_tune_with_zero3(arch):
    """No DDP replica by default: a full fine-tune on 8 GPUs is ZeRO-3 (18 P / 8 per GPU)."""
    a = arch("llama 3.1 8b")
    est = _train(a, gpus=8, method="full")
    assert est.inputs.parallelism == "zero3"
    c = est.devices[0].components
    assert c.weights + c.master_weights + c.optimizer_states == pytest.approx(
        (2 + 4 + 8) * a.params / 8, abs=8
    )
    assert est.verdict == "fits"
    link = _note(est, "interconnect")
    assert (link["devices"], link["nodes"], link["link"]) == (8, 1, "nvlink")


def test_ddp_only_when_asked_copies_gradients_into_buckets(arch):
    a = arch("qwen2.5 0.5b")
    d = _train(a, gpus=2, method="full", distributed="ddp").devices[0].components
    assert d.overhead == d.gradients == 2 * a.params


def test_offload_moves_optimizer_to_ram(arch):
    a = arch("qwen2.5 7b")
    est = _train(a, gpu="RTX 4090", method="full", engine="deepspeed", zero=2, offload=True)
    c = est.components
    assert c.optimizer_states == 0 and c.master_weights == 0 and c.gradients == 0
    # Adam 8 + fp32 master 4 + fp32 gradient partition 4 + 16-bit gradients 2.
    assert est.offload is not None and est.offload.ram_bytes == 18 * a.params


def test_zero_infinity_puts_the_states_on_nvme(arch):
    a = arch("llama 3.1 8b")
    est = _train(a, gpus=2, method="full", engine="deepspeed", offload=True, offload_device="nvme")
    assert est.offload is not None
    # Everything DeepSpeed keeps at stage 3, 18 bytes per parameter, leaves the GPUs.
    assert est.offload.disk_bytes == pytest.approx(18 * a.params, abs=16)
    per_gpu_partition = a.params / 2
    pinned = 5 * 100_000_000 * 2 + 4 * 4 * 1_000_000_000
    assert per_gpu_partition > 1_000_000_000
    assert est.offload.ram_bytes == 2 * pinned


def test_seven_b_on_24gb(arch):
    """The product's founding question: full does not fit, LoRA and QLoRA do."""
    a = arch("qwen2.5 7b")
    assert _train(a, gpu="RTX 4090", method="full").verdict == "does_not_fit"
    assert _train(a, gpu="RTX 4090", method="lora", context=1024).verdict in ("fits", "tight")
    assert _train(a, gpu="RTX 4090", method="qlora").verdict == "fits"


def test_trl_activation_offloading_moves_the_checkpoints_to_ram(arch):
    """SFTConfig(activation_offloading=True): each layer's checkpointed input (one bf16 hidden
    state, 2 x 4096 bytes per token for Llama-3.1-8B) goes to RAM, 32 layers x 2,048 tokens x
    8,192 B = 512 MiB; the RAM holds activations, no model states."""
    a = arch("llama 3.1 8b")
    est = _train(a, gpu="RTX 4090", method="qlora", activation_offload=True)
    assert est.offload is not None
    assert est.offload.activation_ram_bytes == 32 * 2048 * 2 * 4096 == 512 * 2**20
    assert est.offload.states_ram_bytes == 0
