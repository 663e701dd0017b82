"""llama.cpp (`llama-server`): GGUF files, a KV cache of `-c` cells padded to 256, a compute
buffer for the worst micro-batch, the input embeddings in host memory, layers split over GPUs
(`--split-mode layer`) and the rest on the CPU (`-ngl`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from ..hardware.types import Machine
from ..memory import constants as k
from ..memory.inference import InferencePlan, kv_note, layered
from ..memory.kv_cache import kv_cache, round_up
from ..memory.notes import weights_note
from ..models.types import Architecture
from ..precision import WeightFormat, group_bytes, weight_bytes
from ..result import Note
from ..speed_factors import Factor
from .base import AMD, INTEL, NVIDIA, EngineBase, Launch, capacities

if TYPE_CHECKING:
    from ..resolve import Resolved

# Ollama's default download and the usual choice: Q4_K_M.
DEFAULT_GGUF = "q4_k_m"
# ggml's quantized KV types; they need flash attention for the V cache (llama.cpp PR #7527).
QUANTIZED_KV = ("q8_0", "q4_0")

DECODE = {
    "gpu": (
        Factor(
            0.75, 0.9, "llama.cpp CUDA: S022 Llama 8B Q4_0 on RTX 3090 78% MBU; S016 DGX Spark 87%"
        ),
        Factor(
            1.5,
            2.5,
            "S023 Qwen2.5-3B Q4_0 on RTX 4090 236 t/s, S024 LLaMA-2-7B Q4_0 on H100 268 t/s",
        ),
    ),
    "apple": (
        Factor(
            0.75, 0.9, "llama.cpp Metal: S001 M1 and S008 M4 Q4_0 at 77-80%, S010 M2 Ultra Q8_0 81%"
        ),
        Factor(
            0.5, 5.0, "S004-S006: Q4_0 on M2 Ultra / M4 Max leaves 5-6 ms a token beyond the bytes"
        ),
    ),
    "cpu": (
        Factor(
            0.45,
            0.75,
            "llama.cpp CPU: S038 i9-13900K 68%, S039 2x EPYC 9175F 74%, S041 Strix Halo 43%",
        ),
        Factor(0.0, 1.0, "CPU decode is bandwidth bound (S038, S039)"),
    ),
}
GPU_PREFILL = Factor(
    0.4,
    0.75,
    "llama.cpp CUDA int8 MMQ prefill: S023 Qwen2.5-3B pp512 at ~75% of RTX 4090 FP16 peak",
)


class LlamaCpp(EngineBase):
    name = "llama.cpp"
    label = "llama.cpp"
    # LM Studio runs GGUF files on llama.cpp (and MLX on a Mac, which the answer plans anyway).
    aliases: tuple[str, ...] = (
        "llamacpp",
        "llama-cpp",
        "llama-server",
        "gguf",
        "lmstudio",
        "lm studio",
        "lm-studio",
    )
    devices = frozenset({"gpu", "apple", "cpu"})
    # ggml's GPU backends (docs/build.md): CUDA for NVIDIA, HIP for AMD, SYCL for Intel, Vulkan
    # for all three, Metal on Apple; none for Gaudi.
    vendors: frozenset[str] | None = frozenset({NVIDIA, AMD, INTEL})
    int_formats: Mapping[str, str] = {
        "int4": "q4_k_m",
        "int8": "q8_0",
        "bf16": "f16",
        "fp16": "f16",
    }
    kv_precisions = frozenset({"fp16", "bf16", "fp32", *QUANTIZED_KV})
    kv8 = "q8_0"
    kv_unit = k.LLAMACPP_CTX_PAD
    offloads_layers = True
    offloads_experts = True
    scales_rope = True
    # Down to the 1-2 bit formats people run the largest MoE models in (IQ1_S, IQ2_M).
    ladder = (
        "f16",
        "q8_0",
        "q6_k",
        "q5_k_m",
        "q4_k_m",
        "iq4_xs",
        "q3_k_m",
        "iq3_m",
        "q2_k",
        "iq2_m",
        "iq1_s",
    )
    decode = DECODE
    prefill: Mapping[str, Factor] = {"gpu": GPU_PREFILL}
    tried = frozenset({"gpu", "apple", "cpu", "none"})
    rented = True

    def default_for(self, arch: Architecture, machine: Machine | None, sequences: int) -> bool:
        # On a CPU, and on a Mac for what has no MLX conversion (the registry asks MLX first).
        return machine is not None and machine.kind in ("cpu", "apple")

    def accepts(self, fmt: WeightFormat) -> bool:
        return fmt.gguf or fmt.name == "mxfp4"

    def default_format(self, arch: Architecture, machine: Machine | None) -> str:
        # A GGUF file read from disk runs in its own quantization: the bytes its tensors hold.
        if arch.measured_source == "gguf" and arch.measured_format:
            return arch.measured_format
        return "mxfp4" if arch.checkpoint_precision == "mxfp4" else DEFAULT_GGUF

    def default_kv(self, fmt: WeightFormat) -> str:
        return "fp32" if fmt.name == "fp32" else "fp16"

    def memory_plan(self, r: Resolved, machine: Machine | None) -> InferencePlan:
        w = r.workload
        arch = w.model
        devices = machine.count if machine is not None and machine.kind == "gpu" else 1
        sequences = w.concurrency * w.batch
        context = r.context
        wb = weight_bytes(arch, r.weight_format)
        steps = [weights_note(arch, r.weight_format, wb.total)]
        block = k.LLAMACPP_CTX_PAD
        kv = kv_cache(
            self.kv_layout(arch, r.kv_element_bytes),
            context=context,
            sequences=sequences,
            block=block,
            sliding_tokens=(arch.sliding_window or 0) + k.LLAMACPP_UBATCH,
        )
        steps.append(kv_note(arch, kv, block))
        padded = round_up(context, block) * sequences
        # ggml reserves the worst micro-batch graph: all 512 tokens' logits in fp32, plus the
        # attention mask over the whole context (flash attention, on by default since
        # llama.cpp PR #15434). Logged: 258.50 MiB for Llama-3-8B, 456.98 MiB for gpt-oss-20b
        # at 131072 context.
        compute = 4 * arch.vocab_size * k.LLAMACPP_UBATCH + padded * k.LLAMACPP_UBATCH
        steps.append(
            Note(
                "compute_buffer",
                {
                    "ubatch": k.LLAMACPP_UBATCH,
                    "vocab": arch.vocab_size,
                    "context": padded,
                    "bytes": compute,
                },
            )
        )
        on_gpu = machine is not None and machine.kind == "gpu"
        # llama.cpp keeps the input embeddings in host memory ("very little benefit to
        # offloading the input layer", src/llama-model.cpp).
        host_only = wb.embedding if on_gpu else 0
        first = 0 if on_gpu else wb.embedding
        # A tied output layer is duplicated onto the GPU (llama.cpp TENSOR_DUPLICATED).
        last = wb.embedding if on_gpu and arch.tie_embeddings else wb.lm_head
        experts = group_bytes(arch, r.weight_format, "expert")
        return layered(
            arch,
            wb,
            kv,
            first,
            last,
            compute,
            0,
            devices,
            steps,
            host_only,
            experts,
            capacities(machine),
        )

    def command(self, launch: Launch) -> str:
        return " ".join(self.server_flags(launch))

    def server_flags(self, launch: Launch) -> list[str]:
        """llama-server's flags for the estimate: the GGUF file, the total context over all
        parallel slots, the GPU layers, and the KV cache type."""
        layers = 999 if launch.gpu_layers is None else launch.gpu_layers
        parts = [
            f"llama-server -m {gguf_file(launch)}",
            f"-c {launch.context * launch.sequences}",
        ]
        if not launch.cpu:
            parts.append(f"-ngl {layers}")
        if launch.tensor_split:
            parts.append(f"--tensor-split {','.join(str(n) for n in launch.tensor_split)}")
        if launch.cpu_moe_layers:
            parts.append(f"--n-cpu-moe {launch.cpu_moe_layers}")
        if launch.vision:
            # The vision tower and projector are a file of their own (llama.cpp
            # docs/multimodal.md: llama-server -m model.gguf --mmproj mmproj.gguf).
            parts.append(f"--mmproj mmproj-{launch.model}-F16.gguf")
        if launch.sequences > 1:
            parts.append(f"--parallel {launch.sequences}")
        if launch.kv_precision in QUANTIZED_KV:
            kv = launch.kv_precision
            parts.append(f"-fa on --cache-type-k {kv} --cache-type-v {kv}")
        if launch.rope is not None:
            # The Qwen cards' llama-server line: "--rope-scaling yarn --rope-scale 4
            # --yarn-orig-ctx 32768".
            rope = launch.rope
            parts.append(
                f"--rope-scaling {rope.kind} --rope-scale {rope.factor:g}"
                f" --yarn-orig-ctx {rope.original}"
            )
        return parts


def gguf_file(launch: Launch) -> str:
    return f"{launch.model}-{launch.precision.upper()}.gguf"


ENGINE = LlamaCpp()
