"""Inference speed: decode is bound by memory bandwidth, prefill by compute. Ranges, not points.

A decode step reads every active weight once for the whole batch plus each sequence's KV cache:
  step time = max(bytes read / (bandwidth x efficiency), batch x 2 x active params / (FLOP/s x mfu)).
Mixture-of-experts layers read only the experts the batch's tokens touch: with E experts, k per
token and uniform routing, a batch of S tokens touches E x (1 - (1 - k/E)^S) of them.
Prefill is compute bound: 2 x active params FLOPs per token plus causal attention
(2 x layers x prompt x query width), at an achievable fraction of peak tensor FLOP/s.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import engines
from .hardware.types import Machine
from .memory.constants import LLAMACPP_UBATCH
from .models.types import Architecture, Linear
from .precision import WeightFormat, _linear_bytes, _mlx_bytes
from .resolve import Resolved
from .result import Estimate, Note, Offload
from .speed_factors import (
    CPU_DEFAULT,
    PCIE,
    PCIE_GBS,
    Factor,
    device_tflops,
    tensor_parallel_scaling,
)


@dataclass(frozen=True, slots=True)
class Range:
    low: float
    high: float

    def __mul__(self, factor: float) -> Range:
        return Range(self.low * factor, self.high * factor)

    def inverse(self, numerator: float) -> Range:
        return Range(numerator / self.high, numerator / self.low)


@dataclass(frozen=True, slots=True)
class Speed:
    decode_per_sequence: Range  # tokens/s for one sequence
    decode_total: Range  # tokens/s over all concurrent sequences
    prefill: Range | None  # prompt tokens/s (None when the device's FLOP/s are unknown)
    time_to_first_token: Range | None  # seconds for the prompt of one batch
    bytes_per_step: int
    steps: tuple[Note, ...]
    assumptions: tuple[Note, ...] = ()


def active_weight_bytes(arch: Architecture, fmt: WeightFormat, tokens: int) -> int:
    """Weight bytes one decode step of `tokens` sequences reads (input embeddings excluded: a
    token reads one row of them)."""
    if fmt.gguf:
        per = fmt.bits / 8
        linear = sum(
            lin.d_in * lin.d_out * lin.count * _touched(lin, tokens) for lin in arch.linears
        )
        return round(per * (linear + arch.lm_head_params + arch.other_params))
    head = arch.lm_head_params or arch.embedding_params  # tied models read the table as lm_head
    wide = 4 if fmt.name == "fp32" else 2
    linear = sum(_linear_bytes(lin, fmt) * _touched(lin, tokens) for lin in arch.linears)
    head_bytes = _mlx_bytes(head, fmt.bits) if fmt.kind == "mlx" else wide * head
    return round(linear + head_bytes + wide * arch.other_params)


def _touched(lin: Linear, tokens: int) -> float:
    """Share of a kind of matrix a batch of `tokens` tokens reads."""
    if lin.active_count == lin.count:
        return 1.0
    share = lin.active_count / lin.count
    return 1 - (1 - share) ** tokens


def active_flops_per_token(arch: Architecture) -> int:
    """2 x the parameters one token multiplies through (no input embedding lookup)."""
    head = arch.lm_head_params or arch.embedding_params
    return 2 * (sum(lin.d_in * lin.d_out * lin.active_count for lin in arch.linears) + head)


def _step_time(bytes_: float, bandwidth: float, eff: Factor, overhead: Factor) -> Range:
    """Seconds for one decode step: fastest (high efficiency, low overhead) to slowest."""
    return Range(
        bytes_ / (bandwidth * eff.high) + overhead.low / 1000,
        bytes_ / (bandwidth * eff.low) + overhead.high / 1000,
    )


def inference_speed(r: Resolved, machine: Machine, est: Estimate) -> Speed | None:
    """Decode and prefill rates; None for a GPU known only by its memory (no bandwidth)."""
    w = r.workload
    arch = w.model
    engine = _engine(r)
    sequences = w.concurrency * w.batch
    context = w.context or 1
    prompt = min(w.prompt_tokens or context, context)
    weights, kv_read = _step_bytes(r, engine)
    step_bytes = weights + kv_read
    steps = [
        Note(
            "decode_bytes",
            {"weights": weights, "kv": kv_read, "sequences": sequences, "bytes": step_bytes},
        )
    ]

    assumptions: list[Note] = []
    bandwidth, flops = _device_rates(machine, engine, est, steps, assumptions)
    if not bandwidth:
        return None
    eff, overhead = engine.decode_factors(machine.kind)
    from_ram, ram_time = _in_ram(r, machine, engine, est.offload, step_bytes, steps)
    on_gpu = _step_time(step_bytes - from_ram, bandwidth, eff, overhead)
    step = Range(on_gpu.low + ram_time.low, on_gpu.high + ram_time.high)
    flops_per_token = active_flops_per_token(arch)
    mfu = engine.prefill_factor(machine.kind)
    if flops:
        compute = Range(
            sequences * flops_per_token / (flops * mfu.high),
            sequences * flops_per_token / (flops * mfu.low),
        )
        step = Range(max(step.low, compute.low), max(step.high, compute.high))
    per_sequence = Range(1 / step.high, 1 / step.low)
    steps.append(
        Note(
            "decode_speed",
            {
                "bandwidth_gbs": bandwidth / 1e9,
                "efficiency_low": eff.low,
                "efficiency_high": eff.high,
                "overhead_low": overhead.low,
                "overhead_high": overhead.high,
                "low": per_sequence.low,
                "high": per_sequence.high,
                "sequences": sequences,
            },
        )
    )
    prefill = ttft = None
    if flops:
        flops_prompt = flops_per_token + 2 * arch.num_layers * prompt * arch.q_width
        prefill = Range(flops * mfu.low / flops_prompt, flops * mfu.high / flops_prompt)
        offload = est.offload
        if offload is not None and offload.ram_bytes and machine.kind == "gpu":
            if engine.streams_offload:
                prefill = _pcie_pass(prefill, offload.ram_bytes, prompt * sequences, steps)
            else:
                prefill = _pcie_bound(prefill, arch, r.weight_format, offload, steps)
        ttft = prefill.inverse(prompt * sequences)
        steps.append(
            Note(
                "prefill_speed",
                {
                    "tflops": flops / 1e12,
                    "mfu_low": mfu.low,
                    "mfu_high": mfu.high,
                    "flops_per_token": flops_prompt,
                    "low": prefill.low,
                    "high": prefill.high,
                },
            )
        )
    return Speed(
        per_sequence,
        per_sequence * sequences,
        prefill,
        ttft,
        step_bytes,
        tuple(steps),
        tuple(assumptions),
    )


def ram_ceiling(r: Resolved, machine: Machine, est: Estimate) -> float | None:
    """The most tokens/s one sequence decodes with part of the model in RAM, from the RAM's
    side alone (its bytes copied over PCIe, or multiplied on the CPU), whatever the GPU: what
    bounds a plan on a GPU known by its memory alone. None when nothing is in RAM."""
    engine = _engine(r)
    _, ram_time = _in_ram(r, machine, engine, est.offload, sum(_step_bytes(r, engine)), [])
    return 1 / ram_time.low if ram_time.low > 0 else None


def _engine(r: Resolved) -> engines.Engine:
    # resolve() names the engine of every inference workload.
    assert r.workload.engine is not None
    return engines.get(r.workload.engine)


def _step_bytes(r: Resolved, engine: engines.Engine) -> tuple[int, int]:
    """Weight and KV cache bytes one decode step reads."""
    w = r.workload
    sequences = w.concurrency * w.batch
    context = w.context or 1
    weights = active_weight_bytes(w.model, r.weight_format, sequences)
    lay = engine.kv_layout(w.model, r.kv_element_bytes)
    per_token = lay.elements_per_token_layer * lay.element_bytes
    window = min(context, lay.window or context)
    kv_read = round(
        sequences * per_token * (lay.full_layers * context + lay.sliding_layers * window)
    )
    return weights, kv_read


def _in_ram(
    r: Resolved,
    machine: Machine,
    engine: engines.Engine,
    offload: Offload | None,
    step_bytes: float,
    steps: list[Note],
) -> tuple[float, Range]:
    """The bytes of a decode step kept in CPU RAM and the seconds they add, one after the
    work on the GPU: copied over PCIe to the GPU (accelerate), or multiplied on the CPU at its
    memory bandwidth (llama.cpp). (0, no time) when nothing is in RAM."""
    none = (0.0, Range(0, 0))
    if offload is None or not offload.total_layers:
        return none
    cpu = machine.cpu or CPU_DEFAULT
    if offload.gpu_layers is not None and engine.streams_offload and machine.kind == "gpu":
        moved = min(offload.ram_bytes, step_bytes)
        steps.append(Note("decode_pcie", {"ram_bytes": moved, "bandwidth_gbs": PCIE_GBS}))
        return moved, _step_time(moved, PCIE_GBS * 1e9, PCIE, Factor(0, 0, ""))
    if offload.expert_layers:
        # Experts kept in RAM are multiplied on the CPU at its memory bandwidth; attention,
        # shared experts and the other layers' experts stay on the GPU.
        arch = r.workload.model
        sequences = r.workload.concurrency * r.workload.batch
        on_cpu = _ram_expert_bytes(arch, r.weight_format, sequences, offload)
        steps.append(Note("decode_expert_offload", {"ram_bytes": on_cpu, "cpu": cpu.name}))
    elif offload.gpu_layers is not None:
        # Layers left in RAM run on the CPU, one after the other with those on the GPU.
        cpu_share = 1 - offload.gpu_layers / offload.total_layers
        on_cpu = step_bytes * cpu_share
        steps.append(Note("decode_offload", {"cpu_share": cpu_share, "cpu": cpu.name}))
    else:
        return none
    cpu_eff, _ = engine.decode_factors("cpu")
    return on_cpu, _step_time(on_cpu, cpu.bandwidth_gbs * 1e9, cpu_eff, Factor(0, 0, ""))


def _ram_expert_bytes(arch: Architecture, fmt: WeightFormat, tokens: int, off: Offload) -> float:
    """Expert bytes one decode step reads from RAM: the experts the batch's tokens touch, in
    the MoE layers whose experts are kept in RAM."""
    dense = off.total_layers - off.moe_layers if off.total_layers else 0
    in_ram = max(0, off.expert_layers - dense)
    per = fmt.bits / 8 if fmt.gguf else None
    touched = sum(
        (lin.params * per if per is not None else _linear_bytes(lin, fmt)) * _touched(lin, tokens)
        for lin in arch.linears
        if lin.group == "expert"
    )
    return touched * in_ram / off.moe_layers if off.moe_layers else 0.0


def _pcie_bound(
    prefill: Range, arch: Architecture, fmt: WeightFormat, off: Offload, steps: list[Note]
) -> Range:
    """Prompt processing with weights in RAM: llama.cpp runs a large batch on the GPU and copies
    the weights kept in RAM over PCIe for every micro-batch of 512 tokens (ggml's op offload),
    so a micro-batch takes at least those bytes over the bus."""
    moved = off.ram_bytes - (arch.embedding_params * fmt.bits / 8 if fmt.gguf else 0)
    if moved <= 0:
        return prefill
    bound = Range(
        LLAMACPP_UBATCH * PCIE.low * PCIE_GBS * 1e9 / moved,
        LLAMACPP_UBATCH * PCIE.high * PCIE_GBS * 1e9 / moved,
    )
    steps.append(Note("prefill_pcie", {"ram_bytes": moved, "bandwidth_gbs": PCIE_GBS}))
    return Range(min(prefill.low, bound.low), min(prefill.high, bound.high))


def _pcie_pass(prefill: Range, moved: int, tokens: int, steps: list[Note]) -> Range:
    """Prompt processing when every forward pass first copies the layers kept in RAM to the GPU
    (accelerate): generate() prefills the whole batch of prompts in one pass, and each layer's
    copy comes before its compute, so one copy adds to the pass's time."""
    steps.append(Note("prefill_pcie_pass", {"ram_bytes": moved, "bandwidth_gbs": PCIE_GBS}))
    copy = Range(moved / (PCIE.high * PCIE_GBS * 1e9), moved / (PCIE.low * PCIE_GBS * 1e9))
    return Range(
        tokens / (tokens / prefill.low + copy.high), tokens / (tokens / prefill.high + copy.low)
    )


def _device_rates(
    machine: Machine,
    engine: engines.Engine,
    est: Estimate,
    steps: list[Note],
    assumptions: list[Note],
) -> tuple[float, float | None]:
    """Bandwidth (bytes/s) and peak FLOP/s the decode loop sees."""
    tflops = device_tflops(machine)
    flops = tflops * 1e12 if tflops else None
    if machine.kind == "cpu":
        cpu = machine.cpu or CPU_DEFAULT
        if machine.cpu is None:
            assumptions.append(
                Note("default_cpu", {"cpu": cpu.name, "bandwidth_gbs": cpu.bandwidth_gbs})
            )
        return cpu.bandwidth_gbs * 1e9, flops
    if machine.kind == "apple":
        assert machine.apple is not None
        return machine.apple.bandwidth_gbs * 1e9, flops
    if machine.mixed:
        return _mixed_rates(machine, engine, est, steps)
    gpu = machine.gpu
    bandwidth = (gpu.bandwidth_gbs or 0) * 1e9 if gpu else 0.0
    if engine.parallelism == "tensor" and machine.count > 1 and gpu is not None:
        # Tensor parallel: every GPU reads its shard at once, then the GPUs all-reduce.
        scaling = tensor_parallel_scaling(machine.count, gpu.nvlink)
        steps.append(Note("tensor_parallel_speed", {"devices": machine.count, "scaling": scaling}))
        return (
            bandwidth * machine.count * scaling,
            flops * machine.count * scaling if flops else None,
        )
    # A layer split runs the GPUs one after another: one GPU's bandwidth at a time.
    return bandwidth, flops


def _mixed_rates(
    machine: Machine, engine: engines.Engine, est: Estimate, steps: list[Note]
) -> tuple[float, float | None]:
    """Different GPUs: tensor parallel waits for the slowest card at every layer; a layer split
    runs each card's layers in turn, so a token takes the sum of each card's bytes over its
    bandwidth."""
    cards = machine.cards
    bandwidths = [c.bandwidth_gbs for c in cards if c.bandwidth_gbs]
    if len(bandwidths) < len(cards):
        return 0.0, None
    tflops = [c.tflops_bf16 for c in cards if c.tflops_bf16]
    slowest_flops = min(tflops) * 1e12 if len(tflops) == len(cards) else None
    if engine.parallelism == "tensor":
        slowest = min(bandwidths) * 1e9
        scaling = tensor_parallel_scaling(len(cards), all(c.nvlink for c in cards))
        steps.append(Note("tensor_parallel_speed", {"devices": len(cards), "scaling": scaling}))
        flops = slowest_flops * len(cards) * scaling if slowest_flops else None
        return slowest * len(cards) * scaling, flops
    loads = [d.components.weights + d.components.kv_cache for d in est.devices]
    seconds = sum(load / (bw * 1e9) for load, bw in zip(loads, bandwidths, strict=True))
    steps.append(Note("layer_split_speed", {"devices": len(cards)}))
    return (sum(loads) / seconds if seconds else 0.0), slowest_flops
