"""A GGUF model (every shard of a split one), on disk or on the Hub: the architecture from its
header's metadata and the exact tensor elements and bytes from its tensor list. Only the
header is read (estimator.models.headers.gguf_header parses it; a Hub file's arrives by range
requests); llama.cpp's gguf package (gguf-py) gives the ggml types' block sizes and the file
types' names.

Metadata keys follow llama.cpp's GGUF spec (docs/gguf.md): general.architecture, then
<arch>.block_count, .embedding_length, .feed_forward_length, .attention.head_count,
.attention.head_count_kv, .attention.key_length, .context_length, .expert_count,
.expert_used_count, .expert_feed_forward_length; general.file_type is llama.cpp's
LlamaFileType. A tied model has no output.weight tensor. Families whose converter
(llama.cpp's conversion/<family>.py) writes more keys, or renames a config field, are mapped
back to their config.json fields by _ARCH_KEYS.
"""

from __future__ import annotations

import math
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from estimator.errors import EstimatorError
from estimator.models import config_json, headers
from estimator.models.types import Architecture
from estimator.precision import GGUF_BPW

from . import files

MAX_SHARDS = 256
_SPLIT = re.compile(r"^(?P<stem>.+)-(?P<index>\d{5})-of-(?P<count>\d{5})\.gguf$", re.IGNORECASE)
# GGUF architecture names (gguf-py's MODEL_ARCH_NAMES) -> the config.json model_type whose
# builder counts it.
_MODEL_TYPES = {
    "llama": "llama",
    "llama4": "llama4_text",
    "qwen2": "qwen2",
    "qwen2moe": "qwen2_moe",
    "qwen3": "qwen3",
    "qwen3moe": "qwen3_moe",
    "gemma": "gemma",
    "gemma2": "gemma2",
    "gemma3": "gemma3_text",
    "phi3": "phi3",
    "olmo2": "olmo2",
    "granite": "granite",
    "deepseek2": "deepseek_v2",
    "gpt-oss": "gpt_oss",
    "starcoder2": "starcoder2",
    "command-r": "cohere",
    "cohere2": "cohere2",
    "smollm3": "smollm3",
    "internlm2": "internlm2",
    "glm4": "glm4",
}
# The first read of a GGUF file's header: enough for most tokenizers' metadata (Llama 3's
# 128,256 tokens and 280,147 merges take about 7.5 MB), grown fourfold until it holds it all.
FIRST_READ_BYTES = 8 * 2**20
# Llama 4's chunked attention has no GGUF key; Scout and Maverick both chunk by 8192 tokens
# (attention_chunk_size in meta-llama/Llama-4-Scout-17B-16E's and -Maverick's config.json).
LLAMA4_CHUNK = 8192


def _shards(path: Path) -> list[Path]:
    m = _SPLIT.match(path.name)
    if m is None:
        return [path]
    count = int(m.group("count"))
    if not 1 <= count <= MAX_SHARDS:
        raise EstimatorError("weights_unreadable", reason=f"{count} GGUF shards")
    shards = [
        path.with_name(f"{m.group('stem')}-{i:05d}-of-{count:05d}.gguf")
        for i in range(1, count + 1)
    ]
    missing = [s.name for s in shards if files.kind(s) != "file"]
    if missing:
        raise EstimatorError(
            "gguf_shard_missing", path=str(path.parent)[:120], shard=missing[0][:120]
        )
    return shards


def _file_type(code: Any, summary: headers.TensorSummary) -> str:
    import gguf

    if isinstance(code, int):
        try:
            name = gguf.LlamaFileType(code).name
        except ValueError:
            name = ""
        name = name.removeprefix("MOSTLY_").removeprefix("ALL_").lower()
        if name in GGUF_BPW:
            return name
        if name in ("f32", "bf16"):
            return "f16"
    # Without a file type, the dtype holding most bytes names it.
    dominant = max(summary.bytes, key=summary.bytes.__getitem__).lower()
    return dominant if dominant in GGUF_BPW else "f16"


def _config(meta: dict[str, Any], names: set[str], vocab_rows: int | None) -> dict[str, Any]:
    arch = str(meta.get("general.architecture") or "")
    get = lambda key: meta.get(f"{arch}.{key}")  # noqa: E731
    model_type = _MODEL_TYPES.get(arch, arch)
    cfg: dict[str, Any] = {
        "model_type": model_type,
        "hidden_size": get("embedding_length"),
        "num_hidden_layers": get("block_count"),
        "intermediate_size": get("feed_forward_length"),
        "num_attention_heads": get("attention.head_count"),
        "num_key_value_heads": get("attention.head_count_kv"),
        "head_dim": get("attention.key_length"),
        "max_position_embeddings": get("context_length"),
        "vocab_size": get("vocab_size") or vocab_rows,
        "tie_word_embeddings": "output.weight" not in names,
    }
    if get("expert_count"):
        cfg["num_experts"] = get("expert_count")
        cfg["num_experts_per_tok"] = get("expert_used_count")
        cfg["moe_intermediate_size"] = get("expert_feed_forward_length") or cfg["intermediate_size"]
    window = get("attention.sliding_window")
    if window:
        cfg["sliding_window"] = window
    _ARCH_KEYS.get(model_type, _nothing)(cfg, get, names)
    return {k: v for k, v in cfg.items() if v is not None}


def _nothing(cfg: dict[str, Any], get: Any, names: set[str]) -> None:
    return None


def _deepseek(cfg: dict[str, Any], get: Any, names: set[str]) -> None:
    """MLA as llama.cpp writes it (conversion/deepseek.py): one KV head of kv_lora_rank +
    rope dims, the per-head sizes in key_length_mla / value_length_mla; files converted
    before MLA support (llama.cpp PR 12801) give them in key_length / value_length."""
    rope = get("rope.dimension_count")
    key = get("attention.key_length_mla") or get("attention.key_length")
    value = get("attention.value_length_mla") or get("attention.value_length")
    cfg.update(
        head_dim=None,
        num_key_value_heads=None,
        kv_lora_rank=get("attention.kv_lora_rank"),
        q_lora_rank=get("attention.q_lora_rank"),
        qk_rope_head_dim=rope,
        qk_nope_head_dim=key - rope if key and rope else None,
        v_head_dim=value,
        n_routed_experts=cfg.pop("num_experts", None),
        n_shared_experts=get("expert_shared_count"),
        first_k_dense_replace=get("leading_dense_block_count"),
    )
    # DeepSeek-V3's router bias (e_score_correction_bias, llama.cpp's exp_probs_b).
    if any(n.endswith("exp_probs_b.bias") for n in names):
        cfg["topk_method"] = "noaux_tc"


def _llama4(cfg: dict[str, Any], get: Any, names: set[str]) -> None:
    """llama.cpp writes Llama 4's dense MLP width as feed_forward_length and the expert
    width as expert_feed_forward_length (conversion/llama4.py)."""
    cfg.update(
        intermediate_size_mlp=cfg["intermediate_size"],
        intermediate_size=get("expert_feed_forward_length"),
        num_local_experts=cfg.pop("num_experts", None),
        interleave_moe_layer_step=get("interleave_moe_layer_step"),
        attention_chunk_size=LLAMA4_CHUNK,
    )


def _gpt_oss(cfg: dict[str, Any], get: Any, names: set[str]) -> None:
    """gpt-oss: the expert width is expert_feed_forward_length; layers alternate a sliding
    window and full attention, the first sliding (layer_types in openai/gpt-oss-20b's and
    -120b's config.json; GGUF stores only the window)."""
    layers = cfg["num_hidden_layers"]
    cfg.update(
        intermediate_size=get("expert_feed_forward_length"),
        num_local_experts=cfg.pop("num_experts", None),
        layer_types=["sliding_attention" if i % 2 == 0 else "full_attention" for i in range(layers)]
        if cfg.get("sliding_window") and isinstance(layers, int)
        else None,
    )


def _qwen2_moe(cfg: dict[str, Any], get: Any, names: set[str]) -> None:
    cfg["shared_expert_intermediate_size"] = get("expert_shared_feed_forward_length")


def _biases(cfg: dict[str, Any], get: Any, names: set[str]) -> None:
    """StarCoder2 may be converted without its biases (use_bias false): the tensors say."""
    cfg["use_bias"] = "blk.0.attn_q.bias" in names


def _cohere(cfg: dict[str, Any], get: Any, names: set[str]) -> None:
    """Command R+ normalises q and k per head; the tensors say whether a file does."""
    cfg["use_qk_norm"] = "blk.0.attn_q_norm.weight" in names


_ARCH_KEYS = {
    "deepseek_v2": _deepseek,
    "llama4_text": _llama4,
    "gpt_oss": _gpt_oss,
    "qwen2_moe": _qwen2_moe,
    "starcoder2": _biases,
    "cohere": _cohere,
}


def local_header(path: Path) -> headers.GgufHeader:
    """The header of a GGUF file on disk, read in growing prefixes: tokenizers make it a few
    MB, the tensor data after it tens of GB."""
    size = FIRST_READ_BYTES
    while True:
        data = files.read_bytes(path, size, length=size)
        header = headers.gguf_header(data)
        if header is not None:
            return header
        if len(data) < size or size >= headers.MAX_HEADER_BYTES:
            raise EstimatorError("weights_unreadable", reason=f"{path.name[:60]}: header cut short")
        size = min(size * 4, headers.MAX_HEADER_BYTES)


def architecture(parts: list[headers.GgufHeader], name: str) -> Architecture:
    """The architecture of a GGUF model from its header (every shard's, when split): the
    metadata of the first, the exact elements and bytes of all their tensors. A tensor's bytes
    are its elements times its ggml type's block size (gguf-py's GGML_QUANT_SIZES)."""
    try:
        import gguf
    except ImportError as exc:  # pragma: no cover - gguf is a dependency
        raise EstimatorError("gguf_unavailable") from exc
    rows: list[tuple[str, int, int]] = []
    names: set[str] = set()
    vocab_rows = None
    for header in parts:
        for tensor in header.tensors:
            try:
                kind = gguf.GGMLQuantizationType(tensor.ggml_type)
                block, size = gguf.GGML_QUANT_SIZES[kind]
            except (ValueError, KeyError) as exc:
                raise EstimatorError(
                    "weights_unreadable",
                    reason=f"tensor {tensor.name[:40]}: ggml type {tensor.ggml_type}",
                ) from exc
            elements = math.prod(tensor.dims)
            names.add(tensor.name)
            rows.append((kind.name, elements, elements * size // block))
            if tensor.name == "token_embd.weight" and tensor.dims:
                vocab_rows = max(tensor.dims)
    summary = headers.summarize_tensors("gguf", rows)
    if not summary.tensors:
        raise EstimatorError("weights_unreadable", reason=f"{name[:60]}: no tensors")
    meta = parts[0].metadata
    arch = config_json.from_dict(_config(meta, names, vocab_rows), name[:80])
    fmt = _file_type(meta.get("general.file_type"), summary)
    return replace(
        arch,
        checkpoint_precision=fmt,
        measured_source="gguf",
        measured_format=fmt,
        measured_bytes=summary.total_bytes,
        measured_params=summary.total_elements,
    )


def read_gguf(path: Path) -> Architecture:
    parts = [local_header(shard) for shard in _shards(path)]
    return architecture(parts, path.name.removesuffix(".gguf"))
