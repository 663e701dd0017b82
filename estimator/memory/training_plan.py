"""Training memory per GPU: the framework's recipe, its states sharded over the GPUs, the
activations one micro-batch keeps, and the moment of the step when the most is allocated.

A step passes three peaks, and the answer is the highest (the components shown are those alive
at it):
- loss: the forward has finished, every checkpoint (or every layer's activations) is alive and the
  cross-entropy holds its logits; gradients exist only when accumulated from earlier micro-batches.
- backward: the loss is freed, one layer is recomputed (checkpointing) while the gradients grow
  and the checkpoints shrink, so the larger of "all checkpoints" and "all gradients" counts.
- step: every gradient plus the optimizer's temporaries (none for fused AdamW).
Online RL adds generation, when the rollout engine works beside the states.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from ..capacity import gpu_usable
from ..frameworks import FRAMEWORKS, losses
from ..frameworks.profile import Recipe, settings
from ..frameworks.sharding import NODE_GPUS
from ..hardware.types import Machine
from ..precision import weight_bytes
from ..resolve import Resolved
from ..result import Components, Note
from ..vocabulary import ONLINE_OBJECTIVES
from . import alignment
from .activations import (
    checkpoint_per_token,
    eager_scores_per_token,
    layer_peak_per_token,
    layer_saved_per_token,
)
from .constants import FREEZE_TRAINABLE_LAYERS
from .notes import weights_note
from .sharding import ShardedStates, shard
from .training import TrainingStates, training_states


@dataclass(frozen=True, slots=True)
class TrainingPlan:
    devices: list[Components]
    steps: list[Note]
    ram_bytes: int  # CPU RAM of all GPUs together: offloaded states and activations
    disk_bytes: int  # NVMe (ZeRO-Infinity)
    managed_bytes: int  # per GPU: CUDA managed memory (paged optimizer states)
    transient_bytes: int  # per GPU: what comes and goes within a step (loss, recompute, buffers)
    recipe: Recipe


@dataclass(frozen=True, slots=True)
class _Activations:
    kept: int  # checkpoints (or all layers' activations) on the GPU
    recompute: int  # one layer recomputed in the backward
    loss: int
    offloaded: int  # activations moved to CPU RAM
    layer: int  # bytes per token of one layer
    layers: int  # layers that keep activations


def plan(r: Resolved, machine: Machine | None) -> TrainingPlan:
    w = r.workload
    gpus = machine.count if machine is not None and machine.kind == "gpu" else 1
    framework = FRAMEWORKS[w.engine or "transformers"]
    s = settings(w, r.weight_format, gpus, NODE_GPUS)
    recipe = framework.recipe(s)
    result = _plan(r, recipe, machine)
    if w.distributed is not None or machine is None or machine.kind != "gpu" or gpus == 1:
        return result
    usable = gpu_usable(machine, 0, machine.device_capacities[0])[0]
    if max(c.total for c in result.devices) <= usable:
        return result
    if recipe.sharding.backend == "ddp":
        backend = _sharded_backend(w.method or "full", framework.options)
        if backend is None:
            return result
        s = replace(s, distributed=backend)
        result = _plan(r, framework.recipe(s), machine)
        result.steps.insert(0, Note("replica_does_not_fit", {"devices": gpus}))
    if not w.offload and machine.ram_bytes and max(c.total for c in result.devices) > usable:
        # What Answer.AI's FSDP + QLoRA and ZeRO-Offload do when the shards still do not fit:
        # the states go to CPU RAM (considered only when the question says how much there is).
        offloaded = _plan(r, framework.recipe(replace(s, offload=True)), machine)
        offloaded.steps.insert(0, Note("shards_do_not_fit", {"devices": gpus}))
        return offloaded
    return result


def _sharded_backend(method: str, options: frozenset[str]) -> str | None:
    """How LoRA is sharded when one replica per GPU does not fit: FSDP for a QLoRA base (the
    FSDP + QLoRA path of Answer.AI and PEFT), ZeRO-3 otherwise."""
    order = ("fsdp", "deepspeed") if method == "qlora" else ("deepspeed", "fsdp")
    return next((b for b in order if b in options), None)


def _plan(r: Resolved, recipe: Recipe, machine: Machine | None) -> TrainingPlan:
    w = r.workload
    arch = w.model
    gpus = machine.count if machine is not None and machine.kind == "gpu" else 1
    method = w.method or "full"
    steps: list[Note] = []
    states = training_states(
        arch,
        method=method,
        base_format=r.weight_format,
        recipe=recipe,
        optimizer=w.optimizer or "adamw",
        lora_rank=w.lora_rank,
        lora_targets=w.lora_targets,
        train_embeddings=w.lora_train_embeddings,
    )
    if method in ("lora", "qlora"):
        base = weight_bytes(arch, r.weight_format)
        steps.append(weights_note(arch, r.weight_format, base.total))
        if states.upcast:
            steps.append(Note("kbit_upcast", {"bytes": states.upcast}))
    steps.append(_states_note(w, recipe, states))
    sh = shard(states, recipe, arch, r.weight_format, method)
    steps += _sharding_notes(recipe, sh, machine, gpus)
    shape = alignment.step_shape(w)
    extra = _extras(r, recipe, sh, machine, gpus)
    persistent = (
        (sh.weights + sh.adapters + sh.master_weights + sh.optimizer_states + sh.buffers)
        + extra.frozen
        + extra.rollout_persistent
    )
    gradients = sh.gradients + extra.value_gradients
    kept_grads = gradients if recipe.accumulate and not recipe.optimizer_in_backward else 0
    usable = None
    if machine is not None and machine.kind == "gpu":
        usable = gpu_usable(machine, 0, machine.device_capacities[0])[0]
    acts = _activations(r, recipe, shape, usable, persistent + kept_grads + extra.value_persistent)
    steps.append(_activations_note(w, recipe, shape, acts))
    steps.append(_loss_note(recipe, arch, shape.loss_tokens, acts.loss))
    persistent += extra.value_persistent
    head = sh.head_gradients
    kept = acts.kept * extra.activation_copies
    recompute = acts.recompute * extra.activation_copies
    phases: dict[str, tuple[int, int, int]] = {}  # phase -> (gradients, activations, overhead)
    phases["loss"] = (kept_grads, kept + acts.loss, 0)
    if recipe.optimizer_in_backward:
        phases["backward"] = (head, kept + recompute, 0)
    elif recipe.accumulate:
        phases["backward"] = (gradients, kept + recompute, 0)
    elif kept + head >= gradients:
        phases["backward"] = (head, kept + recompute, 0)
    else:
        phases["backward"] = (gradients, recompute, 0)
    if not recipe.optimizer_in_backward:
        step_temp = _step_temporary(recipe, states, sh)
        phases["step"] = (gradients, 0, step_temp)
        if step_temp:
            steps.append(Note("optimizer_step_temporary", {"bytes": step_temp}))
    if extra.generation:
        phases["generation"] = (0, extra.generation, 0)
    if extra.reference_forward:
        phases["reference"] = (kept_grads, extra.reference_forward, 0)
    phase = max(phases, key=lambda p: sum(phases[p]))
    grads_at, acts_at, overhead_at = phases[phase]
    steps += extra.notes
    steps.append(
        Note(
            "training_peak",
            {
                "phase": phase,
                "gradients": grads_at,
                "activations": acts_at,
                "loss": acts.loss,
                "phases": {name: persistent + sum(parts) for name, parts in phases.items()},
                "bytes": persistent + grads_at + acts_at + overhead_at,
            },
        )
    )
    device = Components(
        weights=sh.weights + extra.value_weights,
        adapters=sh.adapters,
        gradients=grads_at,
        master_weights=sh.master_weights + extra.value_master,
        optimizer_states=sh.optimizer_states + extra.value_optimizer,
        activations=acts_at,
        frozen_models=extra.frozen,
        rollout=extra.rollout_persistent,
        overhead=sh.buffers + overhead_at,
    )
    managed = sh.optimizer_states if recipe.paged_optimizer else 0
    ram = (sh.ram_bytes + acts.offloaded) * gpus
    transient = acts.loss + recompute + device.overhead + extra.generation
    return TrainingPlan(
        [device] * gpus, steps, ram, sh.disk_bytes * gpus, managed, transient, recipe
    )


def _trained(w_method: str, targets: str) -> tuple[bool, bool]:
    """(attention, MLP) linears whose inputs the backward needs."""
    if w_method in ("lora", "qlora"):
        return targets != "mlp", targets != "attention"
    return True, True


def _activations(
    r: Resolved, recipe: Recipe, shape: alignment.StepShape, usable: int | None, before: int
) -> _Activations:
    w = r.workload
    arch = w.model
    attention, mlp = _trained(w.method or "full", w.lora_targets)
    adapters = w.method in ("lora", "qlora")
    layer = layer_saved_per_token(
        arch,
        recipe.kernels,
        attention_trained=attention,
        mlp_trained=mlp,
        norms_trained=not adapters,
        adapters=adapters,
    )
    if not w.flash_attention:
        layer += eager_scores_per_token(arch, w.context or 0)
    layers = FREEZE_TRAINABLE_LAYERS if w.method == "freeze" else arch.num_layers
    layers = min(layers, arch.num_layers)
    tokens = shape.tokens
    if recipe.checkpointing:
        every = layers * checkpoint_per_token(arch) * tokens
        in_flight = checkpoint_per_token(arch) * tokens
        recompute = layer * tokens
    else:
        every = layers * layer * tokens
        in_flight = layer * tokens
        recompute = 0
    offloaded = 0
    kept = every
    if recipe.activation_offload:
        kept, offloaded = in_flight, every
    free = None if usable is None else max(0, usable - before - kept)
    loss = losses.loss_bytes(recipe.loss, arch, shape.loss_tokens, free)
    return _Activations(kept, recompute, loss, offloaded, layer, layers)


def _step_temporary(recipe: Recipe, states: TrainingStates, sh: ShardedStates) -> int:
    """The foreach optimizer's copy of the states' width, for this GPU's share of them."""
    if not recipe.step_bytes or not sh.optimizer_states:
        return 0
    share = sh.optimizer_states / max(1, states.optimizer_states)
    return round(recipe.step_bytes * states.trainable_params * share)


@dataclass(frozen=True, slots=True)
class _Extras:
    frozen: int = 0  # reference / reward weights per GPU
    rollout_persistent: int = 0  # a colocated vLLM engine's share
    generation: int = 0  # generate()'s KV cache and prefill, at the generation phase
    reference_forward: int = 0  # the frozen models' forward, no grad
    value_weights: int = 0
    value_master: int = 0
    value_optimizer: int = 0
    value_gradients: int = 0
    activation_copies: int = 1  # PPO trains policy and value in one backward
    notes: tuple[Note, ...] = ()

    @property
    def value_persistent(self) -> int:
        return self.value_weights + self.value_master + self.value_optimizer


def _extras(
    r: Resolved, recipe: Recipe, sh: ShardedStates, machine: Machine | None, gpus: int
) -> _Extras:
    w = r.workload
    objective = w.objective or "sft"
    if objective == "sft":
        return _Extras()
    arch = w.model
    n = recipe.sharding.group if recipe.sharding.stage >= 3 else 1
    notes: list[Note] = []
    frozen = 0
    reference = 0
    if w.reference_model:
        reference = weight_bytes(arch, r.weight_format).total
        if w.method == "full" or w.method == "freeze":
            reference = 2 * arch.params
        frozen += math.ceil(reference / n)
    reward_arch = w.reward_model or (arch if objective == "ppo" else None)
    reward = 2 * reward_arch.params if reward_arch is not None else 0
    frozen += math.ceil(reward / n)
    value = _Extras()
    copies = 1
    if objective == "ppo" and reward_arch is not None:
        per = recipe.full
        p = reward_arch.params
        value = _Extras(
            value_weights=math.ceil(per.weight * p / n),
            value_master=math.ceil(per.master * p / max(1, recipe.sharding.group)),
            value_optimizer=math.ceil(per.optimizer * p / max(1, recipe.sharding.group)),
            value_gradients=math.ceil((per.gradient + per.gradient_fp32) * p / n),
        )
        copies = 2
    shape = alignment.step_shape(w)
    ref_forward = 0
    if reference or reward or shape.side_tokens:
        tokens = max(shape.tokens, shape.side_tokens)
        ref_forward = tokens * layer_peak_per_token(arch) + 6 * arch.vocab_size * shape.loss_tokens
    notes.append(
        Note(
            "alignment_models",
            {
                "objective": objective,
                "reference": reference,
                "reward": reward,
                "value": value.value_persistent + value.value_gradients,
                "sequences": shape.sequences,
                "frozen": frozen,
            },
        )
    )
    rollout_persistent = generation = 0
    if objective in ONLINE_OBJECTIVES:
        sequences = alignment.rollout_sequences(w, gpus)
        if w.rollout_engine == "vllm":
            needs = alignment.vllm_needs(w)
            share = w.rollout_memory_utilization or alignment.VLLM_SHARE
            granted = round(share * machine.device_bytes) if machine is not None else needs
            rollout_persistent = max(granted, needs)
            notes.append(
                Note(
                    "vllm_rollout",
                    {
                        "utilization": share,
                        "bytes": granted,
                        "needs": needs,
                        "short": granted < needs,
                    },
                )
            )
        else:
            kv = alignment.generate_kv_bytes(w, gpus)
            prompt = (w.context or 0) - (w.generation_length or 0)
            prefill = sequences * max(1, prompt) * layer_peak_per_token(arch)
            gathered = 0
            if recipe.sharding.stage >= 3:
                # TRL gathers the sharded policy for generate() (ds3_gather_for_generation).
                gathered = 2 * arch.params - sh.weights
            generation = kv + prefill + gathered
            notes.append(
                Note(
                    "generate_rollout",
                    {"sequences": sequences, "kv": kv, "gathered": gathered, "bytes": generation},
                )
            )
    return replace(
        value,
        frozen=frozen,
        rollout_persistent=rollout_persistent,
        generation=generation,
        reference_forward=ref_forward,
        activation_copies=copies,
        notes=tuple(notes),
    )


def _states_note(w, recipe: Recipe, states: TrainingStates) -> Note:
    return Note(
        "training_states",
        {
            "method": w.method,
            "framework": recipe.framework,
            "params": w.model.params,
            "trainable_params": states.trainable_params,
            "adapter_params": states.adapter_params,
            "weight_bytes_per_param": states.trainable.weight,
            "gradient_bytes_per_param": states.trainable.gradient + states.trainable.gradient_fp32,
            "master_bytes_per_param": states.trainable.master,
            "optimizer": w.optimizer,
            "weights": states.weights,
            "adapters": states.adapters,
            "gradients": states.gradients
            + round(states.trainable.gradient_fp32 * states.trainable_params),
            "master_weights": states.master_weights,
            "optimizer_states": states.optimizer_states,
            "optimizer_in_backward": recipe.optimizer_in_backward,
        },
    )


def _sharding_notes(
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
        nodes = math.ceil(gpus / NODE_GPUS)
        nvlink = machine is not None and machine.gpu is not None and machine.gpu.nvlink
        notes.append(
            Note(
                "interconnect",
                {
                    "devices": gpus,
                    "nodes": nodes,
                    "link": "nvlink" if nvlink else "pcie",
                    "buffers": sh.buffers,
                    "parallelism": s.parallelism,
                },
            )
        )
    return notes


def _activations_note(w, recipe: Recipe, shape: alignment.StepShape, acts: _Activations) -> Note:
    arch = w.model
    return Note(
        "training_activations",
        {
            "tokens": shape.tokens,
            "checkpointing": recipe.checkpointing,
            "offload": recipe.activation_offload,
            "kernels": recipe.kernels.name,
            "layers": acts.layers,
            "checkpoint_per_token": checkpoint_per_token(arch),
            "layer_per_token": acts.layer,
            "kept": acts.kept,
            "recompute": acts.recompute,
            "ram_bytes": acts.offloaded,
            "bytes": acts.kept + acts.recompute,
        },
    )


def _loss_note(recipe: Recipe, arch, tokens: int, value: int) -> Note:
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
