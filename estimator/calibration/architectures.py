"""config.json dicts of models that calibration rows measured but the catalog does not carry.

Qwen (v1): Qwen-7B config.json (mirror zhangningboo/Qwen-7B @abcb6d6d) and Qwen-72B config.json
(mapengAdam/qianwen-72B @3334bfe3); Qwen-1.8B and Qwen-14B from the Qwen technical report Table 1
(hidden, heads, layers) and intermediate_size as transcribed in abhibambhaniya/GenZ-LLM-Analyzer
(11008, 27392). Each reproduces the parameter count the calibration rows state (1.84B, 7.72B,
14.17B, 72.29B) exactly to two decimals, which tests/estimator/test_calibration.py checks.
LLaMA (v1): LLaMA paper arXiv:2302.13971 Table 2 (dimension, heads, layers) with the FFN width
2/3·4d rounded up to a multiple of 256 and vocabulary 32000, as in the released configs.
OpenLLaMA 3B v2 (openlm-research/open_llama_3b_v2 config.json: hidden 3200, intermediate 8640,
26 layers, 32 heads, vocabulary 32000), which reproduces the 3.43B its calibration rows state.
Llama-2-7B-long: Llama-2-7B's shapes with RoPE scaling to 131,072 positions, as LLaMA-Factory's
long-context comparison ran it (rope_scaling linear; the shapes and parameters do not change).
GPT-2 10B: the Megatron-LM model of DeepSpeed's ZeRO-Offload tutorial (--num-layers 50
--hidden-size 4096 --num-attention-heads 32, GPT-2 vocabulary padded to 50304), written as a
Llama-style config whose gated MLP width 8h/3 holds the same parameters as GPT-2's 4h MLP
(10.27B with the tied embeddings, the tutorial's "10-billion parameter" model).
"""

from __future__ import annotations


def _qwen1(hidden: int, ffn2: int, layers: int, heads: int, vocab: int) -> dict:
    return {
        "model_type": "qwen",
        "hidden_size": hidden,
        "intermediate_size": ffn2,
        "num_hidden_layers": layers,
        "num_attention_heads": heads,
        "kv_channels": hidden // heads,
        "vocab_size": vocab,
        "seq_length": 8192,
        "tie_word_embeddings": False,
    }


def _llama1(hidden: int, ffn: int, layers: int, heads: int) -> dict:
    return {
        "model_type": "llama",
        "hidden_size": hidden,
        "intermediate_size": ffn,
        "num_hidden_layers": layers,
        "num_attention_heads": heads,
        "vocab_size": 32000,
        "max_position_embeddings": 2048,
        "tie_word_embeddings": False,
    }


CONFIGS: dict[str, dict] = {
    "Qwen-1.8B": _qwen1(2048, 11008, 24, 16, 151936),
    "Qwen-7B": _qwen1(4096, 22016, 32, 32, 151936),
    "Qwen-14B": _qwen1(5120, 27392, 40, 40, 152064),
    "Qwen-72B": _qwen1(8192, 49152, 80, 64, 152064),
    "LLaMA-7B": _llama1(4096, 11008, 32, 32),
    "LLaMA-13B": _llama1(5120, 13824, 40, 40),
    "LLaMA-33B": _llama1(6656, 17920, 60, 52),
    "LLaMA-65B": _llama1(8192, 22016, 80, 64),
    "OpenLLaMA-3B-v2": {**_llama1(3200, 8640, 26, 32), "max_position_embeddings": 2048},
    "Llama-2-7B-long": {**_llama1(4096, 11008, 32, 32), "max_position_embeddings": 131072},
    "GPT-2-10B": {
        **_llama1(4096, 10923, 50, 32),
        "vocab_size": 50304,
        "max_position_embeddings": 1024,
        "tie_word_embeddings": True,
    },
}
