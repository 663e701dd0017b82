"""GGUF files of the families whose llama.cpp converter writes keys of their own (llama.cpp's
conversion/<family>.py): written here with gguf's GGUFWriter the way the converter writes a
catalog model's config, read back, and counted exactly as the config.json itself is."""

from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from bot.model_source import resolve_model
from estimator.models import catalog, config_json
from estimator.models.types import Architecture


def _text_config(name: str) -> dict[str, Any]:
    found = catalog.find(name)
    assert found is not None, name
    raw = next(m for m in catalog.models() if m.name == found.name).config
    cfg, _ = config_json.normalise(raw)
    return cfg


def _base(w: Any, cfg: dict[str, Any]) -> None:
    """TextModel.set_gguf_parameters: the keys every family gets."""
    w.add_block_count(cfg["num_hidden_layers"])
    w.add_context_length(cfg["max_position_embeddings"])
    w.add_embedding_length(cfg["hidden_size"])
    w.add_feed_forward_length(cfg["intermediate_size"])
    w.add_head_count(cfg["num_attention_heads"])
    w.add_head_count_kv(cfg.get("num_key_value_heads") or cfg["num_attention_heads"])
    if cfg.get("head_dim"):
        w.add_key_length(cfg["head_dim"])
        w.add_value_length(cfg["head_dim"])
    experts = cfg.get("num_local_experts") or cfg.get("num_experts") or cfg.get("n_routed_experts")
    if experts:
        w.add_expert_count(experts)
        w.add_expert_used_count(cfg["num_experts_per_tok"])
    w.add_vocab_size(cfg["vocab_size"])


def _deepseek2(w: Any, cfg: dict[str, Any]) -> list[str]:
    w.add_head_count_kv(1)  # MLA as MQA (overrides the base key, as the converter does)
    w.add_leading_dense_block_count(cfg["first_k_dense_replace"])
    if cfg.get("q_lora_rank"):
        w.add_q_lora_rank(cfg["q_lora_rank"])
    w.add_kv_lora_rank(cfg["kv_lora_rank"])
    w.add_key_length(cfg["kv_lora_rank"] + cfg["qk_rope_head_dim"])
    w.add_value_length(cfg["kv_lora_rank"])
    w.add_key_length_mla(cfg["qk_nope_head_dim"] + cfg["qk_rope_head_dim"])
    w.add_value_length_mla(cfg["v_head_dim"])
    w.add_expert_feed_forward_length(cfg["moe_intermediate_size"])
    w.add_expert_shared_count(cfg["n_shared_experts"])
    w.add_rope_dimension_count(cfg["qk_rope_head_dim"])
    k = cfg["first_k_dense_replace"]
    return [f"blk.{k}.exp_probs_b.bias"] if cfg.get("topk_method") == "noaux_tc" else []


def _llama4(w: Any, cfg: dict[str, Any]) -> list[str]:
    w.add_feed_forward_length(cfg["intermediate_size_mlp"])
    w.add_interleave_moe_layer_step(cfg["interleave_moe_layer_step"])
    w.add_expert_feed_forward_length(cfg["intermediate_size"])
    return []


def _gpt_oss(w: Any, cfg: dict[str, Any]) -> list[str]:
    w.add_sliding_window(cfg["sliding_window"])
    w.add_expert_feed_forward_length(cfg["intermediate_size"])
    return ["blk.0.attn_sinks.weight"]


def _qwen3moe(w: Any, cfg: dict[str, Any]) -> list[str]:
    w.add_expert_feed_forward_length(cfg["moe_intermediate_size"])
    return []


def _plain(w: Any, cfg: dict[str, Any]) -> list[str]:
    return []


def _command_r(w: Any, cfg: dict[str, Any]) -> list[str]:
    return ["blk.0.attn_q_norm.weight"] if cfg.get("use_qk_norm") else []


def _cohere2(w: Any, cfg: dict[str, Any]) -> list[str]:
    w.add_sliding_window(cfg["sliding_window"])
    return []


def _starcoder2(w: Any, cfg: dict[str, Any]) -> list[str]:
    return ["blk.0.attn_q.bias"] if cfg.get("use_bias", True) else []


CASES = [
    ("DeepSeek-V2-Lite", "deepseek2", _deepseek2),
    ("DeepSeek-V3", "deepseek2", _deepseek2),
    ("Llama-4-Scout-17B-16E", "llama4", _llama4),
    ("gpt-oss-20b", "gpt-oss", _gpt_oss),
    ("Qwen3-30B-A3B", "qwen3moe", _qwen3moe),
    ("Command-R-v01", "command-r", _command_r),
    ("SmolLM3-3B", "smollm3", _plain),
]


def _comparable(arch: Architecture) -> Architecture:
    return replace(
        arch,
        name="",
        model_type="",
        notes=(),
        checkpoint_precision="",
        measured_source=None,
        measured_format=None,
        measured_bytes=None,
        measured_params=None,
    )


@pytest.mark.parametrize(("model", "gguf_arch", "keys"), CASES)
def test_a_gguf_counts_as_its_config_does(tmp_path, model, gguf_arch, keys):
    import gguf

    cfg = _text_config(model)
    path = tmp_path / f"{model}-Q8_0.gguf"
    w = gguf.GGUFWriter(str(path), gguf_arch)
    _base(w, cfg)
    # Only the names matter to the reader: which tensors a file holds (an untied output,
    # a bias, a norm); their elements and bytes come from the tensor list as they are.
    from_config = config_json.from_dict(cfg, model)
    names = ["token_embd.weight", *keys(w, cfg)]
    if not from_config.tie_embeddings:  # the converter writes an untied lm_head as output
        names.append("output.weight")
    for name in names:
        w.add_tensor(name, np.zeros((1,), np.float32))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    from_gguf = resolve_model(str(path)).architecture
    assert _comparable(from_gguf) == _comparable(from_config)
    assert from_gguf.params == from_config.params
