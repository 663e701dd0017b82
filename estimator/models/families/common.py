"""What every family builder shares: bounded reads of config.json values, the usual attention
and MLP matrices, and which layers slide.

Every value is type- and range-checked before any arithmetic, so a config naming a million
layers or NaN heads is refused with its range in one line instead of looping per layer.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...errors import EstimatorError
from ..types import CHUNKED, FULL, SLIDING, Architecture, Linear

Config = Mapping[str, Any]

# Ranges that hold for every published model with room to spare (the largest seen: 128 layers
# in Llama-3.1-405B, hidden 16384, vocab 262,208 in Gemma 3, 512 experts in Qwen3-Next) and
# that keep one answer's arithmetic bounded.
BOUNDS: dict[str, tuple[int, int]] = {
    "num_hidden_layers": (1, 1024),
    "hidden_size": (1, 131_072),
    "intermediate_size": (1, 1_048_576),
    "vocab_size": (1, 4_194_304),
    "num_attention_heads": (1, 4096),
    "num_key_value_heads": (1, 4096),
    "head_dim": (1, 8192),
    "num_experts": (1, 16_384),
    "num_experts_per_tok": (1, 16_384),
    "max_position_embeddings": (1, 1 << 27),
    "sliding_window": (1, 1 << 27),
}
DEFAULT_BOUND = (1, 1 << 24)
# The most parameters a model may have: ten trillion, the bare-size ceiling too.
MAX_PARAMS = 10**13


def _bound(key: str) -> tuple[int, int]:
    for name, bound in BOUNDS.items():
        if key == name or key.endswith(name.removeprefix("num_")):
            return bound
    return DEFAULT_BOUND


def integer(cfg: Config, key: str, default: int | None = None, *, low: int | None = None) -> int:
    """cfg[key] as a whole number inside its range; a missing key falls back to `default`."""
    value = cfg.get(key, default)
    if value is None:
        raise EstimatorError("config_missing_key", field=key)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise EstimatorError("config_bad_value", field=key, value=str(value)[:40])
    if isinstance(value, float) and not (math.isfinite(value) and value.is_integer()):
        raise EstimatorError("config_bad_value", field=key, value=str(value)[:40])
    lo, hi = _bound(key)
    if low is not None:
        lo = low
    if not lo <= value <= hi:
        # str() of a 5,000-digit integer itself raises (Python's int_max_str_digits).
        shown = str(value) if abs(value) < 10**30 else f"more than 10^30 ({type(value).__name__})"
        raise EstimatorError("config_out_of_range", field=key, value=shown, low=lo, high=hi)
    return int(value)


def optional(cfg: Config, key: str) -> int | None:
    return None if cfg.get(key) is None else integer(cfg, key)


def positions(cfg: Config) -> int | None:
    """The longest context the config runs as it stands: max_position_embeddings, or the
    original_max_position_embeddings x factor a YaRN `rope_scaling` in it stretches to when
    that is longer (how vLLM derives max_model_len for YaRN, _get_and_verify_max_len)."""
    stated = optional(cfg, "max_position_embeddings")
    scaling = cfg.get("rope_scaling")
    if (
        not isinstance(scaling, Mapping)
        or (scaling.get("rope_type") or scaling.get("type")) != "yarn"
    ):
        return stated
    factor = scaling.get("factor")
    original = optional(scaling, "original_max_position_embeddings")
    if isinstance(factor, bool) or not isinstance(factor, int | float) or original is None:
        return stated
    if not 1 <= factor < math.inf:
        return stated
    stretched = min(int(original * factor), BOUNDS["max_position_embeddings"][1])
    return max(stated or 0, stretched)


def flag(cfg: Config, key: str, default: bool) -> bool:
    value = cfg.get(key)
    return default if value is None else bool(value)


def integers(cfg: Config, key: str, length: int | None = None) -> list[int]:
    """A list of whole numbers (layer indices, per-layer widths); `length` when it must match."""
    value = cfg.get(key) or []
    if not isinstance(value, Sequence) or isinstance(value, str) or len(value) > 4096:
        raise EstimatorError("config_bad_value", field=key, value=str(value)[:40])
    if length is not None and len(value) != length:
        raise EstimatorError("config_bad_value", field=key, value=f"{len(value)} entries")
    return [integer({key: v}, key, low=0) for v in value]


def strings(cfg: Config, key: str, length: int) -> list[str]:
    value = cfg.get(key)
    if not isinstance(value, Sequence) or isinstance(value, str) or len(value) != length:
        shown = f"{len(value)} entries" if isinstance(value, Sequence) else str(value)[:40]
        raise EstimatorError("config_bad_value", field=key, value=shown)
    return [str(v) for v in value]


@dataclass(frozen=True, slots=True)
class Dims:
    """The attention shape most families share."""

    h: int
    L: int
    V: int
    n_q: int
    n_kv: int
    d: int


def dims(cfg: Config) -> Dims:
    h = integer(cfg, "hidden_size")
    n_q = integer(cfg, "num_attention_heads")
    n_kv = integer(cfg, "num_key_value_heads", n_q)
    if cfg.get("head_dim") is not None:
        d = integer(cfg, "head_dim")
    elif h % n_q:
        raise EstimatorError("config_bad_value", field="num_attention_heads", value=str(n_q))
    else:
        d = h // n_q
    if n_q % n_kv:
        raise EstimatorError("config_bad_value", field="num_key_value_heads", value=str(n_kv))
    return Dims(h, integer(cfg, "num_hidden_layers"), integer(cfg, "vocab_size"), n_q, n_kv, d)


def attention(
    c: Dims, *, qkv_bias: bool, o_bias: bool, fused: bool, layers: int | None = None
) -> list[Linear]:
    L = c.L if layers is None else layers
    h, n_q, n_kv, d = c.h, c.n_q, c.n_kv, c.d
    if fused:
        qkv = [Linear("attention", "qkv_proj", h, (n_q + 2 * n_kv) * d, L, L, qkv_bias)]
    else:
        qkv = [
            Linear("attention", "q_proj", h, n_q * d, L, L, qkv_bias),
            Linear("attention", "k_proj", h, n_kv * d, L, L, qkv_bias),
            Linear("attention", "v_proj", h, n_kv * d, L, L, qkv_bias),
        ]
    return [*qkv, Linear("attention", "o_proj", n_q * d, h, L, L, o_bias)]


def gated_mlp(
    group: str,
    h: int,
    width: int,
    count: int,
    active: int,
    *,
    fused: bool = False,
    bias: bool = False,
) -> list[Linear]:
    if fused:
        up = [Linear(group, "gate_up_proj", h, 2 * width, count, active, bias)]
    else:
        up = [
            Linear(group, "gate_proj", h, width, count, active, bias),
            Linear(group, "up_proj", h, width, count, active, bias),
        ]
    return [*up, Linear(group, "down_proj", width, h, count, active, bias)]


def plain_mlp(
    group: str, h: int, width: int, count: int, active: int, *, bias: bool
) -> list[Linear]:
    """A non-gated MLP (GELU or ReLU²): up then down."""
    return [
        Linear(group, "up_proj", h, width, count, active, bias),
        Linear(group, "down_proj", width, h, count, active, bias),
    ]


def tie(cfg: Config, default: bool) -> bool:
    return flag(cfg, "tie_word_embeddings", default)


def build(name: str, cfg: Config, c: Dims, **kw: Any) -> Architecture:
    arch = Architecture(
        name=name,
        model_type=str(cfg.get("model_type", ""))[:40],
        vocab_size=c.V,
        hidden_size=c.h,
        num_layers=c.L,
        num_heads=c.n_q,
        num_kv_heads=c.n_kv,
        head_dim=c.d,
        max_context=positions(cfg),
        **kw,
    )
    if arch.params > MAX_PARAMS:
        raise EstimatorError("config_too_many_params", params=arch.params, high=MAX_PARAMS)
    return arch


def sliding(cfg: Config, L: int) -> dict[str, Any]:
    """Which layers attend over a sliding window only.

    `layer_types` when the config lists it; else Gemma 2 alternates (even layers slide),
    Gemma 3 makes every `sliding_window_pattern`-th layer global (default 6), Cohere 2 every
    `sliding_window_pattern`-th (default 4), and Mistral-style configs with a `sliding_window`
    slide on every layer. Other families (Qwen2 with use_sliding_window false, Phi-3's 2047
    window on a 4k model) are treated as full attention, which can only overstate the cache.
    """
    window = cfg.get("sliding_window")
    model_type = cfg.get("model_type")
    if cfg.get("layer_types"):
        types = strings(cfg, "layer_types", L)
        layers = [t == "sliding_attention" for t in types]
    elif not window:
        return {}
    elif model_type == "gemma2":
        layers = [i % 2 == 0 for i in range(L)]
    elif model_type in ("gemma3_text", "cohere2"):
        default = 6 if model_type == "gemma3_text" else 4
        pattern = integer(cfg, "sliding_window_pattern", default)
        layers = [(i + 1) % pattern != 0 for i in range(L)]
    elif model_type in ("mistral", "mixtral") or cfg.get("use_sliding_window"):
        layers = [True] * L
    else:
        return {}
    if not any(layers):
        return {}
    return {"sliding_layers": tuple(layers), "sliding_window": integer(cfg, "sliding_window")}


def chunked(cfg: Config, L: int, local: Sequence[bool]) -> dict[str, Any]:
    """Layers that attend within chunks of `attention_chunk_size` tokens (Llama 4)."""
    size = optional(cfg, "attention_chunk_size")
    if not size or not any(local):
        return {}
    kinds = tuple(CHUNKED if is_local else FULL for is_local in local)
    return {"layer_kinds": kinds, "chunk_size": size}


def kinds_of(layers: Sequence[bool]) -> tuple[str, ...]:
    return tuple(SLIDING if s else FULL for s in layers)
