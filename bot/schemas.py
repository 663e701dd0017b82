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


class DeviceOut(BaseModel):
    label: str
    total_bytes: int
    capacity_bytes: int | None
    usable_bytes: int | None
    components: dict[str, int]


class OffloadOut(BaseModel):
    ram_bytes: int
    gpu_layers: int | None
    total_layers: int | None


class MemoryOut(BaseModel):
    total_bytes: int
    per_device_bytes: int
    components: dict[str, int]
    devices: list[DeviceOut]
    offload: OffloadOut | None


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


class AnswerOut(BaseModel):
    status: Literal["answered", "need_more"]
    inputs: InputsOut
    memory: MemoryOut
    verdict: Literal["fits", "tight", "offload", "does_not_fit", "unknown"]
    steps: list[str]
    recommendations: list[RecommendationOut]
    speed: SpeedOut | None = None
    cost: CostOut | None = None


class FitOut(BaseModel):
    """`llm-sizer fit QUESTION --json`: the answer to an inverse question, with the estimate
    at that answer (None when nothing fits)."""

    question: str
    answer: str | int | None
    answer_text: str
    estimate: AnswerOut | None
