"""The training plans a practitioner would try: full fine-tuning, LoRA and QLoRA; on one GPU
with an 8-bit or paged optimizer or the optimizer in RAM (ZeRO-Offload); on several GPUs
sharded with ZeRO-2, ZeRO-3 (with and without CPU offload) or FSDP rather than a full replica
per GPU; gradient checkpointing on (the default). Commands are the DeepSpeed, torchtune or
PEFT/TRL settings that produce the estimate."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from ..errors import EstimatorError
from ..estimate import estimate
from ..frameworks.optimizers import BITSANDBYTES
from ..hardware.types import Machine
from ..result import Estimate, Inputs
from ..vocabulary import FITTING, Method
from ..workload import Workload
from .inference import Option

METHODS: tuple[Method, ...] = ("full", "lora", "qlora")
# Adapters on several GPUs replicate only the frozen base and the small adapter states, which is
# what PEFT's multi-GPU examples run (DDP); full fine-tuning is sharded.
_SHARDED: tuple[dict[str, Any], ...] = (
    dict(engine="deepspeed", zero=2),
    dict(engine="deepspeed", zero=3),
    dict(engine="torchtune", zero=0),
    dict(engine="deepspeed", zero=3, offload=True),
)
_SINGLE: tuple[dict[str, Any], ...] = (
    dict(),
    dict(optimizer="adamw_8bit"),
    dict(optimizer="paged_adamw_8bit"),
    dict(engine="deepspeed", zero=2, offload=True),
)
# Adapters on one GPU: PEFT as it comes, then Unsloth (fused kernels and loss, checkpoints in
# RAM), what people run on a single consumer card, then the optimizer in RAM.
_SINGLE_ADAPTERS: tuple[dict[str, Any], ...] = (
    dict(),
    dict(engine="unsloth"),
    dict(engine="deepspeed", zero=2, offload=True),
)


def _estimate(w: Workload, m: Machine | None) -> Estimate | None:
    try:
        return estimate(w, m)
    except EstimatorError:
        return None


# QLoRA whose shards do not fit: FSDP with CPU offload, the path of Answer.AI's fsdp_qlora and
# PEFT's "FSDP + QLoRA" guide (70B on 2x 24 GB), before DeepSpeed's.
_QLORA_OFFLOAD = dict(distributed="fsdp", offload=True)


def _settings(method: str, m: Machine | None) -> tuple[dict[str, Any], ...]:
    gpus = m.count if m is not None and m.kind == "gpu" else 1
    if gpus > 1 and method == "qlora":
        return (dict(), *_SHARDED[:-1], _QLORA_OFFLOAD, _SHARDED[-1])
    if gpus > 1:
        return ((dict(),) if method != "full" else ()) + _SHARDED
    single = _SINGLE if method == "full" else _SINGLE_ADAPTERS
    return tuple(s for s in single if _runs_on(s, m))


def _runs_on(settings: dict[str, Any], m: Machine | None) -> bool:
    """Whether a setting is something to try on the machine. Without a GPU of its own (an Apple
    chip, a CPU) not bitsandbytes' optimizers, written for GPUs, nor the optimizer moved to CPU
    RAM: that RAM is the memory the model is in already (Apple's unified memory)."""
    if m is None or m.kind == "gpu":
        return True
    return not settings.get("offload") and settings.get("optimizer") not in BITSANDBYTES


def options(w: Workload, m: Machine | None) -> Iterator[Option]:
    """The asked workload, then each method under the settings that fit it on the hardware:
    for each method the first setting that fits, in the order above (plainest first), else the
    first that runs with part of it in CPU RAM. RAM the question does not state is no reason to
    skip those: the plan says how much it needs."""
    asked = _estimate(w, m)
    if asked is not None:
        yield Option(w, m, asked)
    fits = asked is not None and asked.verdict in FITTING
    # The asked method and the lighter ones: someone asking about QLoRA is not sent to a full
    # fine-tune.
    lightest = METHODS.index(w.method) if w.method in METHODS else 0
    methods: list[Method] = [w.method] if w.method and fits else []
    methods += [x for x in METHODS[lightest:] if x not in methods]
    for base in _bases(w, fits):
        found = list(_by_method(base, m, methods))
        yield from found
        if any(o.estimate.verdict in FITTING for o in found):
            return


def _bases(w: Workload, fits: bool) -> Iterator[Workload]:
    """The workload the plans start from: as asked; when that does not fit, with activations
    checkpointed if they were not (the first thing to try when they are what does not fit),
    then one sequence per micro-batch (gradient accumulation keeps the batch)."""
    if fits:
        yield w
        return
    if w.grad_checkpointing is False:
        w = replace(w, grad_checkpointing=True)
    yield w
    if w.batch > 1:
        yield replace(w, batch=1)


def _by_method(w: Workload, m: Machine | None, methods: list[Method]) -> Iterator[Option]:
    """For each method the first setting that fits, else the first that runs with part of it
    in CPU RAM."""
    for method in methods:
        base = replace(w, method=method, precision=None if method != w.method else w.precision)
        if method != "full":
            base = replace(base, optimizer=None if w.optimizer in ("adamw_8bit",) else w.optimizer)
        if method != w.method and method in ("lora", "qlora"):
            # Adapters' reference is their own base with the adapters off: TRL refuses a second
            # copy beside a peft_config unless forced (force_use_ref_model).
            base = replace(base, reference_model=None)
        fallback = None
        for settings in _settings(method, m):
            option = replace(base, **settings)
            est = _estimate(option, m)
            if est is None:
                continue
            if est.verdict in FITTING or m is None:
                yield Option(option, m, est)
                break
            if est.verdict == "offload" and fallback is None:
                fallback = Option(option, m, est)
        else:
            if fallback is not None:
                yield fallback


def variants(w: Workload) -> list[Workload]:
    """For other hardware: the asked method, and QLoRA when that was not it."""
    out = [w]
    if w.method != "qlora":
        out.append(replace(w, method="qlora", precision=None, zero=0, offload=False))
    return out


def parallelism(i: Inputs) -> str:
    if i.parallelism:
        return i.parallelism
    if i.gpu_count <= 1:
        return "single"
    if i.engine == "torchtune":
        return "fsdp"
    if i.zero:
        return f"zero{i.zero}"
    return "ddp"


# TRL's config class for each objective (trl/trainer/*_config.py; IPO is DPO's loss_type "ipo",
# SimPO CPO's loss_type "simpo"); supervised fine-tuning runs on the plain TrainingArguments.
_CONFIGS = {
    "dpo": ("DPOConfig", ""),
    "ipo": ("DPOConfig", 'loss_type="ipo", '),
    "orpo": ("ORPOConfig", ""),
    "kto": ("KTOConfig", ""),
    "simpo": ("CPOConfig", 'loss_type="simpo", '),
    "grpo": ("GRPOConfig", ""),
    "rloo": ("RLOOConfig", ""),
    "ppo": ("PPOConfig", ""),
}


def trainer_config(i: Inputs, args: str, sft: str = "TrainingArguments") -> str:
    """The trainer's config for the objective that was estimated, holding `args`: online RL
    with its group, completion length and rollout engine as the estimate sized them."""
    name, extra = _CONFIGS.get(i.objective or "", (sft, ""))
    if i.objective in ("grpo", "rloo"):
        extra += f"num_generations={i.group_size}, max_completion_length={i.generation_length}, "
        if i.engine != "unsloth":
            # The generation batch holds whole groups (GRPOConfig generation_batch_size).
            extra += (
                f"generation_batch_size={math.lcm(i.batch * max(1, i.gpu_count), i.group_size)}, "
            )
    elif i.objective == "ppo":
        extra += f"response_length={i.generation_length}, "
    if i.rollout_engine == "vllm":
        extra += "use_vllm=True, "
        if i.engine != "unsloth":
            extra += f'vllm_mode="colocate", vllm_gpu_memory_utilization={i.rollout_memory_utilization}, '
    return f"{name}({extra}{args})"


def command(est: Estimate, machine: Machine | None) -> str:
    """The settings that run what `est` estimated (fp16 on GPUs without bfloat16)."""
    i = est.inputs
    # The memory plan offloads shards that do not fit by itself when the RAM is known.
    offload = i.offload or (est.offload is not None and est.offload.states_ram_bytes > 0)
    half = (
        "fp16"
        if machine is not None and machine.gpu is not None and not machine.gpu.bf16
        else "bf16"
    )
    # A full fine-tune on several GPUs is sharded with ZeRO-3 unless told otherwise (resolve):
    # the stage may be the one it chose rather than the one asked.
    sharding = i.parallelism or ""
    stage = i.zero or (int(sharding[4:]) if sharding.startswith("zero") else 0)
    if stage:
        config: dict[str, dict[str, Any]] = {
            "zero_optimization": {"stage": stage},
            half: {"enabled": True},
        }
        if offload:
            config["zero_optimization"]["offload_optimizer"] = {"device": "cpu"}
            if stage == 3:
                config["zero_optimization"]["offload_param"] = {"device": "cpu"}
        run = f"deepspeed --num_gpus {max(1, i.gpu_count)} train.py --deepspeed ds_config.json"
        return f"{run}  # ds_config.json: {json.dumps(config, separators=(',', ':'))}"
    if i.engine == "unsloth":
        # Unsloth's notebooks: FastLanguageModel with its own checkpointing, then TRL's trainer
        # for the objective; its GRPO notebook generates with vLLM inside the process
        # (fast_inference=True) on the share gpu_memory_utilization gives it.
        load = f"max_seq_length={i.context}, load_in_4bit={i.method == 'qlora'}"
        if i.rollout_engine == "vllm":
            load += f", fast_inference=True, gpu_memory_utilization={i.rollout_memory_utilization}"
        checkpointing = '"unsloth"' if i.grad_checkpointing else "False"
        if i.method == "full":
            adapters = ""
            load += ", full_finetuning=True"
        else:
            adapters = (
                f"FastLanguageModel.get_peft_model(model, r={i.lora_rank}, "
                f"use_gradient_checkpointing={checkpointing}); "
            )
        args = f'per_device_train_batch_size={i.batch}, optim="{i.optimizer or "adamw_8bit"}"'
        return (
            f"FastLanguageModel.from_pretrained(<model>, {load}); {adapters}"
            f"{trainer_config(i, args, sft='SFTConfig')}"
        )
    if i.engine == "torchtune":
        recipe = "full_finetune" if i.method == "full" else "lora_finetune"
        distributed = "distributed" if i.gpu_count > 1 else "single_device"
        nproc = f"--nproc_per_node {i.gpu_count} " if i.gpu_count > 1 else ""
        return f"tune run {nproc}{recipe}_{distributed} --config <model>/{i.method}"
    parts = []
    if i.method == "qlora":
        parts.append(
            'BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type="nf4", '
            "bnb_4bit_use_double_quant=True)"
        )
    if i.method in ("lora", "qlora"):
        targets = '"all-linear"' if i.lora_targets == "all" else '["q_proj", "v_proj"]'
        parts.append(f"LoraConfig(r={i.lora_rank}, target_modules={targets})")
    optim = f', optim="{i.optimizer}"' if i.optimizer and i.optimizer != "adamw" else ""
    if i.parallelism == "fsdp" and i.gpu_count > 1:
        # FSDP-QLoRA as Hugging Face documents it: the 4-bit base sharded like the rest.
        optim += (
            ', fsdp="full_shard auto_wrap offload"' if offload else ', fsdp="full_shard auto_wrap"'
        )
        if i.method == "qlora":
            parts[0] = parts[0][:-1] + ", bnb_4bit_quant_storage=torch.bfloat16)"
    liger = ", use_liger_kernel=True" if i.liger else ""
    parts.append(
        trainer_config(
            i,
            f"per_device_train_batch_size={i.batch}, "
            f"gradient_checkpointing={bool(i.grad_checkpointing)}, {half}=True{liger}{optim}",
        )
    )
    return "; ".join(parts)
