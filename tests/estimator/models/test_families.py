"""Exact parameter counts, derived by hand per family (each family's transformers modeling file)."""

import math

import pytest

from estimator.errors import EstimatorError
from estimator.models import catalog, config_json
from estimator.models.types import CHUNKED, CROSS, FULL, NO_MIXER, STATE


def test_the_catalog_holds_200_models_with_their_quantized_repositories():
    assert len(catalog.models()) + len(catalog.variants()) >= 200
    assert all(v.base and catalog.find(v.base) for v in catalog.variants())


def test_every_catalog_model_matches_the_count_its_config_implies():
    for m in catalog.models():
        assert m.architecture.params == m.reference_params, m.name
        if m.reference_active_params is not None:
            assert m.architecture.active_params == m.reference_active_params, m.name
        assert m.source and m.published.source, m.name


def _tolerance(basis: str, stated: float) -> float:
    """How far a published figure may sit from the exact count: a checkpoint's tensor count
    within 0.5% (MTP heads, buffers); a figure stated on a card within 2%, or 5% when the card
    rounds to whole billions; the size in a name (7B for 7.6B) within 15%."""
    return {"safetensors": 0.005, "card": 0.02, "rounded": 0.05, "name": 0.15}[basis]


def test_every_catalog_model_agrees_with_its_published_count():
    for m in catalog.models():
        pub = m.published
        # A vision-language model is named after its language model.
        counted = m.architecture.params - (
            m.architecture.vision_params if pub.basis == "name" else 0
        )
        ratio = counted / pub.params
        assert abs(ratio - 1) <= _tolerance(pub.basis, pub.params), (m.name, ratio, pub)
        if pub.active_params:
            # Cards state active parameters without the input embedding and the vision tower.
            arch = m.architecture
            active = arch.active_params - arch.embedding_params - arch.vision_params
            assert math.isclose(active, pub.active_params, rel_tol=0.1), (m.name, active)


def test_qwen25_7b_dense_with_qkv_bias(arch):
    h, L, I, V = 3584, 28, 18944, 152064
    q = o = h * h
    k = v = h * (4 * 128)
    bias = h + 2 * 512
    layer = q + k + v + o + bias + 3 * h * I + 2 * h
    assert layer == 233_057_792
    total = V * h + L * layer + h + V * h
    assert total == 7_615_616_512
    assert arch("Qwen/Qwen2.5-7B-Instruct").params == total


def test_llama31_8b_untied_gqa(arch):
    h, L, I, V = 4096, 32, 14336, 128256
    layer = 2 * h * h + 2 * h * 1024 + 3 * h * I + 2 * h
    assert arch("Llama-3.1-8B").params == 2 * V * h + L * layer + h == 8_030_261_248


def test_qwen25_05b_tied_counts_the_embedding_once(arch):
    h, L, I, V = 896, 24, 4864, 151936
    layer = 2 * h * h + 2 * h * 128 + (h + 256) + 3 * h * I + 2 * h
    assert layer == 14_912_384
    assert arch("qwen2.5 0.5b").params == V * h + L * layer + h == 494_032_768


def test_qwen3_explicit_head_dim_and_qk_norm(arch):
    h, L, I, V, d = 4096, 36, 12288, 151936, 128
    layer = h * 32 * d + 2 * h * 8 * d + 32 * d * h + 3 * h * I + 2 * h + 2 * d
    assert layer == 192_946_432
    assert arch("Qwen3-8B").params == 2 * V * h + L * layer + h == 8_190_735_360


def test_phi3_mini_matches_keras_hub_exactly(arch):
    assert arch("phi-3-mini-4k").params == 3_821_079_552


def test_gemma2_four_norms_and_tied(arch):
    h, L, I, V, d = 3584, 42, 14336, 256000, 256
    layer = h * 16 * d + 2 * h * 8 * d + 16 * d * h + 3 * h * I + 4 * h
    assert arch("gemma 2 9b").params == V * h + L * layer + h == 9_241_705_984


def test_mixtral_experts_and_active(arch):
    h, L, I, V, E, k = 4096, 32, 14336, 32000, 8, 2
    attn = 2 * h * h + 2 * h * 1024
    total = 2 * V * h + L * (attn + h * E + E * 3 * h * I + 2 * h) + h
    active = 2 * V * h + L * (attn + h * E + k * 3 * h * I + 2 * h) + h
    m = arch("mixtral 8x7b")
    assert (m.params, m.active_params) == (total, active) == (46_702_792_704, 12_879_925_248)


def test_deepseek_v3_mla_moe(arch):
    m = arch("DeepSeek-V3")
    assert m.params == 671_026_419_200
    assert m.active_params == 37_552_297_472
    assert m.mla is not None and m.mla.kv_lora_rank == 512


def test_gpt_oss_20b_biases_sinks_router(arch):
    h, L, V, E, I = 2880, 24, 201088, 32, 2880
    attn = (h * 4096 + 4096) + 2 * (h * 512 + 512) + (4096 * h + h)
    router = h * E + E
    expert = (h * 2 * I + 2 * I) + (I * h + h)
    layer = attn + 64 + router + E * expert + 2 * h
    m = arch("gpt-oss-20b")
    assert m.params == 2 * V * h + L * layer + h == 20_914_757_184


def test_falcon_7b_fused_qkv_layernorm_bias(arch):
    h, L, V = 4544, 32, 65024
    layer = h * (4544 + 2 * 64) + h * h + 2 * h * 4 * h + 2 * h
    assert arch("falcon-7b").params == V * h + L * layer + 2 * h == 6_921_720_704


def test_olmo2_13b_byte_exact_against_its_checkpoint():
    # formulas.md §2(e): index total_size 54,864,793,600 B = 4 x 13,716,198,400 (fp32).
    cfg = {
        "model_type": "olmo2",
        "hidden_size": 5120,
        "intermediate_size": 13824,
        "num_attention_heads": 40,
        "num_hidden_layers": 40,
        "vocab_size": 100352,
        "tie_word_embeddings": False,
    }
    assert config_json.from_dict(cfg, "OLMo-2-13B").params * 4 == 54_864_793_600


def test_qwen1_remote_code_config_counts_half_the_intermediate_size():
    cfg = {
        "model_type": "qwen",
        "hidden_size": 4096,
        "intermediate_size": 22016,
        "kv_channels": 128,
        "num_attention_heads": 32,
        "num_hidden_layers": 32,
        "vocab_size": 151936,
    }
    layer = 4096 * 12288 + 12288 + 4096 * 4096 + 3 * 4096 * 11008 + 2 * 4096
    assert config_json.from_dict(cfg, "Qwen-7B").params == 2 * 151936 * 4096 + 32 * layer + 4096


@pytest.mark.parametrize(
    ("name", "stated"),
    [
        ("Qwen3-30B-A3B", 30_532_122_624),
        ("Qwen3-235B-A22B", 235_093_634_560),
        ("Phi-4", 14_659_507_200),
    ],
)
def test_stated_totals(arch, name, stated):
    assert arch(name).params == stated


def test_llama4_scout_moe_shared_expert_and_vision_tower(arch):
    h, L, V, E, I, I_dense = 5120, 48, 202048, 16, 8192, 16384
    attn = 2 * h * h + 2 * h * 1024
    layer = attn + h * E + E * 3 * h * I + 3 * h * I + 2 * h  # router, experts, shared expert
    text = 2 * V * h + L * layer + h
    assert text == 107_769_861_120
    w, ff = 1408, 5632
    block = 4 * (w * w + w) + (w * ff + ff) + (ff * w + w) + 4 * w
    vision = 588 * w + w + 577 * w + 34 * block + 4 * w + 5632 * 4096 + 4096 * 4096 + 4096 * h
    m = arch("Llama 4 Scout")
    assert m.vision_params == vision
    assert m.params == text + vision == 108_641_793_536
    assert m.kinds.count(CHUNKED) == 36 and m.kinds.count(FULL) == 12 and m.chunk_size == 8192
    assert (m.image_tokens, m.image_size) == (144, "336x336")
    maverick = arch("llama 4 maverick")  # 24 MoE layers of 128 experts, 24 dense layers
    assert maverick.params - maverick.vision_params == (
        2 * V * h
        + L * (attn + 2 * h)
        + h
        + 24 * (h * 128 + 128 * 3 * h * I + 3 * h * I)
        + 24 * 3 * h * I_dense
    )
    assert I_dense == 2 * I


def test_llama32_vision_cross_attention_layers_and_tiled_tower_match_the_hub(arch):
    h, L, V, I, kv = 4096, 40, 128256, 14336, 8 * 128
    attn = 2 * h * h + 2 * h * kv
    layer = attn + 3 * h * I + 2 * h
    # Cross layers: q_norm and k_norm over the head dim, the attention and MLP gates.
    text = (V + 8) * h + V * h + L * layer + 8 * (2 * 128 + 2) + h
    w, ff, tiles, patches, ratios = 1280, 5120, 4, 40 * 40 + 1, 9
    block = 4 * w * w + (w * ff + ff) + (ff * w + w) + 4 * w
    positions = patches * w + ratios * tiles * patches * w + 1
    tower = 3 * 14 * 14 * w + w + positions + 2 * (ratios * tiles * w + 1) + 4 * w + 40 * block
    vision = tower + 8 * 2 + (7680 * h + h)
    m = arch("llama 3.2 vision 11b")
    assert m.vision_params == vision
    # The Hub's safetensors total for meta-llama/Llama-3.2-11B-Vision-Instruct.
    assert m.params == text + vision == 10_670_220_835
    assert m.kinds.count(CROSS) == 8 and m.kinds[3] == CROSS and m.kinds.count(FULL) == 32
    assert (m.image_tokens, m.cross_tokens, m.image_size) == (4 * patches, 4 * patches, "560x560")
    big = arch("llama3.2-vision:90b")
    H, I_big = 8192, 28672
    big_layer = 2 * H * H + 2 * H * kv + 3 * H * I_big + 2 * H
    assert big.kinds.count(CROSS) == 20 and big.num_layers == 100
    assert big.vision_params == tower + 8 * 2 + (7680 * H + H)
    assert big.params - big.vision_params == (V + 8) * H + V * H + 100 * big_layer + 20 * 258 + H


def test_qwen3_vl_8b_tower_with_deepstack_mergers_matches_its_checkpoint(arch):
    w, ff, L, merged, out = 1152, 4304, 27, 4 * 1152, 4096
    block = 4 * w + (w * 3 * w + 3 * w) + (w * w + w) + (w * ff + ff) + (ff * w + w)
    merger = (merged * merged + merged) + (merged * out + out)
    conv, positions = 3 * 2 * 16 * 16 * w + w, 2304 * w
    vision = conv + positions + L * block + (2 * w + merger) + 3 * (2 * merged + merger)
    m = arch("qwen3 vl 8b")
    assert m.vision_params == vision == 576_388_336
    # The Hub's safetensors total for Qwen/Qwen3-VL-8B-Instruct.
    assert m.params == arch("Qwen3-8B").params + vision == 8_767_123_696
    assert (m.image_tokens, m.image_size) == (32 * 32 + 2, "1024x1024")


def test_qwen3_next_gated_deltanet_layers_hold_a_fixed_state(arch):
    h, L, V, d = 2048, 48, 151936, 256
    # q_proj is doubled for the output gate; q/k norms over head_dim.
    full = h * 2 * 16 * d + 2 * h * 2 * d + 16 * d * h + 2 * d
    key_dim, value_dim, conv = 16 * 128, 32 * 128, 2 * 16 * 128 + 32 * 128
    linear = h * (2 * key_dim + 2 * value_dim) + h * 64 + conv * 4 + 2 * 32 + 128 + value_dim * h
    moe = h * 512 + 512 * 3 * h * 512 + 3 * h * 512 + h
    total = 2 * V * h + 12 * full + 36 * linear + L * (moe + 2 * h) + h
    m = arch("Qwen3-Next-80B-A3B-Instruct")
    assert m.params == total == 79_674_391_296
    assert m.kinds.count(STATE) == 36 and m.kinds.count(FULL) == 12
    assert m.state_elements == conv * 3 + 32 * 128 * 128


def test_glm45_air_dense_first_layer_shared_expert_and_qkv_bias(arch):
    h, L, V, E, k = 4096, 46, 151552, 128, 8
    attn = h * 96 * 128 + 96 * 128 + 2 * (h * 8 * 128 + 8 * 128) + 96 * 128 * h
    moe = h * E + E + E * 3 * h * 1408 + 3 * h * 1408
    total = 2 * V * h + L * (attn + 2 * h) + 3 * h * 10944 + 45 * moe + h
    m = arch("GLM 4.5 Air")
    assert m.params == total
    active = (
        2 * V * h
        + L * (attn + 2 * h)
        + 3 * h * 10944
        + 45 * (h * E + E + (k + 1) * 3 * h * 1408)
        + h
    )
    assert m.active_params == active


def test_phi35_moe_biases_layernorms_and_lm_head_bias(arch):
    h, L, V, E, I = 4096, 32, 32064, 16, 6400
    attn = (h * h + h) + 2 * (h * 1024 + 1024) + (h * h + h)
    layer = attn + h * E + E * 3 * h * I + 4 * h
    assert arch("phi 3.5 moe").params == 2 * V * h + V + L * layer + 2 * h == 41_873_153_344


def test_phi2_parallel_block_biases_everywhere_and_lm_head_bias(arch):
    h, L, I, V = 2560, 32, 10240, 51200
    attn = 4 * (h * h + h)  # q, k, v, dense
    mlp = (h * I + I) + (I * h + h)  # fc1, fc2
    layer = attn + mlp + 2 * h  # one LayerNorm with bias
    m = arch("phi-2")
    assert m.params == V * h + L * layer + 2 * h + (V * h + V) == 2_779_683_840
    assert not m.generic


def test_phi3_small_biased_gegelu_layernorms_tied_and_its_attention_bias_flag_unread():
    cfg = {
        "model_type": "phi3small",
        "hidden_size": 4096,
        "num_hidden_layers": 32,
        "ff_intermediate_size": 14336,
        "num_attention_heads": 32,
        "num_key_value_heads": 8,
        "vocab_size": 100352,
        "attention_bias": False,  # in the config, yet modeling_phi3_small.py biases every linear
    }
    h, L, I, V = 4096, 32, 14336, 100352
    qkv = h * (32 + 2 * 8) * 128 + (32 + 2 * 8) * 128
    layer = qkv + (h * h + h) + (h * 2 * I + 2 * I) + (I * h + h) + 2 * 2 * h
    m = config_json.from_dict(cfg, "Phi-3-small")
    assert m.params == V * h + L * layer + 2 * h == 7_392_272_384
    assert m.tie_embeddings


def test_gpt_bigcode_starcoder_multi_query_and_learned_positions():
    cfg = {
        "model_type": "gpt_bigcode",
        "n_embd": 6144,
        "n_layer": 40,
        "n_head": 48,
        "n_inner": 24576,
        "vocab_size": 49152,
        "n_positions": 8192,
        "multi_query": True,
    }
    h, L, ff = 6144, 40, 24576
    layer = (h * (h + 256) + h + 256) + (h * h + h) + (h * ff + ff) + (ff * h + h) + 4 * h
    m = config_json.from_dict(cfg, "starcoder")
    assert m.params == 49152 * h + 8192 * h + L * layer + 2 * h
    assert round(m.params / 1e9, 1) == 15.5  # StarCoder's stated 15.5B
    assert m.num_kv_heads == 1 and not m.generic


def test_starcoder2_biases_everywhere_and_tied():
    cfg = {
        "model_type": "starcoder2",
        "hidden_size": 3072,
        "num_hidden_layers": 30,
        "intermediate_size": 12288,
        "num_attention_heads": 24,
        "num_key_value_heads": 2,
        "vocab_size": 49152,
        "sliding_window": 4096,
    }
    h, L, I, kv = 3072, 30, 12288, 2 * 128
    layer = (h * h + h) + 2 * (h * kv + kv) + (h * h + h) + (h * I + I) + (I * h + h) + 4 * h
    m = config_json.from_dict(cfg, "starcoder2-3b")
    assert m.params == 49152 * h + L * layer + 2 * h
    assert round(m.params / 1e9, 2) == 3.03
    assert sum(m.sliding_layers) == 30


def test_cohere_one_norm_per_layer_and_qk_norm_for_command_r_plus():
    base = {
        "model_type": "cohere",
        "hidden_size": 8192,
        "num_hidden_layers": 40,
        "intermediate_size": 22528,
        "num_attention_heads": 64,
        "num_key_value_heads": 64,
        "vocab_size": 256000,
    }
    h, L, I = 8192, 40, 22528
    m = config_json.from_dict(base, "command-r")
    assert m.params == 256000 * h + L * (4 * h * h + 3 * h * I + h) + h
    assert round(m.params / 1e9) == 35
    plus = config_json.from_dict({**base, "use_qk_norm": True}, "qk")
    assert plus.params - m.params == L * (64 + 64) * 128


def test_cohere2_slides_three_layers_in_four():
    cfg = {
        "model_type": "cohere2",
        "hidden_size": 4096,
        "num_hidden_layers": 32,
        "intermediate_size": 14336,
        "num_attention_heads": 32,
        "num_key_value_heads": 8,
        "vocab_size": 256000,
        "sliding_window": 4096,
    }
    m = config_json.from_dict(cfg, "command-r7b")
    assert sum(m.sliding_layers) == 24 and m.sliding_window == 4096


def test_jamba_mamba_attention_and_experts_interleaved():
    cfg = {
        "model_type": "jamba",
        "hidden_size": 64,
        "num_hidden_layers": 8,
        "num_attention_heads": 4,
        "num_key_value_heads": 2,
        "vocab_size": 100,
        "intermediate_size": 128,
        "num_experts": 4,
        "num_experts_per_tok": 2,
        "mamba_d_state": 16,
        "mamba_d_conv": 4,
        "mamba_expand": 2,
    }
    h, di, r = 64, 128, 4  # dt_rank = ceil(64 / 16)
    mamba = (
        h * 2 * di + di * (r + 32) + (r * di + di) + di * h + di * 4 + di + di * 16 + di + r + 32
    )
    attn = 2 * h * h + 2 * h * 32
    mlp, moe = 3 * h * 128, h * 4 + 4 * 3 * h * 128
    m = config_json.from_dict(cfg, "jamba-tiny")
    assert m.params == 2 * 100 * h + attn + 7 * mamba + 4 * mlp + 4 * moe + 8 * 2 * h + h
    assert m.kinds == (STATE,) * 4 + (FULL,) + (STATE,) * 3
    assert m.state_elements == di * 3 + di * 16


def test_nemotron_h_pattern_of_mamba2_attention_and_mlp_layers():
    cfg = {
        "model_type": "nemotron_h",
        "hidden_size": 64,
        "num_hidden_layers": 4,
        "hybrid_override_pattern": "M*-M",
        "num_attention_heads": 4,
        "num_key_value_heads": 2,
        "vocab_size": 100,
        "intermediate_size": 256,
        "mamba_num_heads": 8,
        "mamba_head_dim": 16,
        "ssm_state_size": 32,
        "n_groups": 2,
        "conv_kernel": 4,
    }
    h, di, conv = 64, 128, 128 + 2 * 2 * 32
    mamba = h * (2 * di + 2 * 2 * 32 + 8) + conv * 4 + conv + 3 * 8 + di + di * h
    m = config_json.from_dict(cfg, "nemotron-h-tiny")
    assert m.params == 2 * 100 * h + 2 * mamba + (2 * h * h + 2 * h * 32) + 2 * h * 256 + 4 * h + h
    assert m.kinds == (STATE, FULL, NO_MIXER, STATE)
    assert m.state_elements == conv * 3 + 8 * 16 * 32


def test_falcon_h1_attention_and_mamba2_side_by_side_in_every_layer(arch):
    cfg = {
        "model_type": "falcon_h1",
        "hidden_size": 64,
        "num_hidden_layers": 2,
        "num_attention_heads": 4,
        "num_key_value_heads": 2,
        "head_dim": 16,
        "vocab_size": 100,
        "intermediate_size": 96,
        "mamba_d_ssm": 128,
        "mamba_n_heads": 8,
        "mamba_d_head": 16,
        "mamba_d_state": 16,
        "mamba_n_groups": 1,
        "mamba_d_conv": 4,
        "mamba_rms_norm": True,
        "projectors_bias": True,
    }
    h, di, conv = 64, 128, 128 + 2 * 16
    # in_proj, conv1d with bias, dt_bias/A_log/D, the gated norm, out_proj with its bias.
    mamba = h * (2 * di + 2 * 16 + 8) + conv * 4 + conv + 3 * 8 + di + (di * h + h)
    attn = h * 64 + 2 * h * 32 + 64 * h
    layer = attn + mamba + 3 * h * 96 + 2 * h
    m = config_json.from_dict(cfg, "falcon-h1-tiny")
    assert m.params == 2 * 100 * h + 2 * layer + h
    assert m.kinds == (FULL, FULL) and m.parallel_state
    assert m.state_elements == conv * 3 + 8 * 16 * 16
    # FalconH1Config's defaults: no gated norm, no out_proj bias.
    plain = config_json.from_dict(
        {k: v for k, v in cfg.items() if k not in ("mamba_rms_norm", "projectors_bias")}, "x"
    )
    assert m.params - plain.params == 2 * (di + h)
    seven = arch("falcon h1 7b")
    h, di, conv, I = 3072, 3072, 3072 + 2 * 256, 12288
    mamba = h * (2 * di + 2 * 256 + 24) + conv * 5 + 3 * 24 + di * h
    layer = h * 1536 + 2 * h * 256 + 1536 * h + mamba + 3 * h * I + 2 * h
    assert seven.params == 2 * 130048 * h + 44 * layer + h == 7_585_513_568


def test_granite4_hybrid_moe_and_shared_mlp():
    cfg = {
        "model_type": "granitemoehybrid",
        "hidden_size": 64,
        "num_hidden_layers": 2,
        "num_attention_heads": 4,
        "num_key_value_heads": 2,
        "vocab_size": 100,
        "intermediate_size": 32,
        "shared_intermediate_size": 48,
        "num_local_experts": 4,
        "num_experts_per_tok": 2,
        "layer_types": ["mamba", "attention"],
        "mamba_n_heads": 8,
        "mamba_d_head": 16,
        "mamba_d_state": 16,
        "mamba_n_groups": 1,
        "mamba_d_conv": 4,
        "tie_word_embeddings": True,
    }
    h, di, conv = 64, 128, 128 + 32
    mamba = h * (2 * di + 32 + 8) + conv * 4 + conv + 24 + di + di * h
    ffn = h * 96 + 48 * h + h * 4 + 4 * (h * 64 + 32 * h)
    m = config_json.from_dict(cfg, "granite-tiny")
    assert m.params == 100 * h + mamba + (2 * h * h + 2 * h * 32) + 2 * ffn + 2 * 2 * h + h
    assert m.kinds == (STATE, FULL) and m.num_experts == 4


def test_an_unknown_model_type_with_the_usual_fields_is_generic():
    cfg = {
        "model_type": "brand_new",
        "hidden_size": 64,
        "num_hidden_layers": 2,
        "num_attention_heads": 4,
        "vocab_size": 100,
        "intermediate_size": 128,
    }
    m = config_json.from_dict(cfg, "new")
    assert m.generic and "generic_architecture" in m.notes
    assert m.params == 2 * 100 * 64 + 2 * (4 * 64 * 64 + 3 * 64 * 128 + 2 * 64) + 64
    with pytest.raises(EstimatorError) as e:
        config_json.from_dict({"model_type": "t5", "d_model": 512}, "t5")
    assert (
        e.value.code == "unsupported_architecture"
        and "num_hidden_layers" in e.value.params["missing"]
    )


_BASE = {
    "model_type": "llama",
    "hidden_size": 4096,
    "num_hidden_layers": 32,
    "num_attention_heads": 32,
    "vocab_size": 32000,
    "intermediate_size": 11008,
}


@pytest.mark.parametrize(
    ("field", "value", "code"),
    [
        ("num_hidden_layers", 1_000_000, "config_out_of_range"),
        ("num_hidden_layers", 10**5000, "config_out_of_range"),
        ("hidden_size", float("nan"), "config_bad_value"),
        ("hidden_size", float("inf"), "config_bad_value"),
        ("vocab_size", 0, "config_out_of_range"),
        ("intermediate_size", "big", "config_bad_value"),
        ("num_attention_heads", True, "config_bad_value"),
        ("num_key_value_heads", 5, "config_bad_value"),
    ],
    ids=["1M layers", "5000 digits", "NaN", "Infinity", "zero", "text", "bool", "GQA"],
)
def test_config_values_are_checked_before_any_arithmetic(field, value, code):
    with pytest.raises(EstimatorError) as e:
        config_json.from_dict({**_BASE, field: value}, "bad")
    assert e.value.code == code and e.value.params["field"] == field


def test_a_config_of_more_than_ten_trillion_parameters_is_refused():
    cfg = {
        **_BASE,
        "hidden_size": 131072,
        "intermediate_size": 1_000_000,
        "num_attention_heads": 1024,
        "num_hidden_layers": 1000,
    }
    with pytest.raises(EstimatorError) as e:
        config_json.from_dict(cfg, "huge")
    assert e.value.code == "config_too_many_params"


def test_granite_moe_fused_experts_no_shared_mlp_and_tied(arch):
    h, L, V, E, k, I = 1024, 24, 49155, 32, 8, 512
    attn = 2 * h * h + 2 * h * 512
    expert = h * 2 * I + I * h
    m = arch("Granite-3.1-1B-A400M")
    assert m.params == V * h + L * (attn + h * E + E * expert + 2 * h) + h == 1_334_628_352
    assert m.active_params == V * h + L * (attn + h * E + k * expert + 2 * h) + h
    assert (m.num_experts, m.experts_per_token) == (32, 8) and not m.generic


def test_exaone_remote_code_config_counts_as_a_llama_shape():
    cfg = {
        "model_type": "exaone",
        "hidden_size": 4096,
        "num_layers": 32,
        "intermediate_size": 14336,
        "num_attention_heads": 32,
        "num_key_value_heads": 8,
        "vocab_size": 102400,
        "tie_word_embeddings": False,
    }
    h, L, I, V = 4096, 32, 14336, 102400
    m = config_json.from_dict(cfg, "EXAONE-3.0-7.8B")
    assert m.params == 2 * V * h + L * (2 * h * h + 2 * h * 1024 + 3 * h * I + 2 * h) + h
    assert not m.generic
