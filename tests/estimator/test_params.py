"""Exact parameter counts, derived by hand per family from each model's modeling code."""

import pytest

from estimator.models import catalog, config_json


def test_every_catalog_model_matches_the_reference_count():
    models = catalog.models()
    assert len(models) == 58
    for m in models:
        assert m.architecture.params == m.reference_params, m.name
        if m.reference_active_params is not None:
            assert m.architecture.active_params == m.reference_active_params, m.name


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
