"""Training memory per GPU: model states sharded by ZeRO / FSDP, activations per micro-batch,
and what CPU offload moves to RAM."""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..hardware.types import Machine
from ..precision import weight_bytes
from ..resolve import Resolved
from ..result import Components, Note
from . import constants as k
from .activations import (
    checkpoint_per_token,
    eager_scores_per_token,
    layer_saved_per_token,
    training_activations,
)
from .notes import weights_note
from .training import training_states


@dataclass(frozen=True, slots=True)
class TrainingPlan:
    devices: list[Components]
    steps: list[Note]
    ram_bytes: int  # offloaded to CPU RAM (all devices together)


def plan(r: Resolved, machine: Machine | None) -> TrainingPlan:
    w = r.workload
    arch = w.model
    gpus = machine.count if machine is not None and machine.kind == "gpu" else 1
    framework = w.engine
    zero = w.zero
    steps: list[Note] = []
    if framework == "torchtune" and gpus > 1 and zero < 3:
        # torchtune's distributed recipes shard parameters, gradients and optimizer (FSDP2).
        zero = 3
        steps.append(Note("fsdp_full_shard", {"devices": gpus}))
    states = training_states(
        arch,
        method=w.method,
        base_format=r.weight_format,
        framework=framework,
        optimizer=w.optimizer,
        lora_rank=w.lora_rank,
        lora_targets=w.lora_targets,
        train_embeddings=w.lora_train_embeddings,
        adapter_precision=w.adapter_precision or "fp32",
        zero=zero,
        single_device=gpus == 1,
    )
    if w.method in ("lora", "qlora"):
        base = weight_bytes(arch, r.weight_format)
        steps.append(weights_note(arch, r.weight_format, base.total))
        if states.weights > base.total:
            steps.append(Note("kbit_upcast", {"bytes": states.weights - base.total}))
    steps.append(
        Note(
            "training_states",
            {
                "method": w.method,
                "framework": framework,
                "params": arch.params,
                "trainable_params": states.trainable_params,
                "adapter_params": states.adapter_params,
                "weight_bytes_per_param": states.trainable.weight,
                "gradient_bytes_per_param": states.trainable.gradient,
                "master_bytes_per_param": states.trainable.master,
                "optimizer": w.optimizer,
                "weights": states.weights,
                "adapters": states.adapters,
                "gradients": states.gradients,
                "master_weights": states.master_weights,
                "optimizer_states": states.optimizer_states,
                "optimizer_in_backward": states.optimizer_in_backward,
            },
        )
    )
    tokens = w.batch * w.context
    logit_bytes = k.TORCHTUNE_LOGIT_BYTES if framework == "torchtune" else k.HF_LOGIT_BYTES
    layer_act, logits = training_activations(
        arch,
        tokens,
        checkpointing=bool(w.grad_checkpointing),
        logit_bytes=logit_bytes,
        sequence=w.context,
        flash_attention=w.flash_attention,
    )
    steps.append(
        Note(
            "training_activations",
            {
                "tokens": tokens,
                "checkpointing": bool(w.grad_checkpointing),
                "layers": arch.num_layers,
                "checkpoint_per_token": checkpoint_per_token(arch),
                "layer_per_token": layer_saved_per_token(arch)
                + (0 if w.flash_attention else eager_scores_per_token(arch, w.context)),
                "vocab": arch.vocab_size,
                "logit_bytes": logit_bytes,
                "logits": logits,
                "bytes": layer_act + logits,
            },
        )
    )

    def shard(value: int, stage: int) -> int:
        return math.ceil(value / gpus) if zero >= stage else value

    weights = shard(states.weights, 3)
    adapters = shard(states.adapters, 3)
    gradients = shard(states.gradients, 2)
    master = shard(states.master_weights, 1)
    optimizer = shard(states.optimizer_states, 1)
    overhead = 0
    if gpus > 1 and zero == 0 and framework == "transformers":
        # DDP's gradient buckets copy every gradient unless gradient_as_bucket_view=True
        # (PyTorch DistributedDataParallel docs: it "can reduce peak memory usage ... equal to
        # the total gradients size").
        overhead += gradients
        steps.append(Note("ddp_buckets", {"bytes": gradients}))
    if zero == 3 and gpus > 1:
        # Gathering the largest layer: DeepSpeed's largest_layer_memory = 4 x its parameters.
        overhead += 4 * states.largest_layer_params
    ram = 0
    if w.offload:
        moved = master + optimizer + (gradients if framework == "deepspeed" or zero >= 2 else 0)
        if zero == 3:
            moved += weights
            weights = 0
        ram = moved * gpus
        master = optimizer = 0
        if framework == "deepspeed" or zero >= 2:
            gradients = 0
        steps.append(Note("cpu_offload_training", {"ram_bytes": ram, "zero": zero}))
    if zero:
        steps.append(Note("zero", {"stage": zero, "devices": gpus}))
    device = Components(
        weights=weights,
        adapters=adapters,
        gradients=gradients,
        master_weights=master,
        optimizer_states=optimizer,
        activations=layer_act + logits,
        overhead=overhead,
    )
    return TrainingPlan([device] * gpus, steps, ram)
