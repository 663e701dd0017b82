"""vLLM: paged KV cache in blocks of 16 tokens inside `--gpu-memory-utilization` of each GPU,
a profile run at its batched-token budget, CUDA graphs, tensor parallel over several GPUs.
int4/int8 are AWQ and GPTQ checkpoints; fp8 quantizes a 16-bit checkpoint at load time."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import TYPE_CHECKING

from ..capacity import gpu_usable
from ..errors import EstimatorError
from ..hardware.types import Gpu, Machine
from ..memory import constants as k
from ..memory.activations import layer_peak_per_token
from ..memory.inference import InferencePlan, kv_note
from ..memory.kv_cache import kv_cache
from ..memory.notes import weights_note
from ..models import rope
from ..models.types import Architecture
from ..precision import WeightFormat, weight_bytes
from ..result import Components, Note
from ..speed_factors import Factor
from .base import AMD, GAUDI, INTEL, NVIDIA, EngineBase, Launch
from .repos import published_precision, quantized_repo
from .transformers import DECODE as TRANSFORMERS_DECODE

if TYPE_CHECKING:
    from ..resolve import Resolved


class Vllm(EngineBase):
    name = "vllm"
    label = "vLLM"
    devices = frozenset({"gpu", "cpu"})
    # GPU builds for NVIDIA CUDA, AMD ROCm and Intel XPU, and Intel Gaudi through its plugin
    # (docs.vllm.ai, Installation: "vLLM supports the following hardware platforms").
    vendors = frozenset({NVIDIA, AMD, INTEL, GAUDI})
    # "GPU: compute capability 7.0 or higher" (docs.vllm.ai, GPU installation requirements).
    min_compute_capability = 7.0
    # ROCm requirements (docs/getting_started/installation/gpu.rocm.inc.md): MI200s (gfx90a),
    # MI300 (gfx942), MI350 (gfx950), Radeon RX 7900 (gfx1100/1101), RX 9000 (gfx1200/1201),
    # Ryzen AI MAX / AI 300 (gfx1151/1150).
    rocm_targets: frozenset[str] | None = frozenset(
        {
            "gfx90a",
            "gfx942",
            "gfx950",
            "gfx1100",
            "gfx1101",
            "gfx1200",
            "gfx1201",
            "gfx1150",
            "gfx1151",
        }
    )
    int_formats: Mapping[str, str] = {"int4": "awq", "int8": "gptq-int8"}
    kv_precisions = frozenset({"bf16", "fp16", "fp8"})
    kv8 = "fp8"
    kv_unit = k.VLLM_BLOCK_TOKENS
    parallelism = "tensor"
    ladder = ("bf16", "fp8", "gptq-int8", "awq")
    tried = frozenset({"gpu", "none"})
    # Continuous batching over a paged KV cache, the rest waiting (vLLM scheduler), in the
    # --gpu-memory-utilization share it profiles and keeps at start.
    queues = True
    preallocates = True
    rented = True
    scales_rope = True
    # vLLM allocates every layer's cache for the whole context, sliding layers included.
    cap_sliding = False
    decode: Mapping[str, tuple[Factor, Factor]] = {
        "gpu": (
            Factor(
                0.7, 0.9, "vLLM 0.6.3 on A100: S025 Qwen2.5-7B 84.28 t/s (63% MBU), S027 32B 71%"
            ),
            Factor(
                2.0, 3.5, "S030 Qwen2.5-0.5B at 311.55 t/s: 3.2 ms a token for 0.5 ms of weights"
            ),
        ),
        # vLLM's CPU backend: no published row; taken as transformers' figures.
        "cpu": TRANSFORMERS_DECODE["cpu"],
    }

    def default_for(self, arch: Architecture, machine: Machine | None, sequences: int) -> bool:
        # Several sequences at once on a GPU: the server that batches them.
        return (machine is None or machine.kind == "gpu") and sequences > 1

    def accepts(self, fmt: WeightFormat) -> bool:
        # bitsandbytes LLM.int8() is no vLLM option; its 4-bit runs in-flight (--quantization
        # bitsandbytes).
        return not fmt.gguf and fmt.kind not in ("int8", "mlx", "exl2")

    def runs_format(self, fmt: WeightFormat, machine: Machine | None) -> bool:
        gpu = machine.gpu if machine is not None else None
        if gpu is None:
            return True
        # On Intel GPUs AWQ and GPTQ run through IPEX, which "supports weight bits [4]"
        # (vllm/model_executor/layers/quantization/ipex_quant.py IPEXConfig).
        if gpu.vendor == INTEL and fmt.kind in ("gptq", "awq") and fmt.bits != 4:
            return False
        return fmt.kind not in FP8_KINDS or gpu.fp8 or fp8_weight_only(gpu)

    def format_notes(self, fmt: WeightFormat, machine: Machine | None) -> list[Note]:
        gpu = machine.gpu if machine is not None else None
        if fmt.kind in FP8_KINDS and gpu is not None and fp8_weight_only(gpu):
            return [Note("fp8_weight_only", {"gpu": gpu.name, "engine": self.label})]
        return []

    def default_format(self, arch: Architecture, machine: Machine | None) -> str:
        native = arch.checkpoint_precision
        if native in ("fp8_block", "mxfp4", "fp8"):
            return native
        no_bf16 = machine is not None and machine.gpu is not None and not machine.gpu.bf16
        return "fp16" if no_bf16 else "bf16"

    def usable_bytes(
        self, machine: Machine, utilization: float, index: int
    ) -> tuple[int, list[Note]]:
        if machine.kind != "gpu":
            return super().usable_bytes(machine, utilization, index)
        capacity = int(machine.device_capacities[index] * utilization)
        usable, notes = gpu_usable(machine, index, capacity)
        return usable, [Note("vllm_utilization", {"utilization": utilization}), *notes]

    def memory_plan(self, r: Resolved, machine: Machine | None) -> InferencePlan:
        w = r.workload
        arch = w.model
        tp = machine.count if machine is not None and machine.kind == "gpu" else 1
        check_tensor_parallel(arch, tp)
        wb = weight_bytes(arch, r.weight_format)
        weights = wb.total
        steps = [weights_note(arch, r.weight_format, weights)]
        sequences = w.concurrency * w.batch
        kv = kv_cache(
            self.kv_layout(arch, r.kv_element_bytes),
            context=r.context,
            sequences=sequences,
            block=k.VLLM_BLOCK_TOKENS,
        )
        steps.append(kv_note(arch, kv, k.VLLM_BLOCK_TOKENS))
        large = (
            machine is not None
            and machine.device_bytes >= k.VLLM_LARGE_GPU_BYTES
            and not (machine.gpu is not None and "A100" in machine.gpu.name)
        )
        batched = k.VLLM_BATCHED_TOKENS_LARGE if large else k.VLLM_BATCHED_TOKENS_SMALL
        max_seqs = k.VLLM_MAX_SEQS_LARGE if large else k.VLLM_MAX_SEQS_SMALL
        profile = layer_peak_per_token(arch) * batched + 2 * 4 * arch.vocab_size * max_seqs
        steps.append(
            Note(
                "vllm_profile",
                {"batched_tokens": batched, "max_seqs": max_seqs, "bytes": profile},
            )
        )
        steps.append(
            Note(
                "overhead_vllm",
                {"bytes": k.VLLM_CUDA_GRAPH_BYTES, "utilization": w.gpu_memory_utilization},
            )
        )
        if arch.mla is not None:
            kv_per_device = kv.bytes  # the latent is one "head", replicated on every rank
        else:
            kv_per_device = kv.bytes * max(1, arch.num_kv_heads // tp) // arch.num_kv_heads
        device = Components(
            weights=math.ceil(weights / tp),
            kv_cache=kv_per_device,
            activations=math.ceil(profile / tp),
            overhead=k.VLLM_CUDA_GRAPH_BYTES,
        )
        if tp > 1:
            steps.append(
                Note(
                    "tensor_parallel",
                    {"devices": tp, "kv_heads_per_device": max(1, arch.num_kv_heads // tp)},
                )
            )
        width = split_expert_width(arch, r.weight_format, tp)
        if width is not None:
            steps.append(
                Note(
                    EXPERT_PARALLEL,
                    {"width": width, "devices": tp, "slice": width // tp, "block": FP8_BLOCK},
                )
            )
        return InferencePlan([device] * tp, steps, [], 0, 0)

    def command(self, launch: Launch) -> str:
        parts = serve_flags("vllm serve", launch, "--gpu-memory-utilization")
        if launch.expert_parallel:
            parts.append("--enable-expert-parallel")
        return " ".join(parts)


# Per-tensor and 128x128 block-scaled FP8 checkpoints.
FP8_KINDS = ("fp8", "fp8_block")
# The block of a per-block FP8 checkpoint: quantization_config.weight_block_size [128, 128] in
# DeepSeek-V3's and Qwen3's FP8 releases (their config.json on the Hub).
FP8_BLOCK = 128
# The step note of a block-FP8 MoE whose experts tensor parallel cannot split, which the launch
# command answers with expert parallelism.
EXPERT_PARALLEL = "vllm_expert_parallel"


def split_expert_width(arch: Architecture, fmt: WeightFormat, tp: int) -> int | None:
    """The expert width (moe_intermediate_size) of a block-FP8 MoE checkpoint that `tp` ranks
    cannot split into whole blocks, else None. Tensor parallel gives each rank width / tp rows of
    every expert's gate and up projections, and vLLM refuses a slice that is no multiple of the
    block ("The output_size of gate's and up's weight = 192 is not divisible by weight
    quantization block_n = 128": Qwen3-235B-A22B-FP8, 1536 / 8, vLLM issue #17569); expert
    parallel (--enable-expert-parallel) keeps every expert whole on one rank instead."""
    if tp <= 1 or fmt.kind not in FP8_KINDS:
        return None
    stored = published_precision(arch.name, fmt.name) or arch.checkpoint_precision
    if stored != "fp8_block":
        return None
    widths = {
        lin.d_in for lin in arch.linears if lin.group == "expert" and lin.d_out == arch.hidden_size
    }
    return next((w for w in sorted(widths) if (w // tp) % FP8_BLOCK or w % tp), None)


def fp8_weight_only(gpu: Gpu) -> bool:
    """An NVIDIA GPU without FP8 tensor cores that still runs FP8 weights: Ampere (8.x) through
    the Marlin kernels as W8A16, weights dequantized to 16 bits in the matrix multiply ("Your GPU
    does not have native support for FP8 computation ... Weight-only FP8 compression will be used
    leveraging the Marlin kernel", marlin_utils_fp8.py, logged for a block-FP8 MoE on A800 in
    vLLM issue #40851). Turing and Volta have neither."""
    major, _, _ = gpu.compute_capability.partition(".")
    return not gpu.fp8 and gpu.vendor == NVIDIA and major.isdigit() and int(major) >= 8


def check_tensor_parallel(arch: Architecture, tp: int) -> None:
    """Tensor parallel must divide the attention heads, and divide the KV heads or be a multiple
    of them (vLLM replicates KV heads when there are fewer than ranks)."""
    if arch.num_heads % tp:
        raise EstimatorError("tp_does_not_divide_heads", tp=tp, heads=arch.num_heads)
    if arch.mla is None and tp > arch.num_kv_heads and tp % arch.num_kv_heads:
        raise EstimatorError("tp_does_not_divide_kv_heads", tp=tp, kv_heads=arch.num_kv_heads)
    if arch.mla is None and tp <= arch.num_kv_heads and arch.num_kv_heads % tp:
        raise EstimatorError("tp_does_not_divide_kv_heads", tp=tp, kv_heads=arch.num_kv_heads)


def tensor_parallel_sizes(arch: Architecture, most: int) -> list[int]:
    """The GPU counts up to `most` tensor parallel accepts for `arch`."""
    out = []
    for n in range(1, most + 1):
        try:
            check_tensor_parallel(arch, n)
        except EstimatorError:
            continue
        out.append(n)
    return out


def serve_flags(program: str, launch: Launch, utilization_flag: str) -> list[str]:
    """The flags vLLM and SGLang share: the checkpoint (a quantized repository for AWQ/GPTQ,
    load-time fp8 otherwise), context, utilisation, tensor parallel size and KV dtype."""
    repo, load_time = quantized_repo(launch.model, launch.repo, launch.precision)
    parts = [f"{program} {repo}" if program == "vllm serve" else f"{program} --model-path {repo}"]
    context_flag = "--max-model-len" if program == "vllm serve" else "--context-length"
    parts.append(f"{context_flag} {launch.context}")
    if launch.rope is not None:
        parts.append(rope_override(program, launch))
    parts.append(f"{utilization_flag} {launch.utilization:g}")
    if launch.gpus > 1:
        parts.append(
            f"--tensor-parallel-size {launch.gpus}"
            if program == "vllm serve"
            else f"--tp {launch.gpus}"
        )
    if load_time:
        parts.append(f"--quantization {load_time}")
    if launch.precision == "fp16":
        parts.append("--dtype float16")
    if launch.kv_precision == "fp8":
        parts.append(
            "--kv-cache-dtype fp8" if program == "vllm serve" else "--kv-cache-dtype fp8_e4m3"
        )
    return parts


def rope_override(program: str, launch: Launch) -> str:
    """The model card's rope_scaling as a config override. vLLM: --hf-overrides (its
    --rope-scaling, which the Qwen cards show, was removed in vLLM 0.11.1, vllm PR #28006);
    YaRN gives it original x factor positions. SGLang: --json-model-override-args, as the cards
    show, with max_position_embeddings raised too: SGLang takes max_position_embeddings as the
    longest context when rope_scaling names original_max_position_embeddings
    (get_context_length, sglang/srt/hf_transformers_utils.py) and refuses a longer
    --context-length unless SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN is set."""
    assert launch.rope is not None
    fields = rope.config_fields(launch.rope)
    if program == "vllm serve":
        return f"--hf-overrides '{json.dumps({'rope_scaling': fields})}'"
    override = {"rope_scaling": fields, "max_position_embeddings": launch.context}
    return f"--json-model-override-args '{json.dumps(override)}'"


ENGINE = Vllm()
