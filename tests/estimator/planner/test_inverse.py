"""The biggest model a machine runs, as a practitioner picks it: current models, an MoE at its
dense equivalent, room to spare before a tight fit; numbers derived by hand."""

import pytest

from estimator.hardware.catalog import machine
from estimator.models import catalog
from estimator.planner import biggest, inverse
from estimator.precision import weight_bytes, weight_format
from estimator.workload import Workload

GIB = 1 << 30


def _entry(name: str) -> catalog.CatalogModel:
    found = catalog.find(name)
    assert found is not None, name
    return found


def test_an_moe_ranks_at_the_geometric_mean_of_its_total_and_active_parameters():
    # Mixtral 8x7B: 46.70B total, 12.88B active; sqrt(46.70 x 12.88) = 24.5B, size class
    # floor(ln 24.5 / ln 1.2) = 17, below every 32B dense one (class 19: ln 32.8 / ln 1.2 =
    # 19.1); the old ranking by total put it first on a 4090.
    mixtral = _entry("Mixtral-8x7B-v0.1")
    assert biggest._capability(mixtral)[0] == 17
    assert biggest._capability(_entry("Qwen3-32B"))[0] == 19


def test_among_one_size_class_the_newer_release_ranks_first():
    assert biggest._capability(_entry("Qwen3-32B")) > biggest._capability(_entry("QwQ-32B"))
    assert biggest._capability(_entry("QwQ-32B")) > biggest._capability(_entry("Qwen2.5-32B"))
    # Yi-1.5-34B (34.4B, 2024-05) is one class with Qwen3-32B (32.8B, 2025-04): ln 34.4 / ln 1.2
    # = 19.4, so the newer model ranks first, not the 1.6B larger one.
    assert biggest._capability(_entry("Qwen3-32B")) > biggest._capability(_entry("Yi-1.5-34B"))
    # Llama-3.3-70B (70.6B, class 23) before Qwen2.5-72B (72.7B, class 23, 2024-09).
    assert biggest._capability(_entry("Llama-3.3-70B")) > biggest._capability(_entry("Qwen2.5-72B"))


def test_a_purpose_keeps_the_models_made_for_it():
    code = {m.name for m in biggest._current("code")}
    assert {"Qwen2.5-Coder-32B", "Qwen3-Coder-30B-A3B", "Devstral-Small-2507"} <= code
    assert "Qwen3-32B" not in code
    # CodeLlama-34B (2023-08) is older than two years before the catalog's newest model.
    assert "CodeLlama-34B" not in code
    # A question that names no purpose gets general models: no coder, math or vision model.
    general = {m.name for m in biggest._current()}
    assert not general & {"Qwen2.5-Coder-32B", "Qwen2.5-Math-72B", "Kimi-Dev-72B"}


def test_the_biggest_coding_model_on_a_4090_is_qwen_coder_32b(arch):
    hw = machine(gpu="RTX 4090")
    work = Workload(arch("Qwen2.5-7B"), "inference", context=4096)
    found = biggest.biggest_model(work, hw, purpose="code")
    assert found.value == "Qwen2.5-Coder-32B"
    assert found.baseline is None  # not a general model beside it


def test_superseded_generations_and_vision_models_are_not_candidates():
    names = {m.name for m in biggest._current()}
    # Released in 2023, more than two years before the catalog's newest (2025-11).
    assert not names & {"Falcon-40B", "CodeLlama-34B", "Llama-2-70B"}
    assert not names & {"Qwen2.5-VL-32B", "Qwen2.5-VL-72B"}
    assert {"Qwen3-32B", "Llama-3.3-70B", "Llama-3.1-405B"} <= names


def test_the_biggest_model_on_a_4090_is_a_36b_in_about_4_bits_with_room_to_spare(arch):
    hw = machine(gpu="RTX 4090")
    found = biggest.biggest_model(Workload(arch("Qwen2.5-7B"), "inference", context=4096), hw)
    assert found.value == "ByteDance-Seed-OSS-36B"
    est = found.estimate
    assert est is not None and est.verdict == "fits"
    fmt = weight_format(est.inputs.precision)
    # By hand: 35.36B quantized parameters at 4-4.5 bits are 17.7-19.9 GB, with the 0.79B input
    # embeddings kept in 16 bits (1.59 GB) 19.3-21.5 GB; at 16 bits (72.3 GB) no 24 GB card
    # holds them, and 3 bits is a format people avoid.
    assert 4.0 <= fmt.bits <= 5.5
    weights = weight_bytes(_entry("ByteDance-Seed-OSS-36B").architecture, fmt).total
    assert 17.0e9 <= weights <= 21.7e9


def test_the_biggest_model_on_eight_h100s_is_llama_405b_in_fp8(arch):
    hw = machine(gpu="H100 SXM5 80GB", gpus=8)
    found = biggest.biggest_model(Workload(arch("Qwen2.5-7B"), "inference", context=4096), hw)
    assert found.value == "Llama-3.1-405B"
    est = found.estimate
    assert est is not None and est.inputs.precision == "fp8"
    # By hand: 405.9B parameters at one byte over 8 GPUs are 47.3 GiB each; DeepSeek-R1 in FP8
    # (671B, 78 GiB per GPU) and Kimi K2 (1T) leave no room for a KV cache.
    assert 47 * GIB <= est.per_device_bytes <= 55 * GIB


def test_the_biggest_model_in_a_named_format_is_sized_in_that_format(arch):
    hw = machine(gpu="RTX 4090")
    for named, bits in (("fp8", 8.0), ("int8", 8.0), ("q4_k_m", None)):
        w = Workload(arch("Qwen2.5-7B"), "inference", context=4096, precision=named)
        found = biggest.biggest_model(w, hw)
        fmt = weight_format(found.estimate.inputs.precision)
        if bits is None:
            assert fmt.name == "q4_k_m"
        else:
            assert round(fmt.bits) == bits
        # By hand: 8 bits per weight on 23.1 usable GiB leave room for at most ~24B parameters.
        if bits == 8.0:
            assert found.estimate.inputs.params < 24e9


def test_the_longest_context_without_a_format_is_found_in_8_bits_beside_16(arch):
    a = arch("Qwen3-8B")
    found = inverse.longest_context(Workload(a, "inference"), machine(gpu="RTX 4080"))
    # By hand: Q8_0 weights 8.19B x 8.5 bits = 8.1 GiB, and the model's whole 40,960 tokens of
    # f16 KV cache (36 layers x 2 x 8 heads x 128 x 2 bytes = 144 KiB a token) 5.6 GiB: 13.7
    # GiB of the 4080's 15.1 usable. In 16 bits the weights alone take 15.3 GiB of it.
    assert found.value == 40_960
    assert found.estimate is not None
    assert weight_format(found.estimate.inputs.precision).bits == pytest.approx(8.5, abs=0.01)
    assert found.baseline is not None and found.baseline.value is not None
    assert found.baseline.value < 16_384
    assert weight_format(found.baseline.estimate.inputs.precision).bits > 15


def test_the_longest_context_of_a_70b_on_two_3090s_is_found_in_4_bits(arch):
    a = arch("Llama-3.1-70B")
    found = inverse.longest_context(Workload(a, "inference"), machine(gpu="RTX 3090", gpus=2))
    # By hand: neither 16 (141 GB) nor 8 bits (75 GB) fit 48 GB. Q4_K_M: 69.5B quantized
    # parameters x 4.89 bits = 39.6 GiB, 19.8 GiB a card of 23.1 usable; with each card's 0.6
    # GiB compute buffer about 2.7 GiB a card is left, 5.4 GiB for a q8_0 KV cache at 170 KiB a
    # token (80 layers x 2 x 8 heads x 128 x 1.0625 bytes): about 33,000 tokens.
    assert found.estimate is not None and found.estimate.inputs.precision == "q4_k_m"
    assert found.value is not None and 26_000 <= found.value <= 40_000


def test_the_most_users_are_served_by_a_queueing_server(arch):
    a = arch("Llama-3.1-8B")
    found = inverse.most_sequences(Workload(a, "inference", context=4096), machine(gpu="A100 80GB"))
    assert found.estimate is not None and found.estimate.inputs.engine == "vllm"
    # By hand: FP8 weights 8.5 GiB of vLLM's 71.5 GiB leave about 62 GiB for an FP8 KV cache
    # of 4,096 tokens x 32 layers x 2 x 8 heads x 128 x 1 byte = 256 MiB a sequence: ~248.
    assert found.value is not None and 230 <= found.value <= 260


def test_the_smaller_models_of_a_line():
    assert {m.name for m in biggest.relatives("Llama-3.1-405B")} == {
        "Llama-3.1-8B",
        "Llama-3.1-70B",
    }
    distills = {m.name for m in biggest.relatives("DeepSeek-R1")}
    assert "DeepSeek-R1-Distill-Qwen-14B" in distills and "DeepSeek-V3" not in distills
    # Same purposes only: no Qwen3-VL or Qwen3-Coder beside Qwen3-235B-A22B.
    qwen = {m.name for m in biggest.relatives("Qwen3-235B-A22B")}
    assert "Qwen3-32B" in qwen and not any("VL" in n or "Coder" in n for n in qwen)
    assert biggest.relatives("Kimi-K2-Instruct") == []


def test_deepseek_r1_on_an_8_gb_laptop_gpu_is_a_distill(arch):
    # The 4070 Laptop's 8 GB: the 14B distill in 4 bits (about 8.4 GiB of weights) does not fit,
    # a 7-8B one does.
    hw = machine(gpu="RTX 4070 Laptop", ram_gb=32)
    found = biggest.smaller_relative(Workload(arch("DeepSeek-R1"), "inference"), hw)
    assert found.value in ("DeepSeek-R1-Distill-Qwen-7B", "DeepSeek-R1-Distill-Llama-8B")
    assert found.estimate is not None and found.estimate.verdict == "fits"
