"""Efficiency factors behind the speed estimates, each fitted on or taken from published
measurements (estimator/calibration/speed_measurements.csv, rows S001-S041, and the sources named).

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


# (engine, device kind) -> share of peak bandwidth a decode step reaches, and its overhead in ms.
DECODE: dict[tuple[str, str], tuple[Factor, Factor]] = {
    ("transformers", "gpu"): (
        Factor(0.7, 0.9, "HF generate on A100: S026 Qwen2.5-7B 40.38 t/s, S035 Qwen-7B 40.93 t/s"),
        Factor(
            15.0,
            20.0,
            "per-token Python floor of generate(): Qwen3-0.6B tops out at 58.6 t/s (17 ms)",
        ),
    ),
    ("vllm", "gpu"): (
        Factor(0.7, 0.9, "vLLM 0.6.3 on A100: S025 Qwen2.5-7B 84.28 t/s (63% MBU), S027 32B 71%"),
        Factor(2.0, 3.5, "S030 Qwen2.5-0.5B at 311.55 t/s: 3.2 ms a token for 0.5 ms of weights"),
    ),
    ("llama.cpp", "gpu"): (
        Factor(
            0.75, 0.9, "llama.cpp CUDA: S022 Llama 8B Q4_0 on RTX 3090 78% MBU; S016 DGX Spark 87%"
        ),
        Factor(
            1.5,
            2.5,
            "S023 Qwen2.5-3B Q4_0 on RTX 4090 236 t/s, S024 LLaMA-2-7B Q4_0 on H100 268 t/s",
        ),
    ),
    ("llama.cpp", "apple"): (
        Factor(
            0.75, 0.9, "llama.cpp Metal: S001 M1 and S008 M4 Q4_0 at 77-80%, S010 M2 Ultra Q8_0 81%"
        ),
        Factor(
            0.5, 5.0, "S004-S006: Q4_0 on M2 Ultra / M4 Max leaves 5-6 ms a token beyond the bytes"
        ),
    ),
    ("llama.cpp", "cpu"): (
        Factor(
            0.45,
            0.75,
            "llama.cpp CPU: S038 i9-13900K 68%, S039 2x EPYC 9175F 74%, S041 Strix Halo 43%",
        ),
        Factor(0.0, 1.0, "CPU decode is bandwidth bound (S038, S039)"),
    ),
}
# transformers and vLLM off NVIDIA GPUs: no published row; taken as transformers' GPU figures.
DECODE[("transformers", "apple")] = DECODE[("transformers", "cpu")] = DECODE[
    ("transformers", "gpu")
]
DECODE[("vllm", "cpu")] = DECODE[("transformers", "gpu")]

# Share of peak tensor FLOP/s that prefill (and a compute-bound decode step) reaches.
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
LLAMACPP_GPU_PREFILL = Factor(
    0.4,
    0.75,
    "llama.cpp CUDA int8 MMQ prefill: S023 Qwen2.5-3B pp512 at ~75% of RTX 4090 FP16 peak",
)

# Per-GPU scaling of tensor-parallel decode (aggregate bandwidth x this), by GPU count.
# Databricks: Llama2-70B 4 -> 8 A100 cut latency only to 0.7x; Qwen2.5-72B TP4 on A100 at 56%
# aggregate MBU against 63-71% on one GPU (S028). PCIe-only cards: no row, a step lower.
TP_NVLINK = {2: 0.9, 4: 0.8, 8: 0.65}
TP_PCIE = {2: 0.8, 4: 0.65, 8: 0.5}
TP_SOURCE = "Databricks LLM inference blog (4x->8x A100: 0.7x latency); Qwen2.5 vLLM TP4 S028"

# A CPU whose memory the question did not name: a desktop with dual-channel DDR5-5600.
DEFAULT_CPU_NAME = "DDR5-5600 dual channel (desktop)"
CPU_DEFAULT: CpuPlatform = next(c for c in cpu_platforms() if c.name == DEFAULT_CPU_NAME)


def decode_factors(engine: str, kind: str) -> tuple[Factor, Factor]:
    return DECODE.get((engine, kind), DECODE[("transformers", "gpu")])


def prefill_factor(engine: str, kind: str) -> Factor:
    if engine == "llama.cpp" and kind == "gpu":
        return LLAMACPP_GPU_PREFILL
    return PREFILL[kind]


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
