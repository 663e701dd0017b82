"""What a message says about the question: the slots the parser fills and the dialogue merges.

A pydantic model, because it crosses boundaries: it is stored with the conversation state and
returned by `llm-sizer ask --json`.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ..i18n import Language

Inverse = Literal[
    "largest_model",
    "max_context",
    "max_concurrency",
    "max_batch",
    "best_precision",
    "smallest_gpu",
    "cheapest_cloud",
    "gpus_needed",
]


# Each inverse question as `llm-sizer fit` names it; apart from "cloud", that name is also the
# slot the question computes ("max_context" finds the largest `context`).
FIT_QUESTION: dict[str, str] = {
    "largest_model": "model",
    "max_context": "context",
    "max_concurrency": "concurrency",
    "max_batch": "batch",
    "best_precision": "precision",
    "smallest_gpu": "gpu",
    "gpus_needed": "gpus",
    "cheapest_cloud": "cloud",
}
HARDWARE_SLOTS = frozenset(
    {"gpu", "gpus", "gpu_memory_gb", "ram_gb", "apple", "cpu", "cpu_only", "laptop"}
)
# Slots about how a model is trained: a new question about running a model drops them.
TRAINING_SLOTS = frozenset(
    {
        "zero",
        "offload",
        "offload_to",
        "grad_checkpointing",
        "optimizer",
        "lora_rank",
        "lora_targets",
        "packing",
        "framework",
        "liger",
        "distributed",
        "activation_offload",
        "objective",
        "reference_model",
        "rollout_engine",
        "group_size",
        "generation_length",
        "examples",
        "example_tokens",
        "epochs",
        "dataset_tokens",
    }
)
Objective = Literal["sft", "dpo", "ipo", "orpo", "kto", "simpo", "grpo", "rloo", "ppo"]


class Draft(BaseModel):
    """Slots of one question; None means the message did not say."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    model: str | None = None  # catalog name, Hugging Face id or a size like "7B"
    task: Literal["inference", "training"] | None = None
    method: Literal["full", "lora", "qlora", "freeze"] | None = None
    precision: str | None = None
    kv_precision: str | None = None
    engine: str | None = None  # as the user named it: "vllm", "ollama", "mlx"
    context: int | None = None  # tokens per sequence (the sequence length, for training)
    batch: int | None = None
    concurrency: int | None = None
    # The GPU(s) in words the hardware reader reads back: a catalog name, the words as said when
    # a variant was assumed ("h100"), a set ("2x GeForce RTX 3090 + GeForce RTX 3060"), or an
    # unknown GPU as said (answered with "did you mean ...?").
    gpu: str | None = None
    gpus: int | None = None
    gpu_memory_gb: float | None = None
    ram_gb: float | None = None
    apple: str | None = None  # "M3 Max 64GB"
    cpu: str | None = None  # a CPU platform or device as said ("epyc genoa", "raspberry pi 5")
    cpu_only: bool | None = None
    laptop: bool | None = None
    cloud: bool | None = None
    inverse: Inverse | None = None
    ml_kind: Literal["classical", "neural_net"] | None = None
    rows: int | None = None
    features: int | None = None
    data_gb: float | None = None  # the data set's size as said ("a 10GB csv")
    ml_params: int | None = None
    retrain_often: bool | None = None
    asks_ram: bool | None = None  # "how much RAM do I need": the answer, not a question back
    asks_faster: bool | None = None  # "which is faster": a comparison chosen by speed
    # How it is trained.
    zero: int | None = Field(default=None, ge=0, le=3)  # DeepSpeed ZeRO stage
    offload: bool | None = None  # optimizer states (and with ZeRO-3 parameters) off the GPU
    offload_to: Literal["cpu", "nvme"] | None = None
    grad_checkpointing: bool | None = None
    optimizer: str | None = None  # "adamw_8bit", "paged_adamw_8bit", "adafactor", "lion"
    lora_rank: int | None = None
    lora_targets: Literal["all", "attention"] | None = None
    packing: bool | None = None
    framework: str | None = None  # "unsloth", "fsdp", "deepspeed", "axolotl"
    liger: bool | None = None  # Liger kernels
    distributed: Literal["ddp", "hsdp"] | None = None  # a backend no framework name implies
    activation_offload: bool | None = None  # activations in CPU RAM (not the optimizer states)
    objective: Objective | None = None  # what it is trained for: "dpo", "grpo"
    reference_model: bool | None = None  # the objective's frozen reference loaded (or not)
    # Online RL: where the generations come from, completions per prompt and their length.
    rollout_engine: Literal["vllm"] | None = None
    group_size: int | None = None
    generation_length: int | None = None
    # The training data, for the training time and cost.
    examples: int | None = None
    example_tokens: int | None = None
    epochs: float | None = None
    dataset_tokens: int | None = None  # the data's size in tokens, when said as one number
    kwh_price: float | None = None  # electricity price per kWh, as the user said it
    purpose: Literal["code", "vision"] | None = None  # "a coding model", "for images"
    # What the user may spend on hardware, in the currency said ("for 1000 euro").
    budget: float | None = None
    budget_currency: Literal["USD", "EUR", "GBP"] | None = None
    profile: str | None = None  # a saved hardware profile the question names ("on my mac")
    # Options the question compares ("an L4 or a T4"): each the slots that differ.
    compare: list[Draft] | None = None
    language: Language | None = None

    def merged_over(self, earlier: Draft) -> Draft:
        """This message's slots on top of an earlier question's (a follow-up)."""
        mine = self.model_dump(exclude_none=True)
        return Draft.model_validate({**earlier.model_dump(exclude_none=True), **mine})

    def has_hardware(self) -> bool:
        return bool(self.gpu or self.gpu_memory_gb or self.apple or self.cpu_only)
