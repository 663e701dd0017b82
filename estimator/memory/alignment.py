"""Preference optimisation and online RL on top of a training plan: the frozen reference and reward
models, PPO's value model, how many sequences one step runs, and where the generations come from.

Defaults are TRL's (huggingface/trl @ f2cd577, 2026-07, trl/trainer/*_config.py):
- DPO/IPO (DPOConfig loss_type "ipo"), KTO: a frozen reference model (beta 0.1); a PEFT policy uses
  its own base with the adapters disabled as the reference, so nothing more is loaded (DPOTrainer:
  "if ref_model is None and is_peft_model"). DPO, IPO, ORPO and SimPO run chosen and rejected in one
  concatenated forward: two sequences per example. KTO runs one, plus a no-grad forward of the
  mismatched pair for its KL estimate. ORPO (ORPOConfig) and SimPO (CPOConfig loss_type "simpo")
  have no reference.
- GRPO: num_generations 8, max_completion_length 512, beta 0.0 ("the reference model is not
  loaded"), use_vllm False (generate() on the policy); with use_vllm, vllm_mode "colocate" and
  vllm_gpu_memory_utilization 0.3. RLOO: num_generations 2, max_completion_length 512, beta 0.05.
  PPO (trl/experimental/ppo): policy and value model trained together, frozen reference and reward
  models, response_length 53, generate() for rollouts.
- The prompt: GRPOConfig's max_prompt_length default of 512 tokens (TRL v0.14-v0.2x) when the
  question gives no sequence length; context = prompt + completion.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ..errors import EstimatorError
from ..frameworks.profile import Recipe
from ..hardware.types import Machine
from ..precision import weight_bytes
from ..result import Note
from ..vocabulary import ONLINE_OBJECTIVES
from .activations import layer_peak_per_token
from .kv_cache import kv_cache, layout
from .sharding import ShardedStates

if TYPE_CHECKING:
    from ..resolve import Resolved
    from ..workload import Workload

NEEDS_REFERENCE = {
    "dpo": True,
    "ipo": True,
    "kto": True,
    "orpo": False,
    "simpo": False,
    "grpo": False,
    "rloo": True,
    "ppo": True,
}
PAIRED = frozenset({"dpo", "ipo", "orpo", "simpo"})
GROUP_SIZE = {"grpo": 8, "rloo": 2, "ppo": 1}
GENERATION = {"grpo": 512, "rloo": 512, "ppo": 53}
DEFAULT_PROMPT_TOKENS = 512
VLLM_SHARE = 0.3


def objective_defaults(w: Workload, method: str, notes: list[Note]) -> dict[str, Any]:
    """The objective's settings the question left open, each recorded as an assumption."""
    objective = w.objective or "sft"
    out: dict[str, Any] = {"objective": objective}
    if objective == "sft":
        return out
    adapters = method in ("lora", "qlora")
    reference = w.reference_model
    if reference is None:
        reference = NEEDS_REFERENCE[objective] and not adapters
        shared = NEEDS_REFERENCE[objective] and adapters
        key = "reference_loaded" if reference else "reference_shared" if shared else "no_reference"
        notes.append(Note(key, {"objective": objective}))
    out["reference_model"] = reference
    if objective not in ONLINE_OBJECTIVES:
        return out
    group = w.group_size or GROUP_SIZE[objective]
    generation = w.generation_length or GENERATION[objective]
    rollout = w.rollout_engine or "transformers"
    share = w.rollout_memory_utilization
    if rollout == "vllm" and share is None:
        share = VLLM_SHARE
    notes.append(
        Note(
            "default_rollout",
            {
                "objective": objective,
                "group": group,
                "generation": generation,
                "engine": rollout,
                "utilization": share or 0.0,
            },
        )
    )
    out.update(
        group_size=group,
        generation_length=generation,
        rollout_engine=rollout,
        rollout_memory_utilization=share,
    )
    if w.context is None:
        out["context"] = DEFAULT_PROMPT_TOKENS + generation
        notes.append(Note("default_rl_context", {"prompt": DEFAULT_PROMPT_TOKENS}))
    elif generation >= w.context:
        raise EstimatorError("generation_too_long", generation=generation, context=w.context)
    return out


@dataclass(frozen=True, slots=True)
class StepShape:
    """What one micro-batch of the policy runs."""

    sequences: int  # sequences in the trained forward
    tokens: int  # tokens in the trained forward
    loss_tokens: int  # tokens whose logits the loss needs
    side_tokens: int  # tokens of no-grad forwards of the policy (KTO's KL pairs)


def step_shape(w: Workload) -> StepShape:
    objective = w.objective or "sft"
    context = w.context or 0
    sequences = w.batch * (2 if objective in PAIRED else 1)
    loss_per = context
    if objective in ONLINE_OBJECTIVES:
        loss_per = w.generation_length or context
    side = w.batch * context if objective == "kto" else 0
    return StepShape(sequences, sequences * context, sequences * loss_per, side)


def rollout_sequences(w: Workload, gpus: int) -> int:
    """Completions one GPU generates at once: its micro-batch, or its share of one prompt's group
    (the generation batch must hold whole groups: GRPOConfig generation_batch_size)."""
    return max(w.batch, math.ceil((w.group_size or 1) / gpus))


def generate_kv_bytes(w: Workload, gpus: int) -> int:
    """The KV cache generate() builds for one GPU's completions, bf16."""
    lay = layout(w.model, 2, mla_latent=False, cap_sliding=True)
    return kv_cache(lay, context=w.context or 0, sequences=rollout_sequences(w, gpus)).bytes


def vllm_needs(w: Workload) -> int:
    """What a colocated vLLM engine needs at the least: the policy's bf16 weights (the trainer
    syncs merged 16-bit weights into it; vllm_tensor_parallel_size 1) and the KV of one sequence."""
    lay = layout(w.model, 2, mla_latent=False, cap_sliding=True)
    return 2 * w.model.params + kv_cache(lay, context=w.context or 0, sequences=1).bytes


@dataclass(frozen=True, slots=True)
class Extras:
    """What an objective adds to the policy's own training memory, per GPU."""

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


def extras(
    r: Resolved, recipe: Recipe, sh: ShardedStates, machine: Machine | None, gpus: int
) -> Extras:
    w = r.workload
    objective = w.objective or "sft"
    if objective == "sft":
        return Extras()
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
    value = Extras()
    copies = 1
    if objective == "ppo" and reward_arch is not None:
        per = recipe.full
        p = reward_arch.params
        value = Extras(
            value_weights=math.ceil(per.weight * p / n),
            value_master=math.ceil(per.master * p / max(1, recipe.sharding.group)),
            value_optimizer=math.ceil(per.optimizer * p / max(1, recipe.sharding.group)),
            value_gradients=math.ceil((per.gradient + per.gradient_fp32) * p / n),
        )
        copies = 2
    shape = step_shape(w)
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
        sequences = rollout_sequences(w, gpus)
        if w.rollout_engine == "vllm":
            needs = vllm_needs(w)
            share = w.rollout_memory_utilization or VLLM_SHARE
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
            kv = generate_kv_bytes(w, gpus)
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
