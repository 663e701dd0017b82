"""What every inference engine tells the estimator: its weight formats and what "int4"/"int8"
mean in it, its KV-cache precisions and allocation unit, its memory plan, how much of a device it
may use, its speed factors, the precision ladder the searches walk, and its launch command.

One module per engine implements `Engine`; the registry (estimator/engines/__init__.py) lists
them. Adding an engine is one module, one registry line and its catalog strings.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from ..capacity import gpu_usable, host_usable
from ..hardware.types import Gpu, Machine
from ..memory.constants import VLLM_UTILIZATION
from ..memory.kv_cache import KvLayout, layout
from ..models.types import Architecture, RopeScaling
from ..precision import WeightFormat
from ..result import Note
from ..speed_factors import PREFILL, Factor

if TYPE_CHECKING:
    from ..memory.inference import InferencePlan
    from ..resolve import Resolved


@dataclass(frozen=True, slots=True)
class Launch:
    """Everything a launch command states, taken from the estimate it runs."""

    model: str  # catalog name (or the name the question gave)
    repo: str  # Hugging Face repository of the unquantized checkpoint
    precision: str  # weight format name (estimator/precision.py FORMATS)
    kv_precision: str
    context: int
    sequences: int  # sequences decoded at once
    gpus: int
    utilization: float  # share of each GPU the engine may take (vLLM, SGLang)
    # Layers kept on the GPUs when the rest run from CPU RAM (None: all on the GPUs).
    gpu_layers: int | None = None
    total_layers: int | None = None
    # The first decoder layers whose MoE experts stay in CPU RAM (llama.cpp --n-cpu-moe N), 0:
    # none.
    cpu_moe_layers: int = 0
    # Share of the layers per GPU on a mixed set (llama.cpp --tensor-split), () when even.
    tensor_split: tuple[int, ...] = ()
    apple: bool = False  # an Apple machine (MLX, Metal)
    # MoE experts spread whole over the GPUs (vLLM --enable-expert-parallel) rather than split.
    expert_parallel: bool = False
    cpu: bool = False  # no GPU at all: nothing to offload layers to
    # The RoPE scaling the context needs (estimator/models/rope.py), None: the config's.
    rope: RopeScaling | None = None
    vision: bool = False  # a vision-language model whose tower and projector are counted


class Engine(Protocol):
    """An inference engine. Its traits are read-only properties so that an engine's class
    constants may be narrower than stated here (a tuple of fixed length, a str for str | None)."""

    # Canonical name, as in Workload.engine.
    @property
    def name(self) -> str: ...

    # How answers name it.
    @property
    def label(self) -> str: ...

    # What people type for it.
    @property
    def aliases(self) -> tuple[str, ...]: ...

    # Device kinds it runs on (estimator/vocabulary.py DEVICE_KINDS).
    @property
    def devices(self) -> frozenset[str]: ...

    # GPU vendors it has a backend for, as the GPU catalog spells them (None: any).
    @property
    def vendors(self) -> frozenset[str] | None: ...

    # "int4"/"int8" (and float aliases) -> its format.
    @property
    def int_formats(self) -> Mapping[str, str]: ...

    @property
    def kv_precisions(self) -> frozenset[str]: ...

    # Its 8-bit KV cache, for the searches (None: it has none).
    @property
    def kv8(self) -> str | None: ...

    # Tokens of one KV allocation unit (vLLM pages, llama.cpp cells).
    @property
    def kv_unit(self) -> int: ...

    # How it uses several GPUs: "tensor" or "layers".
    @property
    def parallelism(self) -> str: ...

    # Can keep decoder layers in CPU RAM.
    @property
    def offloads_layers(self) -> bool: ...

    # Can keep MoE expert weights in CPU RAM (attention on the GPU).
    @property
    def offloads_experts(self) -> bool: ...

    # Layers kept in CPU RAM are copied to the GPU and run there at every forward pass, instead
    # of running on the CPU.
    @property
    def streams_offload(self) -> bool: ...

    # Weight formats, best quality first, for the searches.
    @property
    def ladder(self) -> tuple[str, ...]: ...

    # Its command is a shell line that starts a server, worth pasting into an answer.
    @property
    def launch_hint(self) -> bool: ...

    # Device kinds the planner tries it on unasked ("none": with no hardware given), in
    # registry order.
    @property
    def tried(self) -> frozenset[str]: ...

    # A server that batches the requests its KV cache holds and queues the rest.
    @property
    def queues(self) -> bool: ...

    # Takes its share of every GPU (default_utilization) at start, whatever the model needs.
    @property
    def preallocates(self) -> bool: ...

    # What the rented GPU servers of the plans elsewhere run.
    @property
    def rented(self) -> bool: ...

    # Its command can enable the RoPE scaling a model card documents (Launch.rope).
    @property
    def scales_rope(self) -> bool: ...

    def runs_on(self, machine: Machine | None) -> bool: ...

    def runs_model(self, arch: Architecture) -> bool: ...

    def accepts(self, fmt: WeightFormat) -> bool: ...

    def runs_format(self, fmt: WeightFormat, machine: Machine | None) -> bool: ...

    # What the answer should say about how the machine runs the format (FP8 weights on a GPU
    # without FP8 tensor cores).
    def format_notes(self, fmt: WeightFormat, machine: Machine | None) -> list[Note]: ...

    # Whether it is the answer's engine when the question names none (the first in registry
    # order that says so).
    def default_for(self, arch: Architecture, machine: Machine | None, sequences: int) -> bool: ...

    def default_format(self, arch: Architecture, machine: Machine | None) -> str: ...

    def default_kv(self, fmt: WeightFormat) -> str: ...

    def default_context(self, arch: Architecture, machine: Machine | None) -> int | None: ...

    def default_utilization(self, gpus: int) -> float: ...

    def kv_layout(self, arch: Architecture, element_bytes: float) -> KvLayout: ...

    def memory_plan(self, r: Resolved, machine: Machine | None) -> InferencePlan: ...

    def usable_bytes(
        self, machine: Machine, utilization: float, index: int
    ) -> tuple[int, list[Note]]: ...

    def decode_factors(self, kind: str) -> tuple[Factor, Factor]: ...

    def prefill_factor(self, kind: str) -> Factor: ...

    def command(self, launch: Launch) -> str: ...


# GPU vendors as estimator/data/gpus.json spells them.
NVIDIA = "NVIDIA"
AMD = "AMD"
INTEL = "Intel"
GAUDI = "Intel (Habana)"


def _capability(text: str) -> float:
    """An NVIDIA compute capability ("8.6"); other vendors' architecture names ("gfx1100") are
    not limited by it."""
    try:
        return float(text)
    except ValueError:
        return float("inf")


def _rocm_target(text: str) -> str | None:
    """The LLVM target of an AMD GPU's compute capability field ("n/a (gfx1100)")."""
    found = re.search(r"gfx\w+", text)
    return found.group() if found else None


def capacities(machine: Machine | None) -> tuple[int, ...]:
    """Each GPU's memory when a machine mixes GPUs (layer splits follow it), else ()."""
    return machine.device_capacities if machine is not None and machine.mixed else ()


class EngineBase:
    """Defaults most engines share; each module overrides what differs."""

    name = ""
    label = ""
    aliases: tuple[str, ...] = ()
    devices: frozenset[str] = frozenset({"gpu"})
    vendors: frozenset[str] | None = None
    int_formats: Mapping[str, str] = {}
    kv_precisions: frozenset[str] = frozenset({"bf16", "fp16"})
    kv8: str | None = None
    kv_unit = 1
    parallelism = "layers"
    offloads_layers = False
    offloads_experts = False
    streams_offload = False
    ladder: tuple[str, ...] = ()
    launch_hint = True
    tried: frozenset[str] = frozenset()
    queues = False
    preallocates = False
    rented = False
    scales_rope = False
    # MLA models cache the latent (absorbed projections) unless the engine expands the heads.
    mla_latent = True
    # Sliding-window layers keep only the window unless the engine allocates them in full.
    cap_sliding = True
    decode: Mapping[str, tuple[Factor, Factor]] = {}
    prefill: Mapping[str, Factor] = {}
    # The oldest NVIDIA architecture the engine's CUDA build supports (None: any).
    min_compute_capability: float | None = None
    # The AMD LLVM targets its ROCm build supports (None: any its vendors allow).
    rocm_targets: frozenset[str] | None = None
    # The config model_types it has an implementation of (None: every architecture here).
    model_types: frozenset[str] | None = None
    # Whether it reads images for a vision-language model (its vision tower and projector).
    sees_images = True

    def runs_model(self, arch: Architecture) -> bool:
        if arch.vision_params and not self.sees_images:
            return False
        return self.model_types is None or arch.model_type in self.model_types

    def runs_on(self, machine: Machine | None) -> bool:
        if machine is None:
            return True
        if machine.kind not in self.devices:
            return False
        if machine.kind != "gpu":
            return True
        return all(self._runs_on_board(g) for g in machine.boards)

    def _runs_on_board(self, gpu: Gpu) -> bool:
        if self.vendors is not None and gpu.vendor not in self.vendors:
            return False
        low = self.min_compute_capability
        if gpu.vendor == NVIDIA and low is not None:
            return _capability(gpu.compute_capability) >= low
        if gpu.vendor == AMD and self.rocm_targets is not None:
            return _rocm_target(gpu.compute_capability) in self.rocm_targets
        return True

    def default_kv(self, fmt: WeightFormat) -> str:
        return "fp32" if fmt.name == "fp32" else "bf16"

    def default_for(self, arch: Architecture, machine: Machine | None, sequences: int) -> bool:
        return False

    def runs_format(self, fmt: WeightFormat, machine: Machine | None) -> bool:
        """Whether the machine's GPU has the kernels the format needs in this engine."""
        return True

    def format_notes(self, fmt: WeightFormat, machine: Machine | None) -> list[Note]:
        return []

    def default_context(self, arch: Architecture, machine: Machine | None) -> int | None:
        """The context the engine runs with when the question gives none (None: the answer's
        usual default)."""
        return None

    def default_utilization(self, gpus: int) -> float:
        """The share of each GPU the engine takes unless told otherwise (vLLM's default)."""
        return VLLM_UTILIZATION

    def kv_layout(self, arch: Architecture, element_bytes: float) -> KvLayout:
        return layout(arch, element_bytes, mla_latent=self.mla_latent, cap_sliding=self.cap_sliding)

    def usable_bytes(
        self, machine: Machine, utilization: float, index: int
    ) -> tuple[int, list[Note]]:
        if machine.kind != "gpu":
            return host_usable(machine)
        return gpu_usable(machine, index, machine.device_capacities[index])

    def decode_factors(self, kind: str) -> tuple[Factor, Factor]:
        return self.decode[kind]

    def prefill_factor(self, kind: str) -> Factor:
        return self.prefill.get(kind) or PREFILL[kind]
