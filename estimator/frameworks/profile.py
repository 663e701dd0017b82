"""What a training framework decides about memory, as one resolved recipe.

Each framework module (transformers, unsloth, torchtune, axolotl, llama_factory, deepspeed, fsdp)
turns a workload into a Recipe: how many bytes each kind of trainable parameter costs, which
kernels keep which activations, how the cross-entropy is computed, whether gradients outlive the
micro-batch, and how the states are sharded or offloaded over the GPUs. The memory plan
(estimator/memory/training_plan.py) only reads the recipe, so adding a framework is one module
and one registry line.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..precision import WeightFormat
    from ..vocabulary import Method
    from ..workload import Workload


@dataclass(frozen=True, slots=True)
class StateBytes:
    """Per-parameter byte costs of one kind of trainable parameter. `gradient` is the gradient in
    the weights' width; `gradient_fp32` an fp32 gradient partition beside it (DeepSpeed), sharded
    with the optimizer states."""

    weight: float
    gradient: float
    master: float
    optimizer: float
    gradient_fp32: float = 0.0


@dataclass(frozen=True, slots=True)
class Kernels:
    """What the decoder layer's kernels keep for the backward pass, per token.

    norm_bytes: bytes per hidden unit an RMSNorm keeps with a frozen scale. Eager PyTorch
    (transformers' LlamaRMSNorm, torchtune's RMSNorm) saves the fp32 upcast of its input for
    pow() and the multiply: 4. A fused Triton norm (Liger, Unsloth) saves its bf16 input and one
    fp32 inverse RMS per row: 2.
    norm_weight_bytes: what a trained scale adds: eager autograd then also keeps the normalised
    bf16 tensor that multiplies it (2); the fused kernels keep their input anyway (0).
    mlp_tensors: MLP-width tensors the gated activation keeps: eager SiLU(gate) * up saves gate
    (for SiLU's backward), SiLU(gate) and up (for the product's): 3; a fused SwiGLU kernel saves
    gate and up and recomputes the rest: 2.
    compile_share: share of the eager activations that torch.compile's partitioner still saves.
    lora_mlp_recomputes: a fused LoRA MLP keeps its input, gate and up and recomputes the product
    that down_proj's adapter reads (Unsloth kernels/fast_lora.py LoRA_MLP saves X, e, g).
    norm_keeps_input: the norm saves the tensor it was given rather than a copy, so under
    checkpointing the first norm of a recomputed layer keeps the checkpoint itself (a detached
    alias of the saved input: torch.utils.checkpoint, Unsloth's checkpointers) and adds nothing.
    """

    name: str
    norm_bytes: int
    norm_weight_bytes: int
    mlp_tensors: int
    compile_share: float = 1.0
    lora_mlp_recomputes: bool = False
    norm_keeps_input: bool = False


@dataclass(frozen=True, slots=True)
class Loss:
    """How the cross-entropy over the vocabulary is computed.

    kind: unfused (logits for every token at once), chunked (torchtune: bf16 logits kept for every
    token, upcast one chunk at a time), fused_linear (Liger: the lm_head and the loss in chunks,
    gradients computed in the forward), fused_chunked (Unsloth: the same, chunks sized to a memory
    target).
    vocab_bytes: bytes per vocabulary entry and token at the loss's peak (unfused and chunked).
    chunk_bytes: extra bytes per vocabulary entry for the tokens of one chunk (chunked).
    chunks: how many chunks the tokens are cut into (chunked).
    """

    kind: str
    vocab_bytes: float = 0.0
    chunk_bytes: float = 0.0
    chunks: int = 1
    target_bytes: int = 0  # fused_chunked: the most one chunk's fp32 logits may take


@dataclass(frozen=True, slots=True)
class Sharding:
    """How the model states are spread over the data-parallel GPUs.

    backend: single (one GPU), ddp (a full replica per GPU), deepspeed (ZeRO), fsdp.
    stage: what is divided by the group: 1 optimizer states (and fp32 masters), 2 also
    gradients, 3 also parameters. FSDP FULL_SHARD is 3, SHARD_GRAD_OP 2.
    group: how many GPUs one shard spans (all of them, or one node for hybrid sharding).
    offload: where offloaded states go (None, "cpu", "nvme").
    """

    backend: str
    stage: int = 0
    group: int = 1
    devices: int = 1
    offload: str | None = None

    @property
    def parallelism(self) -> str:
        if self.backend in ("single", "ddp"):
            return self.backend
        if self.backend == "deepspeed":
            return f"zero{self.stage}"
        if self.stage == 2:
            return "fsdp_grad_op"
        return "hsdp" if self.hybrid else "fsdp"

    @property
    def hybrid(self) -> bool:
        return self.backend == "fsdp" and self.group < self.devices


@dataclass(frozen=True, slots=True)
class Recipe:
    """Everything the training memory plan needs to know about how the job runs."""

    framework: str
    full: StateBytes  # per parameter trained in full (or freeze) fine-tuning
    adapter: StateBytes  # per LoRA adapter parameter (and trainable embedding copies)
    # QLoRA: PEFT's prepare_model_for_kbit_training upcasts the unquantized parameters to fp32.
    kbit_upcast: bool
    optimizer_in_backward: bool
    # Bytes per trainable parameter the optimizer step allocates on top (foreach AdamW: one more
    # copy of the states' width for the sqrt of the second moment).
    step_bytes: float
    # Gradients outlive the micro-batch (gradient accumulation keeps them through the next
    # forward); otherwise they are freed before the forward (zero_grad(set_to_none=True)).
    accumulate: bool
    checkpointing: bool
    activation_offload: bool
    kernels: Kernels
    loss: Loss
    sharding: Sharding
    paged_optimizer: bool = False  # states in CUDA managed memory (bitsandbytes paged optimizers)
    # Sharded QLoRA, where the framework would otherwise upcast: the upcast is skipped, so the
    # answer can say why the norms and embeddings stay 16-bit.
    kbit_upcast_skipped: bool = False


@dataclass(frozen=True, slots=True)
class Settings:
    """The workload's training choices after the resolver filled the defaults, as a framework
    reads them."""

    method: str
    optimizer: str
    fmt: WeightFormat
    context: int
    adapter_precision: str
    checkpointing: bool
    gpus: int
    node_gpus: int  # GPUs per node, for hybrid sharding
    zero: int
    distributed: str | None
    offload: bool
    offload_device: str
    liger: bool | None
    compile: bool | None
    chunked_loss: bool | None
    optimizer_in_backward: bool | None
    activation_offload: bool | None
    mixed_precision: bool | None
    grad_accumulation: int | None


@dataclass(frozen=True, slots=True)
class Framework:
    """One training framework: its names, its defaults, the options it has, and how it turns
    settings into a recipe."""

    name: str
    label: str
    aliases: tuple[str, ...]
    methods: tuple[str, ...]
    # Options a question may set that this framework has: liger, compile, activation_offload,
    # and the backends deepspeed / fsdp / hsdp / ddp.
    options: frozenset[str]
    adapter_precision: str  # LoRA adapters' dtype by default
    default_optimizer: Callable[[str, int], str]  # (method, gpus) -> optimizer
    build: Callable[[Settings], Recipe]
    source: str
    # The method a question naming the framework but no method gets: what the framework's own
    # examples train, with where they say so (None: full fine-tuning, the general default).
    default_method: Method | None = None
    default_method_source: str = ""

    def recipe(self, settings: Settings) -> Recipe:
        return self.build(settings)


def settings(w: Workload, fmt: WeightFormat, gpus: int, node_gpus: int) -> Settings:
    """A resolved workload's training choices (every default already filled by the resolver)."""
    return Settings(
        method=w.method or "full",
        optimizer=w.optimizer or "adamw",
        fmt=fmt,
        context=w.context or 0,
        adapter_precision=w.adapter_precision or "fp32",
        checkpointing=bool(w.grad_checkpointing),
        gpus=gpus,
        node_gpus=node_gpus,
        zero=w.zero,
        distributed=w.distributed,
        offload=w.offload,
        offload_device=w.offload_device,
        liger=w.liger,
        compile=w.compile,
        chunked_loss=w.chunked_loss,
        optimizer_in_backward=w.optimizer_in_backward,
        activation_offload=w.activation_offload,
        mixed_precision=w.mixed_precision,
        grad_accumulation=w.grad_accumulation,
    )
