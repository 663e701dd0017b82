"""Read a Hugging Face config.json (a file or a dict) into an Architecture."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from ..errors import EstimatorError
from . import families, vision
from .types import Architecture

# Older or remote-code configs spell the same fields differently (GPT-2 style, Falcon RW).
_ALIASES = {
    "hidden_size": ("n_embd", "n_embed", "d_model"),
    "num_hidden_layers": ("n_layer", "num_layers"),
    "num_attention_heads": ("n_head",),
    "num_key_value_heads": ("n_head_kv", "num_kv_heads"),
}
# Falcon's original RW configs name the model type after the class; vision-language wrappers
# name their text model after themselves.
_MODEL_TYPES = {
    "RefinedWeb": "falcon",
    "RefinedWebModel": "falcon",
    "gemma3": "gemma3_text",
    "qwen2_5_vl": "qwen2",
    "qwen2_5_vl_text": "qwen2",
    "qwen3_vl_text": "qwen3",
    "qwen3_vl_moe_text": "qwen3_moe",
    "mistral3_text": "mistral",
    "llama4": "llama4_text",
    "mllama": "mllama_text_model",
    "mllama_text": "mllama_text_model",
}
_DTYPES = {"bfloat16": "bf16", "float16": "fp16", "float32": "fp32"}
# Keys a wrapper holds for its text model when the text_config leaves them out.
_SHARED = ("torch_dtype", "dtype", "quantization_config", "tie_word_embeddings")


def normalise(raw: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The text-model keys of a config, with aliases resolved, and notes on what was dropped."""
    notes: list[str] = []
    cfg = dict(raw)
    text = cfg.get("text_config")
    if isinstance(text, Mapping):
        if not vision.has_tower(raw):
            notes.append("vision_tower_excluded")
        inner = dict(text)
        inner.setdefault("model_type", f"{cfg.get('model_type', '')}_text")
        for key in _SHARED:
            if key in cfg and key not in inner:
                inner[key] = cfg[key]
        cfg = inner
    model_type = cfg.get("model_type")
    if model_type is None and cfg.get("architectures") == ["RWForCausalLM"]:
        model_type = "RefinedWeb" if cfg.get("n_head_kv") else "RefinedWebModel"
    cfg["model_type"] = _MODEL_TYPES.get(str(model_type), model_type)
    if model_type == "RefinedWeb":
        cfg.setdefault("new_decoder_architecture", True)
    for key, aliases in _ALIASES.items():
        if cfg.get(key) is None:
            for alias in aliases:
                if cfg.get(alias) is not None:
                    cfg[key] = cfg[alias]
                    break
    return cfg, notes


def checkpoint_precision(cfg: Mapping[str, Any]) -> str:
    """The precision the checkpoint's weights are stored in, from quantization_config or dtype."""
    quant = cfg.get("quantization_config")
    if isinstance(quant, Mapping):
        method = str(quant.get("quant_method", "")).lower()
        bits = quant.get("bits")
        if method == "fp8":
            return "fp8_block" if quant.get("weight_block_size") else "fp8"
        if method == "mxfp4":
            return "mxfp4"
        if method == "gptq":
            return "gptq-int8" if bits == 8 else "gptq"
        if method == "awq":
            return "awq"
        if method == "bitsandbytes":
            return "nf4" if quant.get("load_in_4bit") else "int8"
        if method == "compressed-tensors":
            return _compressed_tensors(quant)
    dtype = cfg.get("torch_dtype") or cfg.get("dtype")
    return _DTYPES.get(str(dtype), "bf16")


def _compressed_tensors(quant: Mapping[str, Any]) -> str:
    """llm-compressor checkpoints: FP8 (float, 8 bits) or 4/8-bit integer weights (W4A16 and
    W8A16 pack like GPTQ: group scales per output column)."""
    groups = quant.get("config_groups")
    scheme: object = (
        next(iter(groups.values()), {}) if isinstance(groups, Mapping) and groups else {}
    )
    weights = scheme.get("weights") if isinstance(scheme, Mapping) else None
    if not isinstance(weights, Mapping):
        return "bf16"
    if weights.get("type") == "float" and weights.get("num_bits") == 8:
        return "fp8_block" if weights.get("block_structure") else "fp8"
    if weights.get("type") == "int":
        return "gptq-int8" if weights.get("num_bits") == 8 else "gptq"
    return "bf16"


def from_dict(raw: Mapping[str, Any], name: str) -> Architecture:
    if not isinstance(raw, Mapping):
        raise EstimatorError("config_not_object")
    cfg, notes = normalise(raw)
    arch = families.build(name, cfg)
    tower = vision.tower(raw, arch.hidden_size)
    if tower is not None:
        arch = replace(
            arch,
            linears=arch.linears + tower.linears,
            other_params=arch.other_params + tower.other,
            vision_params=tower.params,
            image_tokens=tower.image_tokens,
            image_size=tower.image_size,
            cross_tokens=tower.cross_tokens,
        )
    if arch.generic:
        notes.append("generic_architecture")
    return replace(arch, checkpoint_precision=checkpoint_precision(cfg), notes=tuple(notes))
