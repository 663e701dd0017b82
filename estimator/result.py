"""What an estimate returns: memory components per device, the verdict, and the reasoning as
structured notes (a key and numbers) that front ends word in the user's language."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .models.types import RopeScaling
from .vocabulary import DeviceKind, Method, Task, Verdict

COMPONENTS = (
    "weights",
    "kv_cache",
    "activations",
    "gradients",
    "optimizer_states",
    "master_weights",
    "adapters",
    "frozen_models",
    "rollout",
    "overhead",
)


@dataclass(frozen=True, slots=True)
class Components:
    """Bytes per memory component."""

    weights: int = 0
    kv_cache: int = 0
    activations: int = 0
    gradients: int = 0
    optimizer_states: int = 0
    master_weights: int = 0
    adapters: int = 0
    frozen_models: int = 0  # training: reference / reward models beside the policy
    rollout: int = 0  # online RL: the generation engine's memory (vLLM share or generate's KV)
    overhead: int = 0

    @property
    def total(self) -> int:
        # Spelled out: asked hundreds of times per answer, and a generator over COMPONENTS
        # with getattr took five times as long.
        return (
            self.weights
            + self.kv_cache
            + self.activations
            + self.gradients
            + self.optimizer_states
            + self.master_weights
            + self.adapters
            + self.frozen_models
            + self.rollout
            + self.overhead
        )

    def __add__(self, other: Components) -> Components:
        return Components(
            self.weights + other.weights,
            self.kv_cache + other.kv_cache,
            self.activations + other.activations,
            self.gradients + other.gradients,
            self.optimizer_states + other.optimizer_states,
            self.master_weights + other.master_weights,
            self.adapters + other.adapters,
            self.frozen_models + other.frozen_models,
            self.rollout + other.rollout,
            self.overhead + other.overhead,
        )

    def as_dict(self) -> dict[str, int]:
        return {name: getattr(self, name) for name in COMPONENTS}


@dataclass(frozen=True, slots=True)
class Note:
    """One step of the calculation or one assumption: a message key and its numbers."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Device:
    label: str
    components: Components
    capacity_bytes: int | None = None  # physical memory
    usable_bytes: int | None = None  # after CUDA context, display, working-set cap, OS
    # What the tools show (estimator/memory/reported.py): torch.cuda.max_memory_allocated, the
    # caching allocator's reserve (max_memory_reserved), and nvidia-smi (reserve + CUDA context
    # + memory torch does not allocate). components.total is the allocated peak plus CUDA
    # managed memory (paged optimizer states).
    allocated_bytes: int | None = None
    reserved_bytes: int | None = None
    device_total_bytes: int | None = None
    layers: int | None = None  # decoder layers it holds in a layer split


@dataclass(frozen=True, slots=True)
class Offload:
    """What lives in CPU RAM when the GPUs cannot hold everything."""

    ram_bytes: int
    gpu_layers: int | None = None
    total_layers: int | None = None
    disk_bytes: int = 0  # NVMe (DeepSpeed ZeRO-Infinity)
    # The leading decoder layers whose MoE experts stay in RAM (llama.cpp --n-cpu-moe N), and
    # how many layers have experts (the last ones; those before them are dense).
    expert_layers: int = 0
    moe_layers: int = 0
    # What stays on the fullest GPU once the rest is in RAM.
    gpu_bytes: int | None = None
    # Training: what the RAM holds, offloaded model states (parameters, gradients, optimizer
    # states) and offloaded activations.
    states_ram_bytes: int = 0
    activation_ram_bytes: int = 0
    ram_usable_bytes: int | None = None  # the RAM the question stated, less the OS's share


@dataclass(frozen=True, slots=True)
class Inputs:
    """The workload after defaults were filled in."""

    model: str
    params: int
    active_params: int
    task: Task
    method: Method
    precision: str
    kv_precision: str | None
    context: int
    batch: int
    concurrency: int
    engine: str
    optimizer: str | None
    lora_rank: int | None
    lora_targets: str | None
    grad_checkpointing: bool | None
    flash_attention: bool
    zero: int
    offload: bool
    machine: str | None
    machine_kind: DeviceKind | None
    gpu_count: int
    device_memory_bytes: int | None
    gpu_memory_utilization: float = 0.9  # the share vLLM/SGLang may take of each GPU
    objective: str | None = None  # training: sft, dpo, grpo, ...
    # Online RL: completions per prompt, their length, and what generates them (transformers'
    # generate() or a colocated vLLM engine with its share of each GPU).
    group_size: int = 0
    generation_length: int = 0
    rollout_engine: str | None = None
    rollout_memory_utilization: float | None = None
    parallelism: str | None = None  # training: single, ddp, zero1-3, fsdp, hsdp, fsdp_grad_op
    liger: bool = False  # training: Liger's fused kernels and loss applied
    vision: bool = False  # a vision-language model: its tower and projector are in the weights
    # The RoPE scaling the context needs beyond the config's (estimator/models/rope.py).
    rope_scaling: RopeScaling | None = None

    @property
    def shards_parameters(self) -> bool:
        """Training with the parameters themselves sharded (ZeRO-3, FSDP's full or hybrid
        shard): offloaded, they are in CPU RAM too, not only the optimizer's states."""
        return self.parallelism in ("zero3", "fsdp", "hsdp")


@dataclass(frozen=True, slots=True)
class Estimate:
    inputs: Inputs
    components: Components  # the whole job: summed over devices
    devices: tuple[Device, ...]
    verdict: Verdict
    offload: Offload | None
    steps: tuple[Note, ...]
    assumptions: tuple[Note, ...]

    @property
    def total_bytes(self) -> int:
        return self.components.total

    @property
    def per_device_bytes(self) -> int:
        return max(d.components.total for d in self.devices)
