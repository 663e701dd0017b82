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

from dataclasses import dataclass, replace

from ..capacity import gpu_usable
from ..frameworks import FRAMEWORKS, losses
from ..frameworks.profile import Recipe, settings
from ..frameworks.sharding import BACKENDS, NODE_GPUS
from ..hardware.types import Machine
from ..precision import weight_bytes
from ..resolve import Resolved
from ..result import Components, Note
from . import alignment
from .activations import (
    checkpoint_per_token,
    eager_scores_per_token,
    layer_saved_per_token,
)
from .constants import FREEZE_TRAINABLE_LAYERS
from .notes import weights_note
from .sharding import ShardedStates, shard
from .training import KBIT_UPCAST, TrainingStates, training_states
from .training_notes import activations_note, loss_note, sharding_notes, states_note


@dataclass(frozen=True, slots=True)
class TrainingPlan:
    devices: list[Components]
    steps: list[Note]
    ram_bytes: int  # CPU RAM of all GPUs together: offloaded states and activations
    states_ram_bytes: int  # ... of which parameters, gradients and optimizer states
    activation_ram_bytes: int  # ... of which activations (offloaded checkpoints)
    disk_bytes: int  # NVMe (ZeRO-Infinity)
    managed_bytes: int  # per GPU: CUDA managed memory (paged optimizer states)
    # per GPU: what comes and goes once a step in sizes the allocator cannot reuse (the loss,
    # buffers, generation); the recomputed layer is not, see estimator/memory/reported.py
    transient_bytes: int
    recipe: Recipe
    assumptions: tuple[Note, ...] = ()  # what the recipe runs that the question did not say


@dataclass(frozen=True, slots=True)
class _Activations:
    kept: int  # checkpoints (or all layers' activations) on the GPU
    recompute: int  # one layer recomputed in the backward
    loss: int
    offloaded: int  # activations moved to CPU RAM
    layer: int  # bytes per token of one layer
    layers: int  # layers that keep activations


def plan(r: Resolved, machine: Machine | None) -> TrainingPlan:
    result, why = _chosen(r, machine)
    return replace(result, assumptions=_assumed(r, result.recipe, why))


def _chosen(r: Resolved, machine: Machine | None) -> tuple[TrainingPlan, str]:
    """The plan, and why it is sharded or offloaded when the question did not say: "asked",
    "default" (the framework's choice), "replica" (one copy per GPU does not fit) or "shards"
    (the shards do not fit either, so the states go to CPU RAM)."""
    w = r.workload
    gpus = machine.count if machine is not None and machine.kind == "gpu" else 1
    framework = FRAMEWORKS[w.engine or "transformers"]
    s = settings(w, r.weight_format, gpus, NODE_GPUS)
    recipe = framework.recipe(s)
    result = _plan(r, recipe, machine)
    # Naming DeepSpeed or FSDP as the framework names the backend too.
    named = w.distributed is not None or bool(w.zero) or w.engine in BACKENDS
    asked = "asked" if named else "default"
    if w.distributed is not None or machine is None or machine.kind != "gpu" or gpus == 1:
        return result, asked
    usable = gpu_usable(machine, 0, machine.device_capacities[0])[0]
    if max(c.total for c in result.devices) <= usable:
        return result, asked
    why = asked
    if recipe.sharding.backend == "ddp":
        backend = _sharded_backend(w.method or "full", framework.options)
        if backend is None:
            return result, asked
        s = replace(s, distributed=backend)
        result = _plan(r, framework.recipe(s), machine)
        result.steps.insert(0, Note("replica_does_not_fit", {"devices": gpus}))
        why = "replica"
    if not w.offload and machine.ram_bytes and max(c.total for c in result.devices) > usable:
        # What Answer.AI's FSDP + QLoRA and ZeRO-Offload do when the shards still do not fit:
        # the states go to CPU RAM (considered only when the question says how much there is).
        offloaded = _plan(r, framework.recipe(replace(s, offload=True)), machine)
        offloaded.steps.insert(0, Note("shards_do_not_fit", {"devices": gpus}))
        return offloaded, "shards"
    return result, why


def _assumed(r: Resolved, recipe: Recipe, why: str) -> tuple[Note, ...]:
    """What the recipe runs that the answer should say it assumed: how the GPUs share the job,
    and the kernels and loss that change the activations (Liger, Unsloth)."""
    w = r.workload
    sh = recipe.sharding
    out: list[Note] = []
    if sh.devices > 1 and why != "asked":
        params = {"parallelism": sh.parallelism, "devices": sh.devices}
        if sh.backend == "ddp":
            out.append(Note("training_ddp", params))
        else:
            keys = {"default": "training_sharded", "replica": "training_sharded_replica"}
            out.append(Note(keys.get(why, "training_offloaded"), params))
    if w.liger:
        out.append(Note("liger_kernels", {}))
    if recipe.framework == "unsloth":
        key = "unsloth_offload" if recipe.activation_offload else "unsloth_kernels"
        out.append(Note(key, {}))
    return tuple(out)


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
        elif (
            method == "qlora" and recipe.kbit_upcast_skipped and r.weight_format.kind in KBIT_UPCAST
        ):
            steps.append(Note("kbit_upcast_skipped", {}))
    steps.append(states_note(w, recipe, states))
    sh = shard(states, recipe, arch, r.weight_format, method)
    steps += sharding_notes(recipe, sh, machine, gpus)
    shape = alignment.step_shape(w)
    extra = alignment.extras(r, recipe, sh, machine, gpus)
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
    steps.append(
        activations_note(
            recipe,
            arch,
            shape.tokens,
            layers=acts.layers,
            layer=acts.layer,
            kept=acts.kept,
            recompute=acts.recompute,
            offloaded=acts.offloaded,
        )
    )
    steps.append(loss_note(recipe, arch, shape.loss_tokens, acts.loss))
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
    states_ram, activation_ram = sh.ram_bytes * gpus, acts.offloaded * gpus
    transient = acts.loss + device.overhead + extra.generation
    return TrainingPlan(
        [device] * gpus,
        steps,
        states_ram + activation_ram,
        states_ram,
        activation_ram,
        sh.disk_bytes * gpus,
        managed,
        transient,
        recipe,
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
        if recipe.kernels.norm_keeps_input:
            recompute -= in_flight
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
