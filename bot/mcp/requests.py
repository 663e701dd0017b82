"""What the MCP tools take, as pydantic models: their JSON schemas are the tools' input schemas.

`EstimateRequest` has one field per flag of `llm-sizer estimate`, under the flag's name with
underscores; a field left out takes the flag's default (tests/bot/test_mcp.py holds the two
sets equal). The values reach the same code as the flags, so an MCP client and the command line
get the same numbers.
"""

from __future__ import annotations

import argparse
from functools import cache
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from estimator.vocabulary import Distributed, Method, Objective, Task

from ..i18n import Language

FitQuestion = Literal["context", "concurrency", "precision", "model", "gpu", "gpus", "cloud"]

Tokens = Annotated[
    int | str, Field(description="tokens: a number, or with a suffix such as '32k' (32,768)")
]


class EstimateRequest(BaseModel):
    """One workload on (optionally) one machine, as `llm-sizer estimate` takes it."""

    model_config = ConfigDict(extra="forbid")

    model: str = Field(
        description="a catalog name ('qwen2.5-7b'), a Hugging Face id "
        "('Qwen/Qwen2.5-7B-Instruct') or a size ('7B', a typical architecture of that size)"
    )
    task: Task
    method: Method | None = Field(None, description="training method (default full)")
    precision: str | None = Field(
        None,
        description="weights: bf16, fp16, fp32, fp8, int8, int4, nf4, gptq, awq, mxfp4, "
        "q4_k_m, q8_0, ... (default bf16 on GPUs)",
    )
    kv_precision: str | None = Field(
        None, description="KV cache: bf16, fp16, fp8, int8, q8_0, q4_0"
    )
    context: Tokens | None = Field(
        None, description="tokens per sequence (default 4096 inference, 2048 training)"
    )
    prompt: Tokens | None = Field(
        None, description="prompt tokens processed at once (default the whole context)"
    )
    batch: int | None = Field(None, ge=1, description="sequences per step (training: per GPU)")
    concurrency: int | None = Field(None, ge=1, description="concurrent sequences served")
    gpu: str | None = Field(
        None,
        description="GPU or machine: 'RTX 4090', '4090 laptop', 'A100 80GB', 'M3 Max 64GB', "
        "'cpu' (with ram)",
    )
    gpu_memory: float | None = Field(
        None, description="memory of one GPU in GB, for a GPU not in the catalog (not with gpu)"
    )
    gpus: int | None = Field(None, ge=1, description="number of GPUs (default 1)")
    ram: float | None = Field(None, description="CPU RAM in GB (CPU-only machines, offload)")
    cpu: str | None = Field(
        None, description="CPU memory platform for CPU speed: 'ddr5-6000', 'epyc genoa', ..."
    )
    engine: str | None = Field(
        None,
        description="inference: transformers, vllm, llama.cpp, ollama; training: "
        "transformers, unsloth, torchtune, axolotl, llama-factory, deepspeed, fsdp",
    )
    optimizer: str | None = Field(
        None, description="adamw, paged_adamw, adamw_8bit, paged_adamw_8bit, sgd, adafactor"
    )
    lora_rank: int | None = Field(None, ge=1, description="LoRA rank (default 16)")
    lora_targets: Literal["all", "attention", "mlp"] | None = Field(
        None, description="LoRA on all linear layers (default), attention or MLP only"
    )
    lora_train_embeddings: bool | None = Field(
        None, description="also train the embeddings and lm_head"
    )
    adapter_precision: Literal["fp32", "bf16"] | None = Field(
        None, description="LoRA adapters in fp32 (PEFT's default) or bf16"
    )
    grad_checkpointing: bool | None = Field(None, description="gradient checkpointing (default on)")
    flash_attention: bool | None = Field(
        None, description="flash/SDPA attention (default on); off adds the attention matrix"
    )
    zero: int | None = Field(None, description="DeepSpeed ZeRO / FSDP stage 0-3 across gpus")
    offload: bool | None = Field(
        None, description="offload optimizer states (and ZeRO-3 weights) to CPU RAM"
    )
    gpu_memory_utilization: float | None = Field(
        None, description="vLLM's share of GPU memory (default 0.9)"
    )
    distributed: Distributed | None = Field(
        None,
        description="training's data-parallel backend (default: ZeRO-3 for a full fine-tune "
        "on several GPUs, else DDP)",
    )
    offload_device: Literal["cpu", "nvme"] | None = Field(
        None, description="where offload goes (nvme: DeepSpeed ZeRO-Infinity)"
    )
    liger: bool | None = Field(None, description="Liger kernels (fused linear cross-entropy)")
    compile: bool | None = Field(None, description="torch.compile")
    chunked_loss: bool | None = Field(None, description="torchtune's chunked cross-entropy")
    optimizer_in_backward: bool | None = Field(
        None, description="torchtune: optimizer step fused into the backward pass"
    )
    activation_offload: bool | None = Field(
        None, description="activations (checkpoints) offloaded to CPU RAM"
    )
    mixed_precision: bool | None = Field(
        None, description="fp32 master weights and optimizer states (false: pure bf16)"
    )
    grad_accumulation: int | None = Field(None, ge=1, description="gradient accumulation steps")
    objective: Objective | None = Field(None, description="training objective (default sft)")
    reference_model: bool | None = Field(
        None, description="load a frozen reference model (DPO, KTO, RLOO, PPO)"
    )
    group_size: int | None = Field(None, ge=1, description="completions per prompt (GRPO)")
    generation_length: int | None = Field(None, ge=1, description="completion tokens (GRPO)")
    rollout_engine: Literal["transformers", "vllm"] | None = Field(
        None, description="where online RL's generations come from (vllm: colocated)"
    )
    rollout_memory_utilization: float | None = Field(
        None, description="a colocated vLLM's share of each GPU (default 0.3)"
    )
    reward_model: str | None = Field(None, description="a separate reward (and PPO value) model")
    examples: int | None = Field(None, ge=1, description="training examples, for time and cost")
    example_tokens: int | None = Field(None, ge=1, description="tokens per training example")
    epochs: float | None = Field(None, gt=0, description="passes over the examples (default 1)")
    tokens: int | str | None = Field(
        None, description="training tokens, e.g. 20000000 or '20M' (default one million)"
    )
    kwh_price: float | None = Field(
        None, description="electricity in USD per kWh (default 0.16, the US average)"
    )
    lang: Language | None = Field(
        None, description="language of the texts in the answer (default LLM_SIZER_LANG, else en)"
    )


class FitRequest(EstimateRequest):
    """An inverse question about a workload, as `llm-sizer fit QUESTION` takes it."""

    question: FitQuestion = Field(
        description="context, concurrency, precision: the most that fits the hardware; model: "
        "the largest catalog model; gpu: the smallest GPU; gpus: how many of gpu; cloud: the "
        "cheapest instance"
    )
    model: str | None = Field(  # type: ignore[assignment]
        None, description="as for estimate; not needed for question 'model'"
    )


class AskRequest(BaseModel):
    """A question in plain English or Dutch, as `llm-sizer ask` takes it."""

    model_config = ConfigDict(extra="forbid")

    question: str = Field(
        min_length=1,
        max_length=2000,
        description="e.g. 'can I fine-tune Qwen2.5 7B on an RTX 4090?' or 'kan ik 70B draaien "
        "op 2x 3090?'",
    )
    language: Language | None = Field(
        None, description="reply language when the question does not show it"
    )


@cache
def _flag_defaults(command: str) -> dict[str, object]:
    """The defaults of `llm-sizer estimate` (or `fit`) as its parser fills them in."""
    from ..cli import parser

    argv = [command, *(["context"] if command == "fit" else []), "--model", "", "--task", ""]
    return vars(parser().parse_args(argv))


def namespace(request: EstimateRequest, command: str = "estimate") -> argparse.Namespace:
    """The request as the flags' namespace: each value given as the flag's text (booleans as
    booleans), each one left out as the flag's default."""
    given = {
        name: value if isinstance(value, bool) else str(value)
        for name, value in request.model_dump(exclude_none=True).items()
    }
    return argparse.Namespace(**{**_flag_defaults(command), "model": None, **given})
