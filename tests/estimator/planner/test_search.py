"""Plans for real questions: what a practitioner would run, with numbers derived by hand."""

import math
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from estimator import engines
from estimator.estimate import estimate
from estimator.hardware.catalog import machine
from estimator.memory import constants as k
from estimator.memory.training import lora_params
from estimator.models import catalog
from estimator.planner import CLOUD, MORE_GPUS, YOURS, plans
from estimator.precision import FORMATS, GGUF_BPW, KV_BYTES, weight_bytes
from estimator.workload import Workload

GIB = 1 << 30


def test_70b_on_two_3090s_at_32k_runs_q4_k_m_with_an_8_bit_kv_cache(arch):
    a = arch("Llama-3.1-70B")
    hw = machine(gpu="RTX 3090", gpus=2)
    best = plans(Workload(model=a, task="inference", context=32_768), hw)[0]
    assert (best.engine, best.precision, best.kv_precision) == ("llama.cpp", "q4_k_m", "q8_0")
    assert best.hardware == YOURS and best.gpus == 2 and best.parallelism == "layers"
    assert best.verdict in ("fits", "tight")
    # By hand: Q4_K_M weights without the input embeddings (kept in RAM), plus a q8_0 KV cache
    # of 32,768 tokens x 80 layers x 2 x 8 KV heads x 128 dims x 34/32 bytes, split over two
    # cards, plus each card's compute buffer (512 fp32 logits rows + the 512 x 32,768 mask).
    weights = (a.params - a.embedding_params) * GGUF_BPW["q4_k_m"] / 8
    kv = 32_768 * 80 * 2 * 8 * 128 * KV_BYTES["q8_0"]
    compute = 4 * a.vocab_size * 512 + 32_768 * 512
    per_card = (weights + kv) / 2 + compute
    assert best.per_device_bytes == pytest.approx(per_card, rel=0.03)
    assert best.per_device_bytes < 24 * GIB - k.CUDA_CONTEXT_BYTES
    assert "--cache-type-k q8_0" in best.command and "-c 32768" in best.command
    assert best.decode is not None and best.context_max >= 32_768


def test_deepseek_r1_on_a_24_gb_gpu_with_256_gb_ram_keeps_experts_in_ram(arch):
    hw = machine(gpu="RTX 4090", ram_gb=256)
    best = plans(Workload(model=arch("DeepSeek-R1"), task="inference"), hw)[0]
    assert best.hardware == YOURS and best.engine == "llama.cpp"
    assert best.verdict == "offload" and best.offload.what == "experts"
    # 671B parameters at 3.16 bits (Q2_K) are 265 GB: RAM takes the experts of most layers.
    assert best.offload.ram_bytes <= 256 * GIB - k.OS_RESERVE_BYTES
    assert best.per_device_bytes <= 24 * GIB
    assert f"--n-cpu-moe {best.offload.expert_layers}" in best.command
    assert best.low_bits  # below 4 bits: flagged
    assert best.decode is not None and best.decode.high < 20


def test_70b_on_a_5090_gets_a_low_bit_plan_that_fits_flagged(arch):
    best = plans(Workload(model=arch("Llama-3.1-70B"), task="inference"), machine(gpu="RTX 5090"))[
        0
    ]
    assert best.verdict in ("fits", "tight") and best.low_bits
    # Q2_K alone is 70.6B x 3.16 / 8 = 27.9 GB: it and anything of 3-3.5 bits fit in 32 GB.
    assert best.per_device_bytes < 32 * GIB


def test_qwen_7b_on_a_4090_runs_in_16_bit(arch):
    found = plans(Workload(model=arch("Qwen2.5-7B"), task="inference"), machine(gpu="RTX 4090"))
    assert found[0].quality_bits == 16 and found[0].verdict == "fits"
    assert {p.engine for p in found} >= {"vllm", "llama.cpp", "transformers"}
    vllm = next(p for p in found if p.engine == "vllm")
    assert vllm.command.startswith("vllm serve Qwen/Qwen2.5-7B ")


def test_without_hardware_the_cheapest_rented_plan_says_its_price(arch):
    found = plans(Workload(model=arch("Qwen2.5-72B"), task="inference"), None)
    rented = [p for p in found if p.hardware == CLOUD]
    assert rented and all(p.usd_per_hour for p in rented)
    awq = next(p for p in rented if p.precision == "awq")
    bf16 = next(p for p in rented if p.precision == "bf16")
    assert awq.usd_per_hour < bf16.usd_per_hour


def test_a_named_format_or_method_is_rented_first_and_the_cheaper_change_follows(arch):
    # Llama 3.1 70B in FP16 holds 131 GiB of weights: no single rented card; AWQ on one is
    # cheaper, but the question named FP16.
    found = plans(Workload(model=arch("llama 3.1 70b"), task="inference", precision="fp16"), None)
    rented = [p for p in found if p.hardware == CLOUD]
    assert rented[0].precision == "fp16" and not rented[0].leaves_named
    assert any(p.precision == "awq" and p.leaves_named for p in rented)
    # A full fine-tune named: the full plan first, QLoRA after it.
    w = Workload(model=arch("qwen2.5 7b"), task="training", method="full")
    rented = [p for p in plans(w, None) if p.hardware == CLOUD]
    assert rented[0].method == "full"
    assert any(p.method == "qlora" for p in rented[1:])
    # Nothing named: the cheapest rental leads, whatever it changes.
    w = Workload(model=arch("llama 3.1 70b"), task="inference")
    rented = [p for p in plans(w, None) if p.hardware == CLOUD]
    assert rented[0].usd_per_hour == min(p.usd_per_hour for p in rented)


def test_full_fine_tuning_on_eight_gpus_is_sharded(arch):
    w = Workload(model=arch("Llama-3.1-8B"), task="training", method="full")
    found = plans(w, machine(gpu="A100 80GB", gpus=8))
    full = [p for p in found if p.method == "full" and p.runs]
    assert full and full[0].parallelism in ("zero2", "zero3", "fsdp")
    assert "stage" in full[0].command or "tune run" in full[0].command


def test_a_mac_is_planned_with_mlx_or_llama_cpp(arch):
    found = plans(Workload(model=arch("Qwen2.5-32B"), task="inference"), machine(gpu="M3 Max 64GB"))
    assert found[0].engine in ("mlx", "llama.cpp") and found[0].parallelism == "unified"
    assert any(p.command.startswith("mlx_lm.") for p in found)


MODELS = [m.architecture for m in catalog.models() if m.architecture.params < 80e9]
HARDWARE = [
    dict(gpu="RTX 3060", ram_gb=32),
    dict(gpu="RTX 4090"),
    dict(gpu="RTX 3090", gpus=2),
    dict(gpu="A100 80GB", gpus=4),
    dict(gpu="M2 Max 32GB"),
    dict(gpu="cpu", ram_gb=32),
]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    model=st.sampled_from(MODELS),
    hardware=st.sampled_from(HARDWARE),
    task=st.sampled_from(["inference", "training"]),
    context=st.sampled_from([None, 2048, 16_384]),
)
def test_the_first_plan_never_needs_more_gpus_than_the_user_has(model, hardware, task, context):
    hw = machine(**hardware)
    w = Workload(model=model, task=task, context=context)
    try:
        estimate(w, hw)
    except Exception:
        return
    found = plans(w, hw)
    assert found
    first = found[0]
    assert first.hardware != MORE_GPUS
    if first.hardware == YOURS and hw.kind == "gpu":
        assert first.gpus <= hw.count
    # Every plan's command is the runnable form of its own estimate.
    for p in found:
        if p.workload.task == "inference":
            assert p.command == engines.command(p.estimate)


def test_a_qlora_plan_on_one_small_card_is_unsloth_and_its_snippet_keeps_the_question(arch):
    # Llama-3.1-8B QLoRA on an 8 GB 3060 with PEFT holds its embeddings and head in fp32
    # (2 x 525M x 4 bytes = 3.9 GiB) beside the 4-bit body: over 7 GiB usable; Unsloth keeps them
    # in bf16 and its checkpoints in RAM.
    a = arch("Llama-3.1-8B")
    hw = machine(gpu="RTX 3060 8GB")
    best = plans(Workload(model=a, task="training", method="qlora"), hw)[0]
    assert (best.engine, best.method, best.verdict) == ("unsloth", "qlora", "fits")
    assert 'use_gradient_checkpointing="unsloth"' in best.command
    # Checkpointing off as asked stays off in the snippet, unless the plan turned it back on
    # to fit, which it says.
    off = plans(Workload(model=a, task="training", method="qlora", grad_checkpointing=False), hw)
    unsloth = [p for p in off if p.engine == "unsloth"]
    assert unsloth
    for p in unsloth:
        on = "checkpointing" in p.changes
        said = 'use_gradient_checkpointing="unsloth"' if on else "use_gradient_checkpointing=False"
        assert said in p.command


def test_a_question_about_qlora_is_never_planned_as_a_full_fine_tune(arch):
    a = arch("Llama-3.1-70B")
    hw = machine(gpu="RTX 3090", gpus=2)
    found = plans(Workload(model=a, task="training", method="qlora"), hw)
    assert found and all(p.method == "qlora" for p in found)


def test_70b_qlora_on_two_3090s_without_ram_stated_is_fsdp_with_cpu_offload(arch):
    """Answer.AI's FSDP + QLoRA: the shards (30 GiB per GPU) do not fit 24 GB cards, so the
    sharded parameters, gradients and optimizer states go to CPU RAM. RAM the question did not
    state is what the plan asks for, by hand per GPU: half the NF4 base, and half the adapters'
    fp32 weights, gradients and AdamW moments (4 + 4 + 8 bytes per adapter parameter)."""
    a = arch("Llama-3-70B")
    best = plans(
        Workload(model=a, task="training", method="qlora"), machine(gpu="RTX 3090", gpus=2)
    )[0]
    assert (best.hardware, best.gpus, best.parallelism, best.verdict) == (
        YOURS,
        2,
        "fsdp",
        "offload",
    )
    base = weight_bytes(a, FORMATS["nf4"]).total
    n = lora_params(a, 16, "all")
    per_gpu = math.ceil(base / 2) + 2 * math.ceil(4 * n / 2) + math.ceil(8 * n / 2)
    assert best.offload is not None and best.offload.what == "parameters"
    assert best.offload.ram_bytes == 2 * per_gpu
    assert 'fsdp="full_shard auto_wrap offload"' in best.command


def test_a_plan_needing_no_ram_comes_before_one_that_does(arch):
    """On 4x 3090 the sharded 70B QLoRA fits (20 GiB per GPU): no plan in RAM goes first."""
    a = arch("Llama-3-70B")
    found = plans(
        Workload(model=a, task="training", method="qlora"), machine(gpu="RTX 3090", gpus=4)
    )
    assert found[0].verdict in ("fits", "tight") and found[0].offload is None


def test_an_inverse_question_naming_its_engine_is_answered_on_that_engine(arch):
    from estimator.planner import inverse

    a = arch("Llama-3.1-8B")
    hw = machine(gpu="RTX 4090")
    found = inverse.most_sequences(Workload(a, "inference", engine="vllm", context=4096), hw)
    assert found.engine == "vllm"
    # By hand: FP8 weights (8.5 GiB, the embeddings and lm_head kept 16-bit) of vLLM's 20.7 GiB
    # leave about 11.5 GiB: 45 or 46 sequences of 4,096 tokens at 256 MiB each in an FP8 cache.
    assert found.value is not None and 40 <= found.value <= 48
    assert found.estimate is not None
    assert (found.estimate.inputs.precision, found.estimate.inputs.kv_precision) == ("fp8", "fp8")
    # Beside it, in BF16 (15.0 GiB): about 5 GiB, 19 or 20 sequences in an FP8 cache.
    assert found.baseline is not None and found.baseline.value is not None
    assert 15 <= found.baseline.value <= 22


def test_shards_the_memory_plan_offloads_by_itself_are_labelled_as_states(arch):
    """With 128 GB of RAM stated the memory plan moves the FSDP shards there itself: what the RAM
    holds is parameters and optimizer states (none of it activations), and the snippet offloads."""
    a = arch("Llama-3-70B")
    hw = machine(gpu="RTX 3090", gpus=2, ram_gb=128)
    best = plans(Workload(model=a, task="training", method="qlora"), hw)[0]
    assert best.offload is not None and best.offload.what == "parameters"
    assert best.estimate.offload is not None and best.estimate.offload.activation_ram_bytes == 0
    assert 'fsdp="full_shard auto_wrap offload"' in best.command
    # ZeRO-Offload of a full fine-tune on one card keeps the optimizer states there.
    one = plans(
        Workload(model=arch("Qwen2.5-1.5B"), task="training", method="full"),
        machine(gpu="RTX 3060 8GB"),
    )
    zero2 = [p for p in one if p.method == "full" and p.offload is not None]
    assert zero2 and zero2[0].offload.what == "optimizer"


def test_liger_is_in_the_inputs_and_the_snippet(arch):
    """TRL's TrainingArguments switch Liger on with use_liger_kernel=True."""
    w = Workload(model=arch("Llama-3.1-8B"), task="training", method="qlora", liger=True)
    asked = plans(w, machine(gpu="RTX 3060"))[0]
    assert asked.estimate.inputs.liger and "use_liger_kernel=True" in asked.command
    plain = plans(
        Workload(model=arch("Llama-3.1-8B"), task="training", method="qlora"),
        machine(gpu="RTX 3060"),
    )
    assert all("use_liger_kernel" not in p.command for p in plain)


def test_a_full_fine_tune_that_fits_with_an_8_bit_optimizer_is_planned_as_one(arch):
    """Qwen2.5-1.5B fully at 4k on a 3090: AdamW's 8 bytes of state a parameter (11.5 GiB) do
    not fit beside the rest; bitsandbytes' 8-bit AdamW keeps 2 (2.9 GiB), 21.7 GiB in all, so
    the full fine-tune asked for runs, and it is the plan (a changed optimizer, not as asked)."""
    w = Workload(model=arch("Qwen2.5-1.5B"), task="training", method="full", context=4096)
    best = plans(w, machine(gpu="RTX 3090"))[0]
    assert best.method == "full" and best.workload.optimizer in ("adamw_8bit", "paged_adamw_8bit")
    assert "optimizer" in best.changes and best.kind == "optimizer"
    assert 'optim="adamw_8bit"' in best.command


def test_without_ram_stated_an_moe_is_planned_with_its_experts_in_ram_and_says_how_much(arch):
    """Llama 4 Scout (108.6B, 16 experts) on a 5090: Q4_K_M is about 61 GiB, twice the card.
    With the experts of most layers in RAM it decodes at ~20 tokens/s, faster than people read,
    so it leads over a 1-2 bit format that fits. The RAM was not stated: the plan says what it
    needs, about the weights less what the card holds (61 - 30 GiB)."""
    best = plans(
        Workload(model=arch("Llama-4-Scout-17B-16E"), task="inference"), machine(gpu="RTX 5090")
    )[0]
    assert (best.engine, best.precision, best.verdict) == ("llama.cpp", "q4_k_m", "offload")
    assert best.machine is not None and best.machine.ram_bytes is None
    assert best.offload is not None and 25 * GIB < best.offload.ram_bytes < 40 * GIB
    assert not best.slow_offload and "--n-cpu-moe" in best.command


def test_a_plan_on_theirs_slower_than_reading_gives_way_to_one_elsewhere(arch):
    """Llama 3.1 405B on a 4090: Q4_K_M with 212 GiB of layers in RAM crawls at 0.2 tokens/s;
    renting eight GPUs is the plan."""
    found = plans(Workload(model=arch("Llama-3.1-405B"), task="inference"), machine(gpu="RTX 4090"))
    slow = [p for p in found if p.hardware == YOURS and p.verdict == "offload"]
    assert slow and all(p.slow_offload for p in slow)
    assert any(p.hardware == CLOUD and p.runs for p in found)


def test_an_moe_on_a_gpu_known_by_its_memory_keeps_its_experts_in_ram_not_its_layers(arch):
    # Qwen3-30B-A3B on "16 GB of VRAM, 64 GB of RAM": BF16 on transformers would copy 43 GiB of
    # layers over PCIe for every token (well under a token a second); Q4_K_M on llama.cpp keeps
    # 7 layers' experts in RAM, of which a token reads 8 of 128, and chats.
    best = plans(
        Workload(model=arch("Qwen3-30B-A3B"), task="inference"),
        machine(gpu_memory_gb=16, ram_gb=64),
    )[0]
    assert (best.engine, best.precision) == ("llama.cpp", "q4_k_m")
    assert best.offload is not None and best.offload.what == "experts"
    assert best.ram_bound is not None and best.ram_bound > 100


def test_a_format_named_keeps_its_bits_and_sets_a_shorter_context_than_the_engines_default(arch):
    # "2x3090 enough for llama 3.3 70b q4_k_m in ollama": Ollama's default context on 48 GB of
    # VRAM is the model's 131,072 tokens, whose fp16 KV cache alone is 131,072 x 80 layers x 2 x
    # 8 KV heads x 128 x 2 bytes = 40 GiB, 20 GiB a card beside Q4_K_M's 20.1 GiB. At 65,536
    # tokens a q8_0 cache is 65,536 x 80 x 2 x 8 x 128 x 34/32 = 10.6 GiB, 5.3 a card: over the
    # 23.6 GiB a card has. At 32,768 it is 2.7 GiB a card and fits: that is the plan, not 2-bit
    # weights at the default context.
    a = arch("Llama-3.3-70B")
    w = Workload(model=a, task="inference", engine="ollama", precision="q4_k_m")
    best = plans(w, machine(gpu="RTX 3090", gpus=2))[0]
    assert (best.precision, best.kv_precision) == ("q4_k_m", "q8_0")
    assert best.estimate.inputs.context == 32_768 and "context" in best.changes
    assert best.verdict in ("fits", "tight")
    assert "OLLAMA_CONTEXT_LENGTH=32768" in best.command
    # The fullest card holds 41 of the 80 layers' cache.
    kv_fullest = 32_768 * 41 * 2 * 8 * 128 * KV_BYTES["q8_0"]
    assert best.estimate.devices[0].components.kv_cache == kv_fullest
    # A context the question named is kept: the format gives way instead.
    named = plans(replace(w, context=65_536), machine(gpu="RTX 3090", gpus=2))[0]
    assert named.estimate.inputs.context == 65_536 and "context" not in named.changes
