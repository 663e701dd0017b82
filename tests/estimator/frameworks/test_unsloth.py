"""Unsloth: bf16 embeddings under QLoRA, checkpoints offloaded to RAM from 512 tokens, fused
kernels; and the questions it answers that the plain recipe does not."""

from estimator.estimate import estimate
from estimator.hardware.catalog import machine
from estimator.precision import FORMATS, weight_bytes
from estimator.workload import Workload


def _train(a, gpu, **kw):
    return estimate(Workload(model=a, task="training", **kw), machine(gpu=gpu))


def _note(est, key):
    return next(n.params for n in est.steps if n.key == key)


def test_qlora_keeps_embeddings_in_bf16(arch):
    a = arch("llama 3.1 8b")
    est = _train(a, "RTX 4090", method="qlora", engine="unsloth")
    assert est.components.weights == weight_bytes(a, FORMATS["nf4"]).total
    plain = _train(a, "RTX 4090", method="qlora")
    # PEFT's upcast: embeddings, lm_head and norms from 2 to 4 bytes.
    upcast = 2 * (a.embedding_params + a.lm_head_params + a.other_params)
    assert plain.components.weights - est.components.weights == upcast


def test_checkpoints_go_to_ram_from_512_tokens(arch):
    a = arch("llama 3.1 8b")
    long = _note(_train(a, "RTX 4090", method="qlora", engine="unsloth"), "training_activations")
    h, layers, tokens = 4096, 32, 2048
    assert long["offload"] and long["ram_bytes"] == layers * 2 * h * tokens
    assert long["kept"] == 2 * h * tokens  # one checkpoint in flight
    short = _train(a, "RTX 4090", method="qlora", engine="unsloth", context=256)
    assert not _note(short, "training_activations")["offload"]


def test_fused_kernels_keep_less_of_a_layer(arch):
    """Unsloth LoRA layer, frozen norms: two norms' bf16 inputs, the q/k/v input, attention,
    gate and up, and the MLP input (its fast LoRA MLP recomputes the product)."""
    a = arch("llama 3.1 8b")
    h, q, kv, m = 4096, 4096, 1024, 14336
    per_token = 2 * 2 * h + 2 * h + 2 * (2 * q + 2 * kv) + 2 * 2 * m + 2 * h
    got = _note(_train(a, "RTX 4090", method="qlora", engine="unsloth"), "training_activations")
    assert got["layer_per_token"] == per_token


def test_the_first_norm_of_a_recomputed_layer_keeps_the_checkpoint(arch):
    """Plain checkpointing (under 512 tokens): the recomputed layer's first fused norm saves the
    checkpoint it was given, so the recompute is one hidden state less than the layer keeps."""
    a = arch("llama 3.1 8b")
    got = _note(
        _train(a, "RTX 4090", method="qlora", engine="unsloth", context=256), "training_activations"
    )
    assert got["recompute"] == (got["layer_per_token"] - 2 * 4096) * 256
    eager = _note(_train(a, "RTX 4090", method="qlora", context=256), "training_activations")
    assert eager["recompute"] == eager["layer_per_token"] * 256  # an fp32 copy, not the input


def test_unsloth_says_what_it_assumed(arch):
    a = arch("llama 3.1 8b")
    long = _train(a, "RTX 4090", method="qlora", engine="unsloth")
    short = _train(a, "RTX 4090", method="qlora", engine="unsloth", context=256)
    assert "unsloth_offload" in {n.key for n in long.assumptions}
    assert "unsloth_kernels" in {n.key for n in short.assumptions}
    liger = _train(a, "RTX 4090", method="qlora", liger=True)
    assert "liger_kernels" in {n.key for n in liger.assumptions}
    assert "liger_kernels" not in {n.key for n in _train(a, "RTX 4090", method="qlora").assumptions}


def test_70b_qlora_on_one_48gb_card(arch):
    """Unsloth publishes 41 GB for 70B QLoRA; the plain recipe does not fit one 48 GB card."""
    a = arch("llama 3 70b")
    plain = _train(a, "RTX A6000", method="qlora")
    unsloth = _train(a, "RTX A6000", method="qlora", engine="unsloth")
    liger = _train(a, "RTX A6000", method="qlora", liger=True)
    assert plain.verdict == "does_not_fit"
    assert unsloth.verdict == "fits" and liger.verdict in ("fits", "tight")
    assert abs(unsloth.per_device_bytes / 41e9 - 1) < 0.1  # at 2,048 tokens, rank 16
    assert plain.per_device_bytes > 48e9


def test_7b_qlora_at_8k_on_a_4090_fits_with_a_fused_loss(arch):
    """13.9 GiB of unfused logits at 8k tokens: 12 x 152,064 x 8,192 bytes."""
    a = arch("qwen2.5 7b")
    loss = _note(_train(a, "RTX 4090", method="qlora", context=8192), "training_loss")
    assert loss["bytes"] == 12 * 152_064 * 8192
    assert _train(a, "RTX 4090", method="qlora", context=8192).verdict == "does_not_fit"
    for kw in ({"engine": "unsloth"}, {"liger": True}):
        assert _train(a, "RTX 4090", method="qlora", context=8192, **kw).verdict == "fits"


def test_without_a_method_unsloth_trains_qlora_as_its_notebooks(arch):
    """Unsloth's notebooks (SFT and GRPO) load the base with load_in_4bit=True and add LoRA
    adapters; the general default stays full fine-tuning."""
    a = arch("qwen2.5 3b")
    est = _train(a, "RTX 3060", engine="unsloth", objective="grpo")
    assert est.inputs.method == "qlora" and est.inputs.precision == "nf4"
    said = next(n.params for n in est.assumptions if n.key == "framework_qlora")
    assert said["framework"] == "Unsloth" and "load_in_4bit=True" in said["source"]
    assert "default_method" not in {n.key for n in est.assumptions}
    plain = _train(a, "RTX 3060")
    assert plain.inputs.method == "full"
    assert "default_method" in {n.key for n in plain.assumptions}
    assert _train(a, "RTX 3060", engine="unsloth", method="full").inputs.method == "full"


def test_the_default_method_reads_the_framework_by_any_of_its_names():
    from estimator.frameworks import default_method

    assert default_method("unsloth") == default_method("unsloth ai") == "qlora"
    assert default_method("transformers") == default_method(None) == "full"
