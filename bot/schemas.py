"""The JSON contract of `--json` (documented in the README), as pydantic models. Keys are stable; new ones may
be added, none removed."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel


class InputsOut(BaseModel):
    model: str
    params: int
    active_params: int
    task: str
    method: str
    precision: str
    kv_precision: str | None
    context: int
    batch: int
    concurrency: int
    gpu: str | None
    gpu_count: int
    device_memory_bytes: int | None
    engine: str
    optimizer: str | None
    lora_rank: int | None
    lora_targets: str | None
    grad_checkpointing: bool | None
    flash_attention: bool
    zero: int
    offload: bool
    assumed: list[str]
    objective: str | None = None  # training: sft, dpo, grpo, ...
    parallelism: str | None = None  # training: single, ddp, zero1-3, fsdp, hsdp, fsdp_grad_op


class DeviceOut(BaseModel):
    label: str
    total_bytes: int
    capacity_bytes: int | None
    usable_bytes: int | None
    components: dict[str, int]
    # What the tools would show on this device: torch.cuda.max_memory_allocated, the caching
    # allocator's reserve (max_memory_reserved), and nvidia-smi (reserve + CUDA context + memory
    # torch does not allocate).
    allocated_peak_bytes: int | None = None
    reserved_peak_bytes: int | None = None
    device_total_bytes: int | None = None


class OffloadOut(BaseModel):
    ram_bytes: int
    gpu_layers: int | None
    total_layers: int | None
    disk_bytes: int = 0  # NVMe (DeepSpeed ZeRO-Infinity)
    expert_layers: int = 0  # llama.cpp --n-cpu-moe: leading layers whose experts are in RAM


class MemoryOut(BaseModel):
    # total_bytes: the estimated peak of every device added up (the whole job);
    # per_device_bytes: the fullest device's. Both count what torch allocates at the peak plus
    # CUDA managed memory (paged optimizer states). The three views below are the fullest
    # device's, as torch.cuda.max_memory_allocated, torch.cuda.max_memory_reserved and nvidia-smi
    # would show them.
    total_bytes: int
    per_device_bytes: int
    components: dict[str, int]
    devices: list[DeviceOut]
    offload: OffloadOut | None
    allocated_peak_bytes: int | None = None
    reserved_peak_bytes: int | None = None
    device_total_bytes: int | None = None


class RecommendationOut(BaseModel):
    rule: str
    title: str
    detail: str
    memory_bytes: int | None
    verdict: str | None
    primary: bool = False  # the first rung of a fit ladder that fits: the recommendation
    group: str = "note"


class RangeOut(BaseModel):
    low: float
    high: float


class PlanOffloadOut(BaseModel):
    what: str  # layers, experts, optimizer, activations, embeddings
    ram_bytes: int
    gpu_layers: int | None
    expert_layers: int  # llama.cpp --n-cpu-moe N


class PlanOut(BaseModel):
    """One of the planner's plans (best first in `plans`)."""

    engine: str
    precision: str
    kv_precision: str | None
    method: str
    gpus: int
    parallelism: str  # single, tensor, layers, ddp, zero2, zero3, fsdp, cpu, unified
    offload: PlanOffloadOut | None
    per_device_bytes: int
    verdict: Literal["fits", "tight", "offload", "does_not_fit", "unknown"]
    context_max: int | None
    decode_tokens_per_s: RangeOut | None  # one sequence; null unless the plan runs
    prefill_tokens_per_s: RangeOut | None  # the prompt; null unless the plan runs
    # Partly in RAM on a GPU known by its memory alone: the most tokens/s the part in RAM allows
    decode_at_most_tokens_per_s: float | None = None
    command: str
    hardware: str  # yours, more_gpus, cloud, any
    machine: str | None
    usd_per_hour: float | None
    low_bits: bool  # below 4 bits per weight
    quality_note: str | None  # why such a format costs quality, with its source
    kind: str  # what it changes: as_asked, precision, engine, offload, method, ...
    changes: list[str]  # every setting that differs from the question (kind is the first)


class TrainingTimeOut(BaseModel):
    tokens: int
    tokens_per_s: RangeOut
    hours: RangeOut


class SpeedOut(BaseModel):
    decode_tokens_per_s: RangeOut | None  # one sequence
    decode_total_tokens_per_s: RangeOut | None  # all concurrent sequences
    prefill_tokens_per_s: RangeOut | None
    time_to_first_token_s: RangeOut | None
    training: TrainingTimeOut | None


class CloudOut(BaseModel):
    provider: str
    instance: str
    gpu: str
    gpu_count: int
    usd_per_hour: float
    price_date: str
    verdict: str
    job_usd: RangeOut | None
    usd_per_million_tokens: RangeOut | None


class ElectricityOut(BaseModel):
    watts: float
    kwh_price_usd: float
    usd_per_hour: float
    job_usd: RangeOut | None


class PurchaseOut(BaseModel):
    usd: float
    verified: bool
    break_even_hours: float | None


class CostOut(BaseModel):
    cloud: list[CloudOut]
    electricity: ElectricityOut | None
    purchase: PurchaseOut | None


class ServingOut(BaseModel):
    """A vLLM or SGLang server asked for more users than fit at full length: it starts, runs
    `at_once` sequences of `context` tokens together and queues the rest."""

    asked: int
    at_once: int
    context: int
    average_tokens: int  # an assumed shorter average conversation
    at_average: int  # sequences of that average that run together
    decode_tokens_per_s: RangeOut | None  # each of the `at_once` sequences


class AnswerOut(BaseModel):
    status: Literal["answered", "need_more"]
    inputs: InputsOut
    memory: MemoryOut
    verdict: Literal["fits", "tight", "offload", "does_not_fit", "unknown"]
    steps: list[str]
    recommendations: list[RecommendationOut]
    speed: SpeedOut | None = None
    cost: CostOut | None = None
    plans: list[PlanOut] = []
    serving: ServingOut | None = None


class FitBaselineOut(BaseModel):
    """The answer in the question's own (or 16-bit) format, when the best differs."""

    answer: str | int | None
    precision: str | None
    engine: str | None


class FitOut(BaseModel):
    """`llm-sizer fit QUESTION --json`: the answer to an inverse question, with the estimate
    at that answer (None when nothing fits), the format and engine that give it, and the
    as-asked answer beside it."""

    question: str
    answer: str | int | None
    answer_text: str
    precision: str | None = None
    engine: str | None = None
    kv_precision: str | None = None
    baseline: FitBaselineOut | None = None
    estimate: AnswerOut | None
