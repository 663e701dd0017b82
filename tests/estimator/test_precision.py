"""Weight bytes per format, each derived by hand from the format's layout."""

import math

import pytest

from estimator.errors import EstimatorError
from estimator.models import config_json
from estimator.models.types import Linear
from estimator.precision import _linear_bytes, weight_bytes, weight_format

SQUARE = Linear("attention", "q_proj", 4096, 4096, 1, 1)


def test_llama31_8b_bf16_weights(arch):
    assert weight_bytes(arch("Llama-3.1-8B"), weight_format("bf16")).total == 16_060_522_496


def test_nf4_double_quant_blocks():
    # 4096x4096 = 16,777,216 values: 8,388,608 bytes of nibbles, 262,144 8-bit absmax,
    # 1,024 fp32 second-level scales and one fp32 offset.
    assert _linear_bytes(SQUARE, weight_format("nf4")) == 8_388_608 + 262_144 + 1_024 * 4 + 4
    bits = 8 * _linear_bytes(SQUARE, weight_format("nf4")) / 16_777_216
    assert bits == pytest.approx(4.127, abs=0.001)  # QLoRA paper: 4 + 0.127 bits


def test_gptq_and_awq_group_scales():
    groups = 4096 // 128
    packed = 16_777_216 // 2
    scales_and_zeros = groups * 4096 * (2 + 0.5)
    assert _linear_bytes(SQUARE, weight_format("gptq")) == packed + scales_and_zeros + 4 * 4096
    assert _linear_bytes(SQUARE, weight_format("awq")) == packed + scales_and_zeros
    assert (
        _linear_bytes(SQUARE, weight_format("gptq-int8"))
        == 16_777_216 + groups * 4096 * 3 + 4 * 4096
    )


def test_int8_fp8_and_block_fp8():
    assert _linear_bytes(SQUARE, weight_format("int8")) == 16_777_216 + 4 * 4096
    assert _linear_bytes(SQUARE, weight_format("fp8")) == 16_777_216 + 4
    assert _linear_bytes(SQUARE, weight_format("fp8_block")) == 16_777_216 + 32 * 32 * 4


def test_mxfp4_only_on_experts():
    expert = Linear("expert", "gate_up_proj", 2880, 5760, 1, 1)
    n = 2880 * 5760
    assert _linear_bytes(expert, weight_format("mxfp4")) == n / 2 + n / 32
    assert _linear_bytes(SQUARE, weight_format("mxfp4")) == 2 * 16_777_216


def test_quantized_model_keeps_embeddings_and_lm_head_16bit():
    cfg = {
        "model_type": "llama",
        "hidden_size": 256,
        "intermediate_size": 512,
        "num_attention_heads": 4,
        "num_hidden_layers": 1,
        "vocab_size": 1000,
    }
    arch = config_json.from_dict(cfg, "tiny")
    # q,k,v,o: 65,536 values each -> 32,768 + 1,024 absmax + 4 x 4 scale + 4 = 33,812 bytes;
    # gate/up/down: 131,072 values -> 65,536 + 2,048 + 8 x 4 + 4 = 67,620 bytes.
    linear = 4 * 33_812 + 3 * 67_620
    w = weight_bytes(arch, weight_format("nf4"))
    assert (w.linear, w.embedding, w.lm_head, w.other) == (
        linear,
        512_000,
        512_000,
        (2 * 256 + 256) * 2,
    )


def test_gguf_uses_the_measured_file_average(arch):
    a = arch("Llama-3.1-8B")
    w = weight_bytes(a, weight_format("q4_k_m"))
    assert abs(w.total - a.params * 4.8944 / 8) <= 4
    # llama.cpp's README: 4.58 GiB for this file.
    assert round(w.total / 2**30, 2) == 4.58


def test_deepseek_default_is_its_fp8_checkpoint(arch):
    a = arch("DeepSeek-V3")
    assert a.checkpoint_precision == "fp8_block"
    fp8 = weight_bytes(a, weight_format("fp8_block")).total
    assert math.isclose(fp8 / a.params, 1.0, rel_tol=0.02)


@pytest.mark.parametrize("name", ["fp5", "", "int3"])
def test_unknown_precision_is_refused(name):
    with pytest.raises(EstimatorError) as e:
        weight_format(name)
    assert e.value.code == "unknown_precision"
