"""Published decode (and prefill) speeds mapped onto workloads: speed_measurements.csv.

llama-bench's tg128 decodes 128 tokens after an empty cache (context 128) and pp512 prefills 512
tokens; the Qwen speed pages generate 2048 tokens from a 1-token prompt; mlx_lm.benchmark
decodes 128 tokens after a 2048-token prompt. Rows whose hardware the
catalog lacks (H20, DGX Spark, the two-socket EPYC 9175F) or whose model is unnamed are left out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class SpeedRow:
    id: str
    model: str
    workload: dict[str, Any]
    gpu: str
    gpus: int = 1
    cpu: str | None = None
    ram: float | None = None
    prefill_context: int | None = None  # prompt length of the prefill figure, when given
    note: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


def _tg(id: str, model: str, precision: str, hardware: str, **kw: Any) -> SpeedRow:
    workload = {"task": "inference", "engine": "llama.cpp", "precision": precision, "context": 128}
    return SpeedRow(id, model, workload, hardware, prefill_context=512, **kw)


def _qwen(id: str, model: str, engine: str, gpus: int = 1, precision: str = "bf16") -> SpeedRow:
    workload = {
        "task": "inference",
        "engine": engine,
        "precision": precision,
        "context": 2049,
        "prompt_tokens": 1,
    }
    return SpeedRow(id, model, workload, "A100 80GB SXM4", gpus)


def _mlx(id: str, model: str, precision: str) -> SpeedRow:
    workload = {
        "task": "inference",
        "engine": "mlx",
        "precision": precision,
        "context": 2048 + 128,
        "prompt_tokens": 2048,
    }
    return SpeedRow(id, model, workload, "M4 Max 64GB", prefill_context=2048)


# fmt: off
SPEED_ROWS: tuple[SpeedRow, ...] = (
    # llama.cpp discussion #4167 (Apple silicon, LLaMA-2-7B) and its maintainer bench files.
    _tg("S001", "Llama-2-7B", "q4_0", "M1 8GB"),
    _tg("S002", "Llama-2-7B", "q4_0", "M1 Max 64GB"),
    _tg("S003", "Llama-2-7B", "f16", "M2 Ultra 192GB"),
    _tg("S004", "Llama-2-7B", "q4_0", "M2 Ultra 192GB"),
    _tg("S005", "Llama-2-7B", "q4_0", "M3 Max 64GB"),
    _tg("S006", "Llama-2-7B", "q4_0", "M4 Max 64GB"),
    _tg("S007", "Llama-2-7B", "q4_0", "M4 Pro 48GB"),
    _tg("S008", "Llama-2-7B", "q4_0", "M4 16GB"),
    SpeedRow("S010", "Qwen2.5-7B", {"task": "inference", "engine": "llama.cpp", "precision": "q8_0", "context": 32}, "M2 Ultra 192GB", prefill_context=2048),
    SpeedRow("S011", "gpt-oss-20b", {"task": "inference", "engine": "llama.cpp", "context": 32}, "M2 Ultra 192GB", prefill_context=2048),
    SpeedRow("S012", "gpt-oss-120b", {"task": "inference", "engine": "llama.cpp", "context": 32}, "M2 Ultra 192GB", prefill_context=2048),
    SpeedRow("S013", "Qwen3-30B-A3B", {"task": "inference", "engine": "llama.cpp", "precision": "q8_0", "context": 32}, "M2 Ultra 192GB", prefill_context=2048),
    SpeedRow("S014", "Gemma-3-4B", {"task": "inference", "engine": "llama.cpp", "precision": "q4_0", "context": 32}, "M2 Ultra 192GB", prefill_context=2048),
    # mlx-lm's benchmark table (BENCHMARKS.md @a4c6470): a 2048-token prompt, 128 generated.
    _mlx("NG149", "Qwen3-4B-Instruct-2507", "bf16"),
    _mlx("NG150", "Qwen3-4B-Instruct-2507", "mlx_q8"),
    _mlx("NG151", "Qwen3-4B-Instruct-2507", "mlx_q4"),
    _mlx("NG152", "Qwen3-30B-A3B-Instruct-2507", "mlx_q8"),
    _mlx("NG153", "Qwen3-30B-A3B-Instruct-2507", "mlx_q4"),
    # llama.cpp CUDA.
    SpeedRow("S022", "Llama-3.1-8B", {"task": "inference", "engine": "llama.cpp", "precision": "q4_0", "context": 512}, "RTX 3090"),
    _tg("S023", "Qwen2.5-3B", "q4_0", "RTX 4090"),
    _tg("S024", "Llama-2-7B", "q4_0", "H100 SXM5 80GB", note="secondary copy; SXM or PCIe not stated"),
    # Qwen speed pages (vLLM 0.6.3 and transformers 4.46 on A100 80GB; Qwen-1 README).
    _qwen("S025", "Qwen2.5-7B", "vllm"),
    _qwen("S026", "Qwen2.5-7B", "transformers"),
    _qwen("S027", "Qwen2.5-32B", "vllm"),
    _qwen("S028", "Qwen2.5-72B", "vllm", 4),
    _qwen("S029", "Qwen2.5-72B", "vllm", 2),
    _qwen("S030", "Qwen2.5-0.5B", "vllm"),
    _qwen("S035", "Qwen-7B", "transformers"),
    # NVIDIA NIM (TensorRT-LLM) Llama-3.3-70B FP8, 2x H100 TP2, 500 in / 2000 out.
    SpeedRow("S036", "Llama-3.1-70B", {"task": "inference", "engine": "vllm", "precision": "fp8", "context": 2500, "prompt_tokens": 500}, "H100 SXM5 80GB", 2, note="TensorRT-LLM, modelled as vLLM"),
    # CPUs (llama.cpp).
    SpeedRow("S038", "Llama-2-7B", {"task": "inference", "engine": "llama.cpp", "precision": "q4_0", "context": 128}, "cpu", cpu="ddr5-6400", ram=64, prefill_context=512, note="quantisation not stated; Q4_0 assumed"),
    SpeedRow("S041", "Llama-2-7B", {"task": "inference", "engine": "llama.cpp", "precision": "q4_0", "context": 128}, "cpu", cpu="strix halo", ram=128, prefill_context=512),
)
# fmt: on
