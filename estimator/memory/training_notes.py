"""The steps a training estimate shows: states, sharding and interconnect, activations, loss."""

from __future__ import annotations

import math

from ..frameworks import losses
from ..frameworks.profile import Recipe
from ..frameworks.sharding import NODE_GPUS
from ..hardware.types import Machine
from ..models.types import Architecture
from ..result import Note
from ..workload import Workload
from .activations import checkpoint_per_token
from .sharding import ShardedStates
from .training import TrainingStates


def states_note(w: Workload, recipe: Recipe, states: TrainingStates) -> Note:
    per = states.trainable
    return Note(
        "training_states",
        {
            "method": w.method,
            "framework": recipe.framework,
            "params": w.model.params,
            "trainable_params": states.trainable_params,
            "adapter_params": states.adapter_params,
            "weight_bytes_per_param": per.weight,
            "gradient_bytes_per_param": per.gradient + per.gradient_fp32,
            "master_bytes_per_param": per.master,
            "optimizer": w.optimizer,
            "weights": states.weights,
            "adapters": states.adapters,
            "gradients": states.gradients + round(per.gradient_fp32 * states.trainable_params),
            "master_weights": states.master_weights,
            "optimizer_states": states.optimizer_states,
            "optimizer_in_backward": recipe.optimizer_in_backward,
        },
    )


def sharding_notes(
    recipe: Recipe, sh: ShardedStates, machine: Machine | None, gpus: int
) -> list[Note]:
    s = recipe.sharding
    notes: list[Note] = []
    if s.backend == "ddp" and sh.buffers:
        notes.append(Note("ddp_buckets", {"bytes": sh.buffers}))
    if s.backend == "deepspeed" and s.stage:
        notes.append(Note("zero", {"stage": s.stage, "devices": s.group}))
    if s.backend == "fsdp":
        notes.append(
            Note(
                "fsdp_shard",
                {"stage": s.stage, "devices": s.group, "hybrid": s.hybrid, "buffers": sh.buffers},
            )
        )
    if sh.ram_bytes or sh.disk_bytes:
        notes.append(
            Note(
                "cpu_offload_training",
                {
                    "ram_bytes": sh.ram_bytes * gpus,
                    "disk_bytes": sh.disk_bytes * gpus,
                    "zero": s.stage,
                    "device": s.offload or "cpu",
                },
            )
        )
    if gpus > 1:
        gpu = machine.gpu if machine is not None else None
        link = "pcie"
        if gpu is not None and gpu.nvlink:
            link = "nvlink" if gpu.vendor == "NVIDIA" else "fabric"
        notes.append(
            Note(
                "interconnect",
                {
                    "devices": gpus,
                    "nodes": math.ceil(gpus / NODE_GPUS),
                    "link": link,
                    "buffers": sh.buffers,
                    "parallelism": s.parallelism,
                },
            )
        )
    return notes


def activations_note(
    recipe: Recipe,
    arch: Architecture,
    tokens: int,
    *,
    layers: int,
    layer: int,
    kept: int,
    recompute: int,
    offloaded: int,
) -> Note:
    return Note(
        "training_activations",
        {
            "tokens": tokens,
            "checkpointing": recipe.checkpointing,
            "offload": recipe.activation_offload,
            "kernels": recipe.kernels.name,
            "layers": layers,
            "checkpoint_per_token": checkpoint_per_token(arch),
            "layer_per_token": layer,
            "kept": kept,
            "recompute": recompute,
            "ram_bytes": offloaded,
            "bytes": kept + recompute,
        },
    )


def loss_note(recipe: Recipe, arch: Architecture, tokens: int, value: int) -> Note:
    loss = recipe.loss
    params: dict[str, object] = {
        "kind": loss.kind,
        "tokens": tokens,
        "vocab": arch.vocab_size,
        "logit_bytes": loss.vocab_bytes,
        "bytes": value,
    }
    if loss.kind == "fused_linear":
        params["chunk"] = losses.liger_chunk_tokens(arch, tokens)
    if loss.kind == "chunked":
        params["chunks"] = loss.chunks
    return Note("training_loss", params)
