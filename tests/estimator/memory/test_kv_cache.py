"""KV cache sizes per layout, from hand arithmetic and from llama.cpp's own logs."""

from estimator.memory.kv_cache import kv_cache, layout
from estimator.precision import kv_element_bytes

MIB = 2**20


def test_qwen25_7b_gqa_bytes_per_token(arch):
    lay = layout(arch("qwen2.5 7b"), 2, mla_latent=False, cap_sliding=True)
    assert lay.elements_per_token_layer * 2 * 28 == 2 * 28 * 4 * 128 * 2 == 57_344
    kv = kv_cache(lay, context=32_768, sequences=1)
    assert kv.bytes == 57_344 * 32_768 == 1_879_048_192


def test_sequences_multiply(arch):
    lay = layout(arch("qwen2.5 7b"), 2, mla_latent=False, cap_sliding=True)
    assert (
        kv_cache(lay, context=4096, sequences=16).bytes
        == 16 * kv_cache(lay, context=4096, sequences=1).bytes
    )


def test_gemma2_sliding_layers_capped_at_the_window(arch):
    lay = layout(arch("gemma 2 9b"), 2, mla_latent=False, cap_sliding=True)
    per = 2 * 8 * 256 * 2
    assert (lay.full_layers, lay.sliding_layers, lay.window) == (21, 21, 4096)
    assert kv_cache(lay, context=8192, sequences=1).bytes == per * (21 * 8192 + 21 * 4096)
    uncapped = layout(arch("gemma 2 9b"), 2, mla_latent=False, cap_sliding=False)
    assert kv_cache(uncapped, context=8192, sequences=1).bytes == per * 42 * 8192


def test_deepseek_mla_latent_and_expanded(arch):
    a = arch("DeepSeek-V3")
    latent = layout(a, 2, mla_latent=True, cap_sliding=True)
    expanded = layout(a, 2, mla_latent=False, cap_sliding=True)
    assert kv_cache(latent, context=1, sequences=1).bytes == 61 * (512 + 64) * 2 == 70_272
    assert (
        kv_cache(expanded, context=1, sequences=1).bytes == 61 * 128 * (192 + 128) * 2 == 4_997_120
    )


def test_vllm_pages_of_16_tokens(arch):
    lay = layout(arch("qwen2.5 7b"), 2, mla_latent=False, cap_sliding=False)
    assert kv_cache(lay, context=1000, sequences=1, block=16).tokens_full == 1008


def test_llama_cpp_gpt_oss_cache_matches_its_log(arch):
    # llama.cpp log for gpt-oss-20b at -c 131072: non-SWA 3072.00 MiB, SWA 768 cells 18.00 MiB.
    lay = layout(arch("gpt-oss-20b"), 2, mla_latent=True, cap_sliding=True)
    kv = kv_cache(lay, context=131_072, sequences=1, block=256, sliding_tokens=128 + 512)
    per_layer_token = 2 * 8 * 64 * 2
    assert kv.tokens_sliding == 768
    assert 12 * 131_072 * per_layer_token == 3072 * MIB
    assert 12 * 768 * per_layer_token == 18 * MIB
    assert kv.bytes == (3072 + 18) * MIB


def test_kv_element_sizes():
    assert kv_element_bytes("fp8", 128) == 1
    assert kv_element_bytes("q8_0", 128) == 34 / 32
    assert kv_element_bytes("q4_0", 128) == 18 / 32
    assert kv_element_bytes("int8", 128) == 1 + 4 / 128  # uint8 + bf16 scale and zero per head


def test_llama4_chunked_layers_keep_one_chunk(arch):
    lay = layout(arch("llama 4 scout"), 2, mla_latent=True, cap_sliding=True)
    per = 2 * 8 * 128 * 2
    assert (lay.full_layers, lay.chunked_layers, lay.chunk) == (12, 36, 8192)
    kv = kv_cache(lay, context=65_536, sequences=1)
    assert kv.bytes == per * (12 * 65_536 + 36 * 8192)
    assert sum(kv.per_layer) == kv.bytes and kv.per_layer[3] == per * 65_536
    short = kv_cache(lay, context=1000, sequences=1)
    assert short.bytes == per * 48 * 1000
    uncapped = layout(
        arch("llama 4 scout"), 2, mla_latent=True, cap_sliding=True, cap_chunked=False
    )
    assert kv_cache(uncapped, context=65_536, sequences=1).bytes == per * 48 * 65_536


def test_hybrid_state_layers_cost_the_same_at_any_context(arch):
    a = arch("Qwen3-Next-80B-A3B-Instruct")
    lay = layout(a, 2, mla_latent=True, cap_sliding=True)
    state = (8192 * 3 + 32 * 128 * 128) * 2  # conv window + recurrent state, bf16
    per = 2 * 2 * 256 * 2
    for context in (1000, 100_000):
        kv = kv_cache(lay, context=context, sequences=3)
        assert kv.state_bytes == 3 * 36 * state
        assert kv.bytes == 3 * (12 * per * context + 36 * state)
        assert sum(kv.per_layer) == kv.bytes
    fp32 = layout(a, 2, mla_latent=True, cap_sliding=True, state_element_bytes=4)
    assert kv_cache(fp32, context=1, sequences=1).state_bytes == 36 * state * 2


def test_cross_attention_layers_keep_one_image_whatever_the_context(arch):
    a = arch("Llama-3.2-11B-Vision")
    lay = layout(a, 2, mla_latent=False, cap_sliding=True)
    per = 2 * 8 * 128 * 2  # K and V, 8 KV heads of 128, fp16
    image = 4 * (40 * 40 + 1)  # four 560x560 tiles of 14-pixel patches and a class token
    assert (lay.full_layers, lay.cross_layers, lay.cross_tokens) == (32, 8, image)
    for context in (1000, 100_000):
        kv = kv_cache(lay, context=context, sequences=2)
        assert kv.bytes == 2 * per * (32 * context + 8 * image)
        assert sum(kv.per_layer) == kv.bytes and kv.per_layer[3] == 2 * per * image


def test_falcon_h1_layers_keep_a_kv_cache_and_a_mamba_state(arch):
    a = arch("Falcon-H1-0.5B")
    lay = layout(a, 2, mla_latent=False, cap_sliding=True)
    per = 2 * 2 * 64 * 2  # K and V, 2 KV heads of 64, fp16
    state = ((1536 + 2 * 128) * 3 + 24 * 64 * 128) * 2  # conv window + SSM state, bf16
    kv = kv_cache(lay, context=4096, sequences=2)
    assert (lay.full_layers, lay.state_layers) == (36, 36)
    assert kv.bytes == 2 * 36 * (per * 4096 + state)
    assert sum(kv.per_layer) == kv.bytes
