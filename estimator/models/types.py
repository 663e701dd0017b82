"""The shapes of a decoder-only transformer, as counted from its config.json."""

from __future__ import annotations

from dataclasses import dataclass, field, fields

# What one layer mixes tokens with, which decides what it caches per sequence (kv_cache.py):
# every token (full attention), the last `sliding_window` tokens, the tokens of the current
# `chunk_size` chunk (Llama 4's local layers), a fixed-size state (linear attention and SSM
# layers: Gated DeltaNet, Mamba), or nothing (Nemotron-H's MLP-only layers). A cross-attention
# layer (Llama 3.2 Vision) keeps no key or value of the text, only those of the image tokens,
# computed once per sequence.
FULL = "full"
SLIDING = "sliding"
CHUNKED = "chunked"
STATE = "state"
NO_MIXER = "none"
CROSS = "cross"
LAYER_KINDS = (FULL, SLIDING, CHUNKED, STATE, NO_MIXER, CROSS)


@dataclass(frozen=True, slots=True)
class Linear:
    """One kind of weight matrix, `count` times in the model (e.g. q_proj x layers).

    `active_count` is how many of them one token passes through (MoE experts: top-k per layer).
    `group` decides how quantization treats it: attention, mlp, expert, shared_expert, router.
    """

    group: str
    name: str
    d_in: int
    d_out: int
    count: int
    active_count: int
    bias: bool = False

    @property
    def params(self) -> int:
        return (self.d_in * self.d_out + (self.d_out if self.bias else 0)) * self.count

    @property
    def active_params(self) -> int:
        return (self.d_in * self.d_out + (self.d_out if self.bias else 0)) * self.active_count


@dataclass(frozen=True, slots=True)
class Mla:
    """DeepSeek multi-head latent attention dimensions."""

    kv_lora_rank: int
    q_lora_rank: int | None
    qk_rope_head_dim: int
    qk_nope_head_dim: int
    v_head_dim: int


@dataclass(frozen=True, slots=True)
class RopeScaling:
    """A RoPE scaling that stretches `original` trained positions `factor` times (YaRN): the
    one a model card documents for contexts past the config's, or the one a launch enables."""

    kind: str  # the config's rope_type: "yarn"
    factor: float
    original: int  # original_max_position_embeddings
    source: str = ""

    @property
    def max_context(self) -> int:
        return int(self.original * self.factor)


@dataclass(frozen=True, slots=True)
class Architecture:
    """Everything the memory formulas need to know about a model."""

    name: str
    model_type: str
    vocab_size: int
    hidden_size: int
    num_layers: int
    num_heads: int
    num_kv_heads: int
    head_dim: int
    tie_embeddings: bool
    linears: tuple[Linear, ...]
    # 1-D parameters (norms, attention sinks, router score biases), all always active.
    other_params: int
    # Per layer: True where the layer attends only over `sliding_window` tokens.
    sliding_layers: tuple[bool, ...] = ()
    sliding_window: int | None = None
    max_context: int | None = None
    # The RoPE scaling the model card documents for contexts past `max_context`, which the
    # config leaves off: engines apply it statically, to short texts too, so it is enabled
    # only for a context that needs it (estimator/models/rope.py).
    rope_scaling: RopeScaling | None = None
    mla: Mla | None = None
    num_experts: int = 0
    experts_per_token: int = 0
    # Width of the MLP hidden activation one token produces (I, or k x I_expert + shared).
    mlp_active_width: int = 0
    # The precision the published checkpoint is stored in (bf16, fp16, fp8_block, mxfp4, ...).
    checkpoint_precision: str = "bf16"
    notes: tuple[str, ...] = field(default=())
    # Per layer, one of LAYER_KINDS; empty means full attention except `sliding_layers`.
    layer_kinds: tuple[str, ...] = ()
    chunk_size: int | None = None
    # Elements of the fixed state one sequence keeps in one STATE layer (convolution window and
    # recurrent state together).
    state_elements: int = 0
    # Every layer keeps that state beside its attention's KV cache (Falcon-H1 runs attention and
    # Mamba side by side in each layer), not instead of it.
    parallel_state: bool = False
    # Image tokens one sequence keeps the keys and values of in one CROSS layer (one image).
    cross_tokens: int = 0
    # Parameters of the vision tower and projector, already inside `linears`/`other_params`.
    vision_params: int = 0
    # Tokens one image takes in the context, at the resolution `image_size` names (pixels).
    image_tokens: int | None = None
    image_size: str | None = None
    # Built by the generic decoder-only reader rather than a family's own builder.
    generic: bool = False
    # What the weights' own headers say (safetensors or gguf): tensor bytes as stored in
    # `measured_format`, and the parameters they hold.
    measured_source: str | None = None
    measured_format: str | None = None
    measured_bytes: int | None = None
    measured_params: int | None = None
    # Every estimate and resolution is memoised on a key that holds the architecture, and
    # hashing its forty fields (with every linear and per-layer tuple) anew at each lookup was
    # a tenth of an answer's time: it is hashed once.
    _hash: int = field(default=0, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        compared = tuple(getattr(self, f.name) for f in fields(self) if f.compare)
        object.__setattr__(self, "_hash", hash(compared))

    def __hash__(self) -> int:
        return self._hash

    @property
    def kinds(self) -> tuple[str, ...]:
        """The kind of every layer."""
        if self.layer_kinds:
            return self.layer_kinds
        if self.sliding_layers:
            return tuple(SLIDING if s else FULL for s in self.sliding_layers)
        return (FULL,) * self.num_layers

    @property
    def embedding_params(self) -> int:
        return self.vocab_size * self.hidden_size

    @property
    def lm_head_params(self) -> int:
        return 0 if self.tie_embeddings else self.vocab_size * self.hidden_size

    @property
    def linear_params(self) -> int:
        return sum(lin.params for lin in self.linears)

    @property
    def params(self) -> int:
        return self.embedding_params + self.lm_head_params + self.linear_params + self.other_params

    @property
    def active_params(self) -> int:
        """Parameters one token touches, counting the whole input embedding table as the
        reference catalog does."""
        return (
            self.embedding_params
            + self.lm_head_params
            + sum(lin.active_params for lin in self.linears)
            + self.other_params
        )

    @property
    def is_moe(self) -> bool:
        return self.num_experts > 0

    @property
    def q_width(self) -> int:
        return self.num_heads * self.head_dim

    @property
    def kv_width(self) -> int:
        return self.num_kv_heads * self.head_dim
