"""Efficiency factors behind the speed estimates, each fitted on or taken from published
measurements (estimator/calibration/speed_measurements.csv, rows S001-S041, and the sources named).
Each engine's decode factors live in its module (estimator/engines/); the device-level ones here.

A decode step takes bytes / (bandwidth x efficiency) + a per-step overhead (kernel launches,
Python, sampling): the overhead is what caps small models (vLLM serves Qwen2.5-0.5B at 311
tokens/s on an A100, 3.2 ms a token, of which reading the weights takes 0.5 ms: S030).
"""

from __future__ import annotations

from dataclasses import dataclass

from .hardware.catalog import cpu_platforms
from .hardware.types import CpuPlatform, Machine


@dataclass(frozen=True, slots=True)
class Factor:
    low: float
    high: float
    source: str


# Share of peak tensor FLOP/s that prefill (and a compute-bound decode step) reaches, unless the
# engine states its own.
PREFILL: dict[str, Factor] = {
    "gpu": Factor(
        0.35,
        0.5,
        "Databricks 'LLM Inference Performance Engineering': MPT-7B prefill ~48% of A100 peak, Llama2-70B ~37%",
    ),
    "apple": Factor(
        0.5, 0.8, "llama.cpp Metal M2 Ultra prefill 19-24 TFLOPS of its 27.2 (S003, S010)"
    ),
    "cpu": Factor(
        0.3,
        0.6,
        "llama.cpp CPU prefill ~30% of FP32 AVX2 peak (S038); int8 kernels go higher (S040)",
    ),
}
# Per-GPU scaling of tensor-parallel decode (aggregate bandwidth x this), by GPU count.
# Databricks: Llama2-70B 4 -> 8 A100 cut latency only to 0.7x; Qwen2.5-72B TP4 on A100 at 56%
# aggregate MBU against 63-71% on one GPU (S028). PCIe-only cards: no row, a step lower.
TP_NVLINK = {2: 0.9, 4: 0.8, 8: 0.65}
TP_PCIE = {2: 0.8, 4: 0.65, 8: 0.5}
TP_SOURCE = "Databricks LLM inference blog (4x->8x A100: 0.7x latency); Qwen2.5 vLLM TP4 S028"

# A CPU whose memory the question did not name: a desktop with dual-channel DDR5-5600.
DEFAULT_CPU_NAME = "DDR5-5600 dual channel (desktop)"
CPU_DEFAULT: CpuPlatform = next(c for c in cpu_platforms() if c.name == DEFAULT_CPU_NAME)


def tensor_parallel_scaling(devices: int, nvlink: bool) -> float:
    table = TP_NVLINK if nvlink else TP_PCIE
    fitting = [n for n in sorted(table) if n <= devices]
    return table[fitting[-1]] if fitting else 1.0


def device_tflops(machine: Machine) -> float | None:
    """Peak dense 16-bit tensor TFLOP/s of one device (Apple: FP32 GPU rate, FP16 is the same;
    CPU: FP32 vector peak), None when unknown."""
    if machine.kind == "gpu":
        return machine.gpu.tflops_bf16 if machine.gpu else None
    if machine.kind == "apple":
        return machine.apple.gpu_tflops_fp32[0] if machine.apple else None
    return (machine.cpu or CPU_DEFAULT).tflops_fp32
