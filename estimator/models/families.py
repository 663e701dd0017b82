"""Architecture builders per model family: config.json keys -> weight matrices and 1-D params.

The formulas are the models' own modeling code (checked against stated totals and
checkpoint byte counts); tests/estimator/test_params.py checks every catalog model against the
exact counts of the reference catalog.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..errors import EstimatorError
from .types import Architecture, Linear, Mla

Config = Mapping[str, Any]


def _int(cfg: Config, key: str, default: int | None = None) -> int:
    value = cfg.get(key, default)
    if value is None:
        raise EstimatorError("config_missing_key", key=key)
    if isinstance(value, bool) or not isinstance(value, int | float) or value != int(value):
        raise EstimatorError("config_bad_value", key=key, value=str(value)[:40])
    if value <= 0:
        raise EstimatorError("config_bad_value", key=key, value=str(value)[:40])
    return int(value)


def _opt_int(cfg: Config, key: str) -> int | None:
    return None if cfg.get(key) is None else _int(cfg, key)


def _common(cfg: Config) -> dict[str, int]:
    h = _int(cfg, "hidden_size")
    n_q = _int(cfg, "num_attention_heads")
    n_kv = _int(cfg, "num_key_value_heads", n_q)
    head_dim = cfg.get("head_dim")
    d = _int(cfg, "head_dim") if head_dim is not None else h // n_q
    if head_dim is None and h % n_q:
        raise EstimatorError("config_bad_value", key="num_attention_heads", value=str(n_q))
    return {
        "h": h,
        "L": _int(cfg, "num_hidden_layers"),
        "V": _int(cfg, "vocab_size"),
        "n_q": n_q,
        "n_kv": n_kv,
        "d": d,
    }


def _attention(c: dict[str, int], *, qkv_bias: bool, o_bias: bool, fused: bool) -> list[Linear]:
    h, L, n_q, n_kv, d = c["h"], c["L"], c["n_q"], c["n_kv"], c["d"]
    if fused:
        qkv = [Linear("attention", "qkv_proj", h, (n_q + 2 * n_kv) * d, L, L, qkv_bias)]
    else:
        qkv = [
            Linear("attention", "q_proj", h, n_q * d, L, L, qkv_bias),
            Linear("attention", "k_proj", h, n_kv * d, L, L, qkv_bias),
            Linear("attention", "v_proj", h, n_kv * d, L, L, qkv_bias),
        ]
    return [*qkv, Linear("attention", "o_proj", n_q * d, h, L, L, o_bias)]


def _gated_mlp(
    group: str, h: int, width: int, count: int, active: int, *, fused: bool = False, bias=False
) -> list[Linear]:
    if fused:
        up = [Linear(group, "gate_up_proj", h, 2 * width, count, active, bias)]
    else:
        up = [
            Linear(group, "gate_proj", h, width, count, active, bias),
            Linear(group, "up_proj", h, width, count, active, bias),
        ]
    return [*up, Linear(group, "down_proj", width, h, count, active, bias)]


def _tie(cfg: Config, default: bool) -> bool:
    value = cfg.get("tie_word_embeddings")
    return default if value is None else bool(value)


def _arch(name: str, cfg: Config, c: dict[str, int], **kw: Any) -> Architecture:
    return Architecture(
        name=name,
        model_type=str(cfg.get("model_type", "")),
        vocab_size=c["V"],
        hidden_size=c["h"],
        num_layers=c["L"],
        num_heads=c["n_q"],
        num_kv_heads=c["n_kv"],
        head_dim=c["d"],
        max_context=_opt_int(cfg, "max_position_embeddings"),
        **kw,
    )


# Per family: (norm weights per layer in units of h, QK-norm params per layer, tied by default,
# qkv bias by default, fused projections). Sources: formulas.md section 1 and its variants.
_DENSE: dict[str, tuple[int, Callable[[dict[str, int]], int], bool, bool, bool]] = {
    "llama": (2, lambda c: 0, False, False, False),
    "mistral": (2, lambda c: 0, False, False, False),
    "qwen2": (2, lambda c: 0, False, True, False),
    "qwen3": (2, lambda c: 2 * c["d"], False, False, False),
    "phi3": (2, lambda c: 0, False, False, True),
    "gemma": (2, lambda c: 0, True, False, False),
    "gemma2": (4, lambda c: 0, True, False, False),
    "gemma3_text": (4, lambda c: 2 * c["d"], True, False, False),
    "olmo2": (2, lambda c: (c["n_q"] + c["n_kv"]) * c["d"], False, False, False),
}


def _dense(name: str, cfg: Config) -> Architecture:
    model_type = str(cfg["model_type"])
    norms, qk_norm, tie_default, bias_default, fused = _DENSE[model_type]
    c = _common(cfg)
    h, L, I = c["h"], c["L"], _int(cfg, "intermediate_size")
    qkv_bias = bool(cfg.get("attention_bias", bias_default))
    o_bias = bool(cfg.get("attention_bias", False)) and model_type != "qwen2"
    linears = _attention(c, qkv_bias=qkv_bias, o_bias=o_bias, fused=fused)
    linears += _gated_mlp("mlp", h, I, L, L, fused=fused)
    other = L * (norms * h + qk_norm(c)) + h
    return _arch(
        name,
        cfg,
        c,
        tie_embeddings=_tie(cfg, tie_default),
        linears=tuple(linears),
        other_params=other,
        mlp_active_width=I,
        **_sliding(cfg, L),
    )


def _qwen1(name: str, cfg: Config) -> Architecture:
    """Qwen (v1, remote code): fused c_attn with bias, w1/w2 each intermediate_size // 2."""
    cfg = {**cfg, "head_dim": cfg.get("kv_channels")}
    c = _common(cfg)
    h, L = c["h"], c["L"]
    ff = _int(cfg, "intermediate_size") // 2
    linears = [
        Linear("attention", "c_attn", h, 3 * c["n_q"] * c["d"], L, L, True),
        Linear("attention", "c_proj", c["n_q"] * c["d"], h, L, L),
        Linear("mlp", "w1", h, ff, L, L),
        Linear("mlp", "w2", h, ff, L, L),
        Linear("mlp", "c_proj", ff, h, L, L),
    ]
    ctx = cfg.get("max_position_embeddings") or cfg.get("seq_length")
    return _arch(
        name,
        {**cfg, "max_position_embeddings": ctx},
        c,
        tie_embeddings=_tie(cfg, False),
        linears=tuple(linears),
        other_params=L * 2 * h + h,
        mlp_active_width=ff,
    )


def _falcon(name: str, cfg: Config) -> Architecture:
    """Falcon: fused QKV, dense h->h, GELU MLP 4h, LayerNorms with bias, tied embeddings."""
    new_arch = bool(cfg.get("new_decoder_architecture", False))
    if not new_arch and cfg.get("multi_query", True):
        cfg = {**cfg, "num_key_value_heads": 1}
    c = _common(cfg)
    h, L = c["h"], c["L"]
    ff = _int(cfg, "ffn_hidden_size", 4 * h)
    bias = bool(cfg.get("bias", False))
    linears = [
        Linear("attention", "query_key_value", h, (c["n_q"] + 2 * c["n_kv"]) * c["d"], L, L, bias),
        Linear("attention", "dense", c["n_q"] * c["d"], h, L, L, bias),
        Linear("mlp", "dense_h_to_4h", h, ff, L, L, bias),
        Linear("mlp", "dense_4h_to_h", ff, h, L, L, bias),
    ]
    two_norms = new_arch or not cfg.get("parallel_attn", True)
    layer_norms = (2 if two_norms else 1) * 2 * h
    return _arch(
        name,
        cfg,
        c,
        tie_embeddings=_tie(cfg, True),
        linears=tuple(linears),
        other_params=L * layer_norms + 2 * h,
        mlp_active_width=ff,
    )


def _sparse_layers(cfg: Config, L: int) -> list[bool]:
    """MoE layers by the Mixtral/Qwen-MoE rule: all but `mlp_only_layers`, every
    `decoder_sparse_step`-th (transformers Qwen2MoeDecoderLayer)."""
    step = int(cfg.get("decoder_sparse_step") or 1)
    dense_only = set(cfg.get("mlp_only_layers") or ())
    return [i not in dense_only and (i + 1) % step == 0 for i in range(L)]


def _deepseek_moe_layers(cfg: Config, L: int) -> list[bool]:
    """MoE layers by the DeepSeek rule: from `first_k_dense_replace`, every `moe_layer_freq`-th."""
    first = int(cfg.get("first_k_dense_replace") or 0)
    freq = int(cfg.get("moe_layer_freq") or 1)
    return [i >= first and i % freq == 0 for i in range(L)]


def _moe(name: str, cfg: Config) -> Architecture:
    """Mixtral, Qwen2-MoE, Qwen3-MoE: llama-style attention, every (sparse) layer MoE."""
    model_type = str(cfg["model_type"])
    c = _common(cfg)
    h, L = c["h"], c["L"]
    E = _int(cfg, "num_local_experts" if model_type == "mixtral" else "num_experts")
    k = _int(cfg, "num_experts_per_tok")
    if k > E:
        raise EstimatorError("config_bad_value", key="num_experts_per_tok", value=str(k))
    I_e = _int(cfg, "intermediate_size" if model_type == "mixtral" else "moe_intermediate_size")
    n_moe = sum(_sparse_layers(cfg, L))
    n_dense = L - n_moe
    linears = _attention(c, qkv_bias=model_type == "qwen2_moe", o_bias=False, fused=False)
    if n_dense:
        linears += _gated_mlp("mlp", h, _int(cfg, "intermediate_size"), n_dense, n_dense)
    linears.append(Linear("router", "gate", h, E, n_moe, n_moe))
    linears += _gated_mlp("expert", h, I_e, n_moe * E, n_moe * k)
    active_width = k * I_e
    if model_type == "qwen2_moe" and cfg.get("shared_expert_intermediate_size"):
        shared = _int(cfg, "shared_expert_intermediate_size")
        linears += _gated_mlp("shared_expert", h, shared, n_moe, n_moe)
        linears.append(Linear("router", "shared_expert_gate", h, 1, n_moe, n_moe))
        active_width += shared
    qk_norm = 2 * c["d"] if model_type == "qwen3_moe" else 0
    return _arch(
        name,
        cfg,
        c,
        tie_embeddings=_tie(cfg, False),
        linears=tuple(linears),
        other_params=L * (2 * h + qk_norm) + h,
        num_experts=E,
        experts_per_token=k,
        mlp_active_width=active_width,
        **_sliding(cfg, L),
    )


def _deepseek(name: str, cfg: Config) -> Architecture:
    """DeepSeek-V2/V3: multi-head latent attention and DeepSeekMoE with shared experts."""
    h = _int(cfg, "hidden_size")
    L = _int(cfg, "num_hidden_layers")
    n_h = _int(cfg, "num_attention_heads")
    mla = Mla(
        kv_lora_rank=_int(cfg, "kv_lora_rank"),
        q_lora_rank=_opt_int(cfg, "q_lora_rank"),
        qk_rope_head_dim=_int(cfg, "qk_rope_head_dim"),
        qk_nope_head_dim=_int(cfg, "qk_nope_head_dim"),
        v_head_dim=_int(cfg, "v_head_dim"),
    )
    qk = mla.qk_nope_head_dim + mla.qk_rope_head_dim
    linears: list[Linear] = []
    other = L * (2 * h + mla.kv_lora_rank) + h
    if mla.q_lora_rank:
        linears += [
            Linear("attention", "q_a_proj", h, mla.q_lora_rank, L, L),
            Linear("attention", "q_b_proj", mla.q_lora_rank, n_h * qk, L, L),
        ]
        other += L * mla.q_lora_rank
    else:
        linears.append(Linear("attention", "q_proj", h, n_h * qk, L, L))
    linears += [
        Linear("attention", "kv_a_proj_with_mqa", h, mla.kv_lora_rank + mla.qk_rope_head_dim, L, L),
        Linear(
            "attention",
            "kv_b_proj",
            mla.kv_lora_rank,
            n_h * (mla.qk_nope_head_dim + mla.v_head_dim),
            L,
            L,
        ),
        Linear("attention", "o_proj", n_h * mla.v_head_dim, h, L, L),
    ]
    E = _int(cfg, "n_routed_experts")
    k = _int(cfg, "num_experts_per_tok")
    I_e = _int(cfg, "moe_intermediate_size")
    shared = int(cfg.get("n_shared_experts") or 0)
    n_moe = sum(_deepseek_moe_layers(cfg, L))
    n_dense = L - n_moe
    if n_dense:
        linears += _gated_mlp("mlp", h, _int(cfg, "intermediate_size"), n_dense, n_dense)
    linears.append(Linear("router", "gate", h, E, n_moe, n_moe))
    if cfg.get("topk_method") == "noaux_tc":
        other += n_moe * E  # e_score_correction_bias
    linears += _gated_mlp("expert", h, I_e, n_moe * E, n_moe * k)
    if shared:
        linears += _gated_mlp("shared_expert", h, shared * I_e, n_moe, n_moe)
    c = {"h": h, "L": L, "V": _int(cfg, "vocab_size"), "n_q": n_h, "n_kv": n_h, "d": qk}
    return _arch(
        name,
        cfg,
        c,
        tie_embeddings=_tie(cfg, False),
        linears=tuple(linears),
        other_params=other,
        mla=mla,
        num_experts=E,
        experts_per_token=k,
        mlp_active_width=(k + shared) * I_e,
    )


def _gpt_oss(name: str, cfg: Config) -> Architecture:
    """gpt-oss: biased attention with per-head sinks, biased router and experts (fused gate_up)."""
    c = _common(cfg)
    h, L = c["h"], c["L"]
    E = _int(cfg, "num_local_experts")
    k = _int(cfg, "num_experts_per_tok")
    I_e = _int(cfg, "intermediate_size")
    linears = _attention(c, qkv_bias=True, o_bias=True, fused=False)
    linears.append(Linear("router", "router", h, E, L, L, True))
    linears += [
        Linear("expert", "gate_up_proj", h, 2 * I_e, L * E, L * k, True),
        Linear("expert", "down_proj", I_e, h, L * E, L * k, True),
    ]
    return _arch(
        name,
        cfg,
        c,
        tie_embeddings=_tie(cfg, False),
        linears=tuple(linears),
        other_params=L * (2 * h + c["n_q"]) + h,
        num_experts=E,
        experts_per_token=k,
        mlp_active_width=k * I_e,
        **_sliding(cfg, L),
    )


def _sliding(cfg: Config, L: int) -> dict[str, Any]:
    """Which layers attend over a sliding window only.

    `layer_types` when the config lists it; else Gemma 2 alternates (even layers slide),
    Gemma 3 makes every `sliding_window_pattern`-th layer global (default 6), and Mistral-style
    configs with a `sliding_window` slide on every layer. Other families (Qwen2 with
    use_sliding_window false, Phi-3's 2047 window on a 4k model) are treated as full attention,
    which can only overstate the KV cache.
    """
    window = cfg.get("sliding_window")
    types = cfg.get("layer_types")
    model_type = cfg.get("model_type")
    if types:
        layers = [t == "sliding_attention" for t in types]
        if len(layers) != L:
            raise EstimatorError(
                "config_bad_value", key="layer_types", value=f"{len(layers)} entries"
            )
    elif not window:
        return {}
    elif model_type == "gemma2":
        layers = [i % 2 == 0 for i in range(L)]
    elif model_type == "gemma3_text":
        pattern = int(cfg.get("sliding_window_pattern") or 6)
        layers = [(i + 1) % pattern != 0 for i in range(L)]
    elif model_type in ("mistral", "mixtral"):
        layers = [True] * L
    else:
        return {}
    if not any(layers):
        return {}
    return {"sliding_layers": tuple(layers), "sliding_window": _int(cfg, "sliding_window")}


BUILDERS: dict[str, Callable[[str, Config], Architecture]] = {
    **{model_type: _dense for model_type in _DENSE},
    "qwen": _qwen1,
    "falcon": _falcon,
    "mixtral": _moe,
    "qwen2_moe": _moe,
    "qwen3_moe": _moe,
    "deepseek_v2": _deepseek,
    "deepseek_v3": _deepseek,
    "gpt_oss": _gpt_oss,
}


def build(name: str, cfg: Config) -> Architecture:
    """Architecture of a config.json dict whose keys were already normalised."""
    builder = BUILDERS.get(str(cfg.get("model_type")))
    if builder is None:
        raise EstimatorError("unsupported_architecture", model_type=str(cfg.get("model_type"))[:40])
    return builder(name, cfg)
