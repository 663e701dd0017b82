"""The cross-entropy implementations, derived by hand from the vocabulary and hidden sizes."""

import math

from estimator.frameworks import losses
from estimator.vocabulary import GIB

# Llama 3.1 8B: hidden 4096, vocabulary 128,256. Qwen2.5-7B: hidden 3584, vocabulary 152,064.


def test_unfused_is_twelve_bytes_per_vocabulary_entry(arch):
    a = arch("llama 3.1 8b")
    assert losses.loss_bytes(losses.HF_UNFUSED, a, 2048) == 12 * 128_256 * 2048


def test_torchtune_chunked_keeps_bf16_logits_and_upcasts_one_chunk(arch):
    a = arch("llama 3.1 8b")
    chunk = math.ceil(2048 / 8)
    expected = 2 * 128_256 * 2048 + 6 * 128_256 * chunk
    assert losses.loss_bytes(losses.TORCHTUNE_CHUNKED_COMPILED, a, 2048) == expected
    assert losses.loss_bytes(losses.TORCHTUNE_CHUNKED_EAGER, a, 2048) == 6 * 128_256 * 2048


def test_liger_chunks_the_tokens_by_vocabulary_over_hidden(arch):
    a = arch("llama 3.1 8b")
    # inc_factor = ceil(128256 / 4096) = 32; chunk = next_power_of_2(ceil(2048 / 32)) = 64
    assert losses.liger_chunk_tokens(a, 2048) == 64
    assert losses.liger_chunk_tokens(a, 3000) == 128  # ceil(3000 / 32) = 94 -> 128
    expected = 2 * 2048 * 4096 + 2 * 64 * 128_256
    assert losses.loss_bytes(losses.LIGER_FUSED, a, 2048) == expected


def test_unsloth_sizes_chunks_to_its_target(arch):
    a = arch("qwen2.5 7b")
    fp32 = 4 * 152_064 * 8192  # 4.98e9 bytes of fp32 logits over a 4 GiB target: 1.16
    assert fp32 / (4 * GIB) > 1
    assert losses.unsloth_chunks(a, 8192, 4 * GIB) == 4  # rounded up to a multiple of 4
    assert losses.unsloth_chunks(a, 1024, 4 * GIB) == 1  # fits at once
    expected = 2 * 8192 * 3584 + 4 * (8192 // 4) * 152_064
    assert losses.loss_bytes(losses.UNSLOTH_FUSED, a, 8192) == expected
    # With 2 GiB free the target is half of it: 4.64 -> 8 chunks.
    tight = losses.loss_bytes(losses.UNSLOTH_FUSED, a, 8192, free=2 * GIB)
    assert tight == 2 * 8192 * 3584 + 4 * (8192 // 8) * 152_064
