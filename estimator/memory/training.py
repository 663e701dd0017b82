"""Training state memory of one full replica: weights, gradients, fp32 master weights, optimizer
states and adapters, as the framework's recipe prices them (estimator/frameworks/ says what each
framework keeps per parameter and why). Sharding and offload come after, in training_plan.

- LoRA (arXiv:2106.09685) trains A (rank x d_in) and B (d_out x rank) beside every targeted
  matrix; the frozen base stays in its stored format.
- QLoRA under PEFT: prepare_model_for_kbit_training casts every non-quantized parameter (norms,
  embeddings, lm_head) of a bitsandbytes model to fp32 (peft src/peft/utils/other.py), and skips
  GPTQ models ("if not is_gptq_quantized"). Sharded QLoRA skips the call (the recipe says when).
- Adafactor keeps factored second moments, rows + columns per matrix, no first moment (Shazeer &
  Stern 2018, arXiv:1804.04235 §3).
- freeze fine-tuning trains the last FREEZE_TRAINABLE_LAYERS decoder layers.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..frameworks.profile import Recipe, StateBytes
from ..models.types import Architecture
from ..precision import QUANTIZED_GROUPS, WeightFormat, weight_bytes
from .constants import FREEZE_TRAINABLE_LAYERS

LORA_GROUPS = {
    "all": QUANTIZED_GROUPS,
    "attention": frozenset({"attention"}),
    "mlp": QUANTIZED_GROUPS - {"attention"},
}
# Formats whose models PEFT's prepare_model_for_kbit_training upcasts around (bitsandbytes).
KBIT_UPCAST = frozenset({"nf4", "int8"})


@dataclass(frozen=True, slots=True)
class TrainingStates:
    """Model states for one full replica (before any sharding)."""

    weights: int  # frozen and trainable base weights
    adapters: int  # LoRA adapter weights (and trainable embedding copies)
    gradients: int
    master_weights: int
    optimizer_states: int
    trainable_params: int
    adapter_params: int
    largest_layer_params: int
    trainable: StateBytes
    upcast: int  # bytes the k-bit upcast added to the weights
    head_gradients: int  # the output projection's gradient, alive from the backward's start


def adafactor_bytes(arch: Architecture) -> int:
    """Factored second moment: one fp32 value per row and per column of each matrix, full for
    vectors."""
    matrices = sum(lin.count * (lin.d_in + lin.d_out) for lin in arch.linears)
    tables = (arch.vocab_size + arch.hidden_size) * (1 if arch.tie_embeddings else 2)
    biases = sum(lin.count * lin.d_out for lin in arch.linears if lin.bias)
    return 4 * (matrices + tables + biases + arch.other_params)


def lora_params(arch: Architecture, rank: int, targets: str) -> int:
    """A (rank x d_in) and B (d_out x rank) for every targeted matrix."""
    groups = LORA_GROUPS[targets]
    return sum(
        rank * (lin.d_in + lin.d_out) * lin.count for lin in arch.linears if lin.group in groups
    )


def lora_adafactor_bytes(arch: Architecture, rank: int, targets: str) -> int:
    """Adafactor's factored moments for the adapter matrices: rows + columns of A and of B."""
    groups = LORA_GROUPS[targets]
    return 4 * sum(
        (2 * rank + lin.d_in + lin.d_out) * lin.count for lin in arch.linears if lin.group in groups
    )


def largest_layer(arch: Architecture) -> int:
    per_layer = sum(lin.params for lin in arch.linears) // arch.num_layers
    return max(per_layer, arch.embedding_params)


def layer_params(arch: Architecture) -> int:
    """Parameters of one decoder layer (an FSDP unit under the transformer wrap policy)."""
    return (arch.linear_params + arch.other_params) // arch.num_layers


def training_states(
    arch: Architecture,
    *,
    method: str,
    base_format: WeightFormat,
    recipe: Recipe,
    optimizer: str,
    lora_rank: int,
    lora_targets: str,
    train_embeddings: bool,
) -> TrainingStates:
    fp32 = base_format.name == "fp32"
    params = arch.params
    head = arch.embedding_params + arch.lm_head_params
    # The output projection's gradient is the first the backward makes (a tied embedding's, which
    # it shares, lives from then to the end); the input embedding's comes last, when the
    # activations are gone.
    output = arch.lm_head_params or arch.embedding_params
    if method in ("full", "freeze"):
        per = recipe.full
        if method == "full":
            trainable = params
        else:
            trainable = min(params, FREEZE_TRAINABLE_LAYERS * layer_params(arch))
        frozen = params - trainable
        optimizer_states = round(per.optimizer * trainable)
        if optimizer == "adafactor":
            optimizer_states = round(adafactor_bytes(arch) * trainable / params)
        gradients = round(per.gradient * trainable)
        return TrainingStates(
            weights=round(per.weight * trainable + (4 if fp32 else 2) * frozen),
            adapters=0,
            gradients=gradients,
            master_weights=round(per.master * trainable),
            optimizer_states=optimizer_states,
            trainable_params=trainable,
            adapter_params=0,
            largest_layer_params=largest_layer(arch),
            trainable=per,
            upcast=0,
            head_gradients=round(per.gradient * output) if method == "full" else 0,
        )
    base = weight_bytes(arch, base_format)
    upcast = 0
    if method == "qlora" and recipe.kbit_upcast and base_format.kind in KBIT_UPCAST:
        upcast = base.embedding + base.lm_head + base.other
    per = recipe.adapter
    adapter = lora_params(arch, lora_rank, lora_targets)
    embeddings = head if train_embeddings else 0
    trainable = adapter + embeddings
    if optimizer == "adafactor":
        optimizer_states = lora_adafactor_bytes(arch, lora_rank, lora_targets) + 4 * embeddings
    else:
        optimizer_states = round(per.optimizer * trainable)
    return TrainingStates(
        weights=base.total + upcast,
        adapters=round(per.weight * trainable),
        gradients=round(per.gradient * trainable),
        master_weights=round(per.master * trainable),
        optimizer_states=optimizer_states,
        trainable_params=trainable,
        adapter_params=adapter,
        largest_layer_params=largest_layer(arch),
        trainable=per,
        upcast=upcast,
        head_gradients=round(per.gradient * embeddings),
    )
