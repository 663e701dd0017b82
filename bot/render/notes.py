"""Turn the estimator's notes (a key and numbers) into sentences from the message catalog."""

from __future__ import annotations

from typing import Any

from estimator.result import Note

from ..i18n import has, t

__all__ = ["assumption", "step", "t"]
from . import numbers

_SIZES = {
    "bytes",
    "total",
    "per_device",
    "usable",
    "capacity",
    "weights",
    "gradients",
    "adapters",
    "master_weights",
    "optimizer_states",
    "logits",
    "logits_bytes",
    "ram_bytes",
    "disk_bytes",
    "kv",
    "kept",
    "recompute",
    "loss",
    "activations",
    "buffers",
    "frozen",
    "reference",
    "reward",
    "value",
    "gathered",
    "needs",
    "allocated",
    "reserved",
    "device_total",
}
_PER_TOKEN = {"per_token_bytes", "checkpoint_per_token", "layer_per_token"}
_COUNTS = {"params", "trainable_params", "adapter_params", "vision_params"}
_SHARES = {
    "fraction",
    "utilization",
    "headroom",
    "efficiency_low",
    "efficiency_high",
    "mfu_low",
    "mfu_high",
    "scaling",
    "cpu_share",
}
_FLOPS = {"flops_per_token"}
_INTEGERS = {
    "tokens",
    "rows",
    "data_tokens",
    "examples",
    "per_example",
    "features",
    "sliding_tokens",
    "context",
    "native",
    "original",
    "limit",
    "sequences",
    "vocab",
    "batched_tokens",
    "max_seqs",
    "window",
    "counted",
    "tokens_per_example",
    "group",
    "generation",
    "prompt",
    "exact_params",
    "image_tokens",
    "state_elements",
    "chunk",
}


def _value(name: str, value: Any, lang: str) -> str:
    if isinstance(value, str) and has(f"{name}.{value}", lang):
        return t(f"{name}.{value}", lang)  # a word the catalog translates ("targets.all")
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return "" if value is None else str(value)
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value)
    if isinstance(value, dict):
        return ""
    if name in _SIZES:
        return numbers.size(value, lang)
    if name in _PER_TOKEN:
        return f"{numbers.integer(value, lang)} B"
    if name in _COUNTS:
        return numbers.count(value, lang)
    if name in _FLOPS:
        return numbers.flops(value, lang)
    if name in ("low", "high"):
        return numbers.significant(value, lang)
    if name in _SHARES:
        return numbers.percent(value, lang)
    if name in _INTEGERS:
        return numbers.integer(value, lang)
    return numbers.number(value, lang)


def _variant(note: Note) -> str:
    p = note.params
    if note.key == "weights":
        if p["gguf"]:
            return "weights.gguf"
        return "weights.float" if p["bits_per_param"] in (16, 32) else "weights.quantized"
    if note.key == "kv_cache":
        if p["layout"] == "standard" and p["sliding_layers"]:
            return "kv_cache.sliding"
        return f"kv_cache.{p['layout']}"
    if note.key == "training_states":
        return (
            "training_states.full"
            if p["method"] in ("full", "freeze")
            else "training_states.adapters"
        )
    if note.key == "training_activations":
        if p["offload"]:
            return "training_activations.offload"
        return "training_activations." + ("checkpointing" if p["checkpointing"] else "plain")
    if note.key in ("training_loss", "training_peak"):
        return f"{note.key}.{p['kind' if note.key == 'training_loss' else 'phase']}"
    if note.key == "fsdp_shard":
        return "fsdp_shard." + (
            "grad_op" if p["stage"] == 2 else "hybrid" if p["hybrid"] else "full"
        )
    if note.key == "cpu_offload_training" and p["device"] == "nvme":
        return "cpu_offload_training.nvme"
    if note.key == "interconnect":
        return f"interconnect.{p['link']}"
    if note.key == "vllm_rollout" and p["short"]:
        return "vllm_rollout.short"
    return note.key


def step(note: Note, lang: str, verdict_text: str = "") -> str:
    params = {name: _value(name, value, lang) for name, value in note.params.items()}
    if note.key == "weights":
        params["bytes_per_param"] = numbers.number(note.params["bits_per_param"] / 8, lang)
        params["bits_per_param"] = numbers.number(round(note.params["bits_per_param"], 2), lang)
    params["verdict_text"] = verdict_text
    text = t(f"step.{_variant(note)}", lang, **params)
    if note.key == "kv_cache" and note.params["block"] > 1:
        text += t("step.kv_cache.block", lang, **params)
    if note.key == "training_states" and note.params["optimizer_in_backward"]:
        text += t("step.training_states.in_backward", lang)
    return text


def assumption(note: Note, lang: str) -> str:
    params = {name: _value(name, value, lang) for name, value in note.params.items()}
    key = f"assume.{note.key}"
    return t(key, lang, **params) if has(key, lang) else note.key
