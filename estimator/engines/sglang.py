"""SGLang: the model's weights and a token-granular KV pool (page size 1) fill
`--mem-fraction-static` of each GPU; the rest of the GPU is left for activations (chunked
prefill) and CUDA graphs. The radix cache shares common prompt prefixes between requests, so
only tokens that differ are cached per sequence; the estimate counts every sequence's own
context (no sharing), which is what a pool must hold for unrelated prompts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from ..capacity import gpu_usable
from ..hardware.types import Machine
from ..memory.inference import InferencePlan, kv_note
from ..memory.kv_cache import kv_cache
from ..memory.notes import weights_note
from ..models.types import Architecture
from ..precision import WeightFormat, weight_bytes
from ..result import Components, Note
from ..speed_factors import Factor
from .base import AMD, INTEL, NVIDIA, Launch
from .vllm import Vllm, check_tensor_parallel, serve_flags

if TYPE_CHECKING:
    from ..resolve import Resolved

# python/sglang/srt/server_args.py (v0.4.x __post_init__): mem_fraction_static by tensor
# parallel size: 1 GPU 0.88, TP2 0.87, TP4 0.85, TP8 0.81, TP16 0.79.
MEM_FRACTION = ((16, 0.79), (8, 0.81), (4, 0.85), (2, 0.87), (1, 0.88))


class Sglang(Vllm):
    name = "sglang"
    label = "SGLang"
    aliases = ("sgl", "sg-lang")
    devices = frozenset({"gpu"})
    # Its hardware platforms (docs.sglang.io, Hardware Platforms): NVIDIA and AMD GPUs, Intel
    # XPU, plus TPU and Ascend NPUs, which the catalog does not list; no Gaudi.
    vendors = frozenset({NVIDIA, AMD, INTEL})
    # vLLM's ROCm list is no limit on SGLang's own ROCm build.
    rocm_targets = None
    kv_unit = 1
    # SGLang keeps the sliding window of Gemma-style layers only when told (--enable-swa...);
    # by default every layer caches the whole context, as in vLLM.
    cap_sliding = False
    # Planned when asked for: it plans as vLLM does.
    tried: frozenset[str] = frozenset()
    # No SGLang speed row in the calibration set: vLLM's figures (the same bandwidth-bound
    # decode with FlashInfer/FlashAttention kernels and CUDA graphs).
    decode: Mapping[str, tuple[Factor, Factor]] = {"gpu": Vllm.decode["gpu"]}

    def default_for(self, arch: Architecture, machine: Machine | None, sequences: int) -> bool:
        # Answered only when asked for: vLLM is the batching server most people start.
        return False

    def accepts(self, fmt: WeightFormat) -> bool:
        return super().accepts(fmt) and fmt.kind != "nf4"

    def default_utilization(self, gpus: int) -> float:
        return next(share for size, share in MEM_FRACTION if gpus >= size)

    def usable_bytes(
        self, machine: Machine, utilization: float, index: int
    ) -> tuple[int, list[Note]]:
        capacity = int(machine.device_capacities[index] * utilization)
        usable, notes = gpu_usable(machine, index, capacity)
        return usable, [Note("sglang_fraction", {"utilization": utilization}), *notes]

    def memory_plan(self, r: Resolved, machine: Machine | None) -> InferencePlan:
        w = r.workload
        arch = w.model
        tp = machine.count if machine is not None and machine.kind == "gpu" else 1
        check_tensor_parallel(arch, tp)
        weights = weight_bytes(arch, r.weight_format).total
        steps = [weights_note(arch, r.weight_format, weights)]
        kv = kv_cache(
            self.kv_layout(arch, r.kv_element_bytes),
            context=r.context,
            sequences=w.concurrency * w.batch,
        )
        steps.append(kv_note(arch, kv, 1))
        steps.append(Note("sglang_reserve", {"utilization": w.gpu_memory_utilization}))
        if arch.mla is not None:
            kv_per_device = kv.bytes
        else:
            kv_per_device = kv.bytes * max(1, arch.num_kv_heads // tp) // arch.num_kv_heads
        device = Components(weights=-(-weights // tp), kv_cache=kv_per_device)
        if tp > 1:
            steps.append(
                Note(
                    "tensor_parallel",
                    {"devices": tp, "kv_heads_per_device": max(1, arch.num_kv_heads // tp)},
                )
            )
        return InferencePlan([device] * tp, steps, [], 0, 0)

    def command(self, launch: Launch) -> str:
        return " ".join(
            serve_flags("python -m sglang.launch_server", launch, "--mem-fraction-static")
        )


ENGINE = Sglang()
