"""Speed: hand-derived bounds, properties, and the published measurements."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from estimator.calibration.speed_compare import FACTOR_TARGET, run_speed
from estimator.estimate import estimate
from estimator.hardware.catalog import machine
from estimator.hardware.types import Machine
from estimator.models.catalog import find
from estimator.precision import weight_format
from estimator.resolve import resolve
from estimator.speed import (
    active_flops_per_token,
    active_weight_bytes,
    inference_speed,
    ram_ceiling,
)
from estimator.training_time import flops_per_token, training_time
from estimator.workload import Workload


def _speed(arch, hw, **kw):
    w = Workload(model=arch, task="inference", **kw)
    return inference_speed(resolve(w, hw), hw, estimate(w, hw))


def test_bandwidth_bounds_single_sequence_decode(arch):
    # 7.62B params in bf16 on a 1008 GB/s GPU: at most 1008e9 / 15.2e9 = ~66 tokens/s.
    a = arch("qwen2.5 7b")
    s = _speed(a, machine(gpu="RTX 4090"), engine="vllm", context=1)
    assert s.decode_per_sequence.high <= 1008e9 / (2 * a.params - 2 * a.embedding_params) + 1e-9
    assert s.decode_per_sequence.high < 66.2


def test_batch_raises_the_total_not_the_per_sequence_rate(arch):
    a = arch("qwen2.5 7b")
    hw = machine(gpu="A100 80GB")
    one = _speed(a, hw, engine="vllm", context=2048)
    many = _speed(a, hw, engine="vllm", context=2048, concurrency=16)
    assert many.decode_total.low > 4 * one.decode_total.low
    assert many.decode_per_sequence.high < one.decode_per_sequence.high


def test_moe_reads_only_the_experts_a_token_uses(arch):
    a = arch("mixtral 8x7b")
    fmt = weight_format("bf16")
    one = active_weight_bytes(a, fmt, 1)
    # Top-2 of 8: a quarter of the expert bytes, plus everything that is not an expert.
    experts = sum(
        2 * lin.d_in * lin.d_out * lin.count for lin in a.linears if lin.group == "expert"
    )
    assert one == pytest.approx(2 * a.params - 2 * a.embedding_params - experts * 3 / 4, rel=1e-6)
    # Enough tokens touch every expert: 1 - (1 - 1/4)^64 is 1 to within 1e-8.
    assert active_weight_bytes(a, fmt, 64) == pytest.approx(
        2 * a.params - 2 * a.embedding_params, rel=1e-6
    )


def test_flops_per_token(arch):
    a = arch("qwen2.5 7b")
    matmul = sum(lin.d_in * lin.d_out * lin.count for lin in a.linears) + a.lm_head_params
    assert (
        matmul == a.params - a.embedding_params - 4_608 * 28 - 7_168 * 28 - 3_584
    )  # no biases or norms
    assert active_flops_per_token(a) == 2 * matmul
    full = Workload(model=a, task="training", method="full", grad_checkpointing=False)
    lora = Workload(model=a, task="training", method="lora", grad_checkpointing=False)
    f = active_flops_per_token(a)
    assert flops_per_token(resolve(full, None)) == 3 * f  # 6 x params
    assert flops_per_token(resolve(lora, None)) == 2 * f + 6 * 40_370_176  # 4 x params + adapters


def test_training_time_by_hand(arch):
    a = arch("qwen2.5 7b")
    w = Workload(model=a, task="training", method="full", grad_checkpointing=False)
    hw = machine(gpu="H100 SXM5 80GB", gpus=8)
    t = training_time(resolve(w, hw), hw, 1_000_000_000)
    per_token = 3 * active_flops_per_token(a)
    assert t.hours.low == pytest.approx(1e9 * per_token / (8 * 989e12 * 0.5) / 3600)
    assert t.hours.high == pytest.approx(1e9 * per_token / (8 * 989e12 * 0.35) / 3600)


def test_training_on_a_cpu_takes_far_longer(arch):
    a = arch("qwen2.5 7b")
    w = Workload(model=a, task="training", method="lora")
    gpu = machine(gpu="RTX 4090")
    cpu = machine(gpu="cpu", ram_gb=256)
    assert (
        training_time(resolve(w, cpu), cpu, None).hours.low
        > 50 * training_time(resolve(w, gpu), gpu, None).hours.high
    )


def test_unknown_gpu_flops_give_no_training_time(arch):
    a = arch("qwen2.5 0.5b")
    hw = Machine("gpu", "24 GB GPU", 24 * 2**30, from_catalog=False)
    assert training_time(resolve(Workload(model=a, task="training"), hw), hw, None) is None


@settings(max_examples=40, deadline=None)
@given(low=st.floats(100, 3000), factor=st.floats(1.0, 4.0))
def test_more_bandwidth_is_never_slower(arch, low, factor):
    a = arch("qwen2.5 7b")
    base = machine(gpu="RTX 4090")
    slow = Machine("gpu", "x", base.device_bytes, gpu=_with_bandwidth(base, low))
    fast = Machine("gpu", "x", base.device_bytes, gpu=_with_bandwidth(base, low * factor))
    assert (
        _speed(a, fast, engine="vllm").decode_per_sequence.low
        >= _speed(a, slow, engine="vllm").decode_per_sequence.low
    )


def _with_bandwidth(hw, gbs):
    from dataclasses import replace

    return replace(hw.gpu, bandwidth_gbs=gbs)


@settings(max_examples=30, deadline=None)
@given(a=st.integers(1, 60_000), b=st.integers(1, 60_000))
def test_longer_context_never_decodes_faster(arch, a, b):
    low, high = sorted((a, b))
    m = arch("llama 3.1 8b")
    hw = machine(gpu="A100 80GB")
    assert (
        _speed(m, hw, engine="vllm", context=high).decode_per_sequence.high
        <= _speed(m, hw, engine="vllm", context=low).decode_per_sequence.high
    )


SPEED = run_speed()


def test_single_sequence_gpu_decode_within_the_target_for_five_pairs():
    gpu_rows = [r for r in SPEED if r.kind == "decode" and not r.hardware.startswith(("M", "cpu"))]
    within = [r for r in gpu_rows if r.factor <= FACTOR_TARGET]
    assert len({(r.model, r.hardware) for r in within}) >= 5
    assert len(within) == len(gpu_rows)


def test_most_decode_rows_within_the_target():
    decode = [r for r in SPEED if r.kind == "decode"]
    assert sum(r.factor <= FACTOR_TARGET for r in decode) >= 0.9 * len(decode)
    assert all(math.isfinite(r.factor) for r in SPEED)


def test_a_gpu_known_only_by_its_memory_has_no_speed() -> None:
    """Bandwidth decides decode speed; "a 16 GB GPU" does not say it, so no speed is claimed."""
    w = Workload(model=find("Gemma-2-9B").architecture, task="inference")
    hw = machine(gpu_memory_gb=16)
    assert inference_speed(resolve(w, hw), hw, estimate(w, hw)) is None


def test_transformers_copies_the_layers_in_ram_over_pcie_for_every_forward(arch):
    """Llama-3.1-70B in bf16 on a 4090 with 192 GB of RAM: accelerate keeps 69 of 80 layers in
    RAM and copies them to the GPU at every forward pass.

    Decode, per token: the 1.40e11 bytes of a step less the ram_bytes (about 1.19e11, 111 GiB)
    at 1008 GB/s x 0.7-0.9 plus 15-20 ms of generate(), plus ram_bytes over PCIe 4.0 x16 at
    31.5 GB/s x 0.8-0.9: 2.1e10/907e9 + 0.015 + 1.19e11/28.35e9 = 0.023 + 0.015 + 4.21 s at
    best, 0.030 + 0.020 + 4.73 s at worst: 0.21-0.24 tokens/s (not the CPU's 0.33-0.54).
    Prefill, one pass over the 4,096-token prompt: 2 x 7.2e10 FLOPs a token at 165.2 TFLOPS x
    0.35-0.5 is 400-572 tokens/s, 7.2-10.2 s, plus one copy of 4.2-4.7 s: 274-360 tokens/s."""
    a = arch("Llama-3.1-70B")
    hw = machine(gpu="RTX 4090", ram_gb=192)
    w = Workload(model=a, task="inference", engine="transformers", precision="bf16")
    est = estimate(w, hw)
    assert est.verdict == "offload" and est.offload is not None
    moved = est.offload.ram_bytes
    assert 110 * 2**30 < moved < 112 * 2**30
    s = inference_speed(resolve(w, hw), hw, est)
    assert s is not None
    rest = s.bytes_per_step - moved
    slowest = rest / (1008e9 * 0.7) + 0.020 + moved / (31.5e9 * 0.8)
    fastest = rest / (1008e9 * 0.9) + 0.015 + moved / (31.5e9 * 0.9)
    assert s.decode_per_sequence.low == pytest.approx(1 / slowest)
    assert s.decode_per_sequence.high == pytest.approx(1 / fastest)
    assert 0.20 < s.decode_per_sequence.low < s.decode_per_sequence.high < 0.24
    flops = 2 * 80 * 4096 * a.q_width + active_flops_per_token(a)
    low = 4096 / (4096 * flops / (165.2e12 * 0.35) + moved / (31.5e9 * 0.8))
    high = 4096 / (4096 * flops / (165.2e12 * 0.5) + moved / (31.5e9 * 0.9))
    assert s.prefill is not None
    assert (s.prefill.low, s.prefill.high) == (pytest.approx(low), pytest.approx(high))
    assert [n.key for n in s.steps if "pcie" in n.key] == ["decode_pcie", "prefill_pcie_pass"]


def test_a_gpu_known_by_its_memory_alone_is_still_bounded_by_the_part_in_ram(arch):
    """24 GB of GPU and 128 GB of a desktop's DDR5-5600 (89.6 GB/s), Llama-3.1-70B:
    - BF16 on transformers keeps 119,237,949,180 bytes in RAM and copies them over PCIe 4.0 x16
      (31.5 GB/s x 0.9 at best) for every token: at most 28.35e9 / 1.192e11 = 0.238 tokens/s;
    - Q4_K_M on llama.cpp keeps 35 of 80 layers there, 35/80 of a 43,864,133,080-byte step
      (weights and the 4,096-token KV cache), which the CPU multiplies at 89.6 GB/s x 0.75 at
      best: at most 67.2e9 / 1.919e10 = 3.50 tokens/s.
    Qwen3-30B-A3B in Q4_K_M on 16 GB keeps 7 layers' experts in RAM, of which a token reads 8 of
    128: hundreds of tokens/s, no bound that matters."""
    hw = machine(gpu_memory_gb=24, ram_gb=128)

    def ceiling(name, engine, precision, on=hw):
        w = Workload(model=arch(name), task="inference", engine=engine, precision=precision)
        est = estimate(w, on)
        assert est.verdict == "offload" and inference_speed(resolve(w, on), on, est) is None
        return est.offload, ram_ceiling(resolve(w, on), on, est)

    off, bound = ceiling("Llama-3.1-70B", "transformers", "bf16")
    assert off.ram_bytes == 119_237_949_180
    assert bound == pytest.approx(31.5e9 * 0.9 / 119_237_949_180) == pytest.approx(0.2378, abs=1e-4)
    off, bound = ceiling("Llama-3.1-70B", "llama.cpp", "q4_k_m")
    assert (off.gpu_layers, off.total_layers) == (45, 80)
    assert bound == pytest.approx(89.6e9 * 0.75 / (43_864_133_080 * 35 / 80), rel=1e-9)
    assert bound == pytest.approx(3.50, abs=0.01)
    off, bound = ceiling(
        "Qwen3-30B-A3B", "llama.cpp", "q4_k_m", machine(gpu_memory_gb=16, ram_gb=64)
    )
    assert off.expert_layers == 7 and bound > 100
